package render

import (
	"fmt"
	"math"
	"strings"
)

// BarChart is the geometry of a horizontal bar chart, computed here so that
// the theme's SVG template holds no arithmetic. The value axis starts at
// zero; every mark has a <title>; colours come from CSS classes only.
type BarChart struct {
	ID, Title, Desc     string
	Width, Height       float64
	Left, Right         float64 // plot area, x
	Top, Bottom         float64 // plot area, y
	LabelX, TickY, BarH float64
	Ticks               []Tick
	Bands               []Band
	Bars                []Bar
}

// Tick is one gridline of the value axis.
type Tick struct {
	X     float64
	Label string
}

// Band shades the rows of one tier.
type Band struct {
	Y, H, LabelY float64
	Class, Label string
}

// Bar is one target's bar: its median, a whisker, a dot per repetition.
type Bar struct {
	Label, Href, Value, Title string
	Class                     string // "bar" plus "unranked" where nothing is claimed
	Y, W, TextY, ValueX       float64
	Whisker                   *Whisker
	Reps                      *RepDots
	Badge                     *ChartBadge
}

// Whisker spans an interval: the median's confidence interval, or min–max.
type Whisker struct {
	X1, X2, Y, Y1, Y2 float64
	Title             string
}

// ChartBadge marks a bar that has findings.
type ChartBadge struct {
	X, Y         float64
	Class, Title string
	Href         string
}

// RepDots are a dot per repetition, drawn as one path of round dots (a
// zero-length segment each, see the theme's CSS) with one title that lists
// every repetition: a third of the bytes of a circle each, which keeps a
// 50-target scenario page light.
type RepDots struct {
	D, Title string
}

// BarInput is one bar's data before layout.
type BarInput struct {
	Label, Href string
	Median      float64
	// Lo and Hi bound the whisker; both 0 for none.
	Lo, Hi       float64
	WhiskerLabel string // "95% interval" or "min–max"
	Reps         []RepInput
	Unit         string // e.g. "req/s"
	Tier         int    // 0 for unranked
	Badge        *ChartBadge
}

// RepInput is one repetition's value.
type RepInput struct {
	Value float64
	Label string // "3", or "#3" when the dump has no rep number
}

const (
	chartWidth = 680.0
	labelWidth = 170.0
	valueRoom  = 84.0
	rowHeight  = 24.0
	barHeight  = 14.0
	axisRoom   = 24.0
)

// NewBarChart lays out bars in the given order. Consecutive bars of the
// same tier share a shaded band.
func NewBarChart(id, title string, bars []BarInput) BarChart {
	c := BarChart{
		ID: id, Title: title, Width: chartWidth,
		Left: labelWidth, Right: chartWidth - valueRoom,
		Top: 4, BarH: barHeight, LabelX: labelWidth - 10,
	}
	c.Bottom = c.Top + rowHeight*float64(len(bars))
	c.Height = c.Bottom + axisRoom
	c.TickY = c.Bottom + 16
	top := 0.0
	for _, b := range bars {
		top = maxFinite(top, b.Median, b.Hi)
		for _, r := range b.Reps {
			top = maxFinite(top, r.Value)
		}
	}
	step, limit := niceAxis(top)
	scale := func(v float64) float64 {
		if limit == 0 || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0
		}
		return round1((c.Right - c.Left) * math.Min(v, limit) / limit)
	}
	for v := 0.0; v <= limit+step/2; v += step {
		c.Ticks = append(c.Ticks, Tick{X: round1(c.Left + scale(v)), Label: Count(v)})
	}
	c.Bands = tierBands(bars, c.Top)
	for i, b := range bars {
		rowTop := c.Top + rowHeight*float64(i)
		y := rowTop + (rowHeight-barHeight)/2
		mid := round1(y + barHeight/2)
		bar := Bar{
			Label: shorten(b.Label, maxLabel), Href: b.Href, Value: Count(b.Median), Class: "bar",
			Title: fmt.Sprintf("%s: median %s %s, n=%d", b.Label, Count(b.Median), b.Unit, len(b.Reps)),
			Y:     round1(y), W: scale(b.Median), TextY: round1(y + barHeight - 3),
		}
		if b.Tier == 0 {
			bar.Class = "bar unranked"
		}
		right := bar.W
		if b.Hi > 0 && !math.IsInf(b.Hi, 0) && b.Lo >= 0 {
			bar.Whisker = &Whisker{
				X1: round1(c.Left + scale(b.Lo)), X2: round1(c.Left + scale(b.Hi)),
				Y: mid, Y1: round1(mid - 4), Y2: round1(mid + 4),
				Title: fmt.Sprintf("%s %s–%s", b.WhiskerLabel, Count(b.Lo), Count(b.Hi)),
			}
			right = math.Max(right, scale(b.Hi))
		}
		if len(b.Reps) > 0 {
			var d, title strings.Builder
			title.WriteString("repetitions:")
			for _, r := range b.Reps {
				right = math.Max(right, scale(r.Value))
				fmt.Fprintf(&d, "M%g %gh0", round1(c.Left+scale(r.Value)), mid)
				fmt.Fprintf(&title, " %s %s;", r.Label, Count(r.Value))
			}
			bar.Reps = &RepDots{D: d.String(), Title: strings.TrimSuffix(title.String(), ";")}
		}
		bar.ValueX = round1(c.Left + right + 6)
		if b.Badge != nil {
			badge := *b.Badge
			badge.X, badge.Y = round1(c.Left-5), mid
			bar.Badge = &badge
		}
		c.Bars = append(c.Bars, bar)
	}
	return c
}

// tierBands shades runs of bars with the same tier, alternating classes.
func tierBands(bars []BarInput, top float64) []Band {
	var bands []Band
	for i := 0; i < len(bars); {
		j := i
		for j < len(bars) && bars[j].Tier == bars[i].Tier {
			j++
		}
		b := Band{
			Y: round1(top + rowHeight*float64(i)), H: round1(rowHeight * float64(j-i)),
			Class: fmt.Sprintf("band band%d", len(bands)%2),
		}
		b.LabelY = round1(b.Y + 11)
		if bars[i].Tier > 0 {
			b.Label = fmt.Sprintf("tier %d", bars[i].Tier)
		} else {
			b.Label = "unranked"
			b.Class += " band-unranked"
		}
		bands = append(bands, b)
		i = j
	}
	return bands
}

// niceAxis picks a round tick step and the axis end for values up to top.
func niceAxis(top float64) (step, limit float64) {
	if top <= 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		return 1, 1
	}
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	limit = math.Ceil(top/step) * step
	return step, limit
}

func maxFinite(acc float64, vs ...float64) float64 {
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) && v > acc {
			acc = v
		}
	}
	return acc
}

// maxLabel is the most characters of a name the label column shows; the
// bar's title has the whole name.
const maxLabel = 21

// shorten cuts s to n characters, ending in "…" when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// round1 rounds a coordinate to a whole unit: at 680 units wide that is
// 0.15% of the width, finer than a screen shows, and it keeps pages light.
func round1(v float64) float64 { return math.Round(v) }
