package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// BarChart is the geometry of a horizontal bar chart, computed here so that
// the theme's SVG template holds no arithmetic. The value axis starts at
// zero; every mark has a <title>; colours come from CSS classes only.
type BarChart struct {
	ChartFrame
	LabelX, TickY, BarH float64
	// Unit names the value axis ("req/s"), drawn under its ticks at UnitX,
	// UnitY.
	Unit         string
	UnitX, UnitY float64
	Ticks        []Tick
	Bars         []Bar
}

// ChartFrame is what every chart has around its marks, which the theme's
// chart templates draw alike: the id and the texts that label the SVG, its
// size, the plot area and the legend.
type ChartFrame struct {
	ID, Title, Desc string
	Width, Height   float64
	Left, Right     float64 // plot area, x
	Top, Bottom     float64 // plot area, y
	// Legend says what each mark is, in the order drawn.
	Legend []LegendItem
}

// LegendItem is one kind of mark and what it means.
type LegendItem struct {
	Class, Text string // Class is the swatch: "sw-bar", "sw-unranked", "sw-whisker", "sw-dot", "sw-mark"
}

// Tick is one gridline of the value axis.
type Tick struct {
	X     float64
	Label string
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
	WhiskerLabel string // "95% confidence interval of the median" or "min–max of 4 repetitions"
	Reps         []RepInput
	Unit         string // e.g. "req/s"
	// What is what the bar's length is: "median" unless set.
	What  string
	Note  string       // appended to the bar's title: "run 2026…, ranked within it"
	Rank  verdict.Rank // unranked bars are drawn pale
	Badge *ChartBadge
	// Group colours the bar (its runtime, say): bars of one group share
	// one of chartGroups colours, and the legend names each group.
	Group string
}

// chartGroups is how many group colours the theme defines (g0…g5); more
// groups than that reuse them in order, and the legend still names each.
const chartGroups = 6

// RepInput is one repetition's value.
type RepInput struct {
	Value float64
	Label string // "3", or "#3" when the dump has no rep number
}

// The bar chart's geometry, in SVG units. The chart is drawn 680 wide and
// scaled to the page: on a phone (about 360 px of page) a unit is half a
// pixel, so the theme sets its texts to about 21 units there (11 px on
// screen) and the columns have room for them: a label of maxLabel
// characters, a value of seven ("123,456"), six short ticks (ShortCount)
// across the plot, rows tall enough for a line of text.
const (
	chartWidth = 680.0
	labelWidth = 256.0
	valueRoom  = 98.0
	rowHeight  = 26.0
	barHeight  = 14.0
	axisRoom   = 30.0
	unitRoom   = 22.0
)

// NewBarChart lays out bars in the given order, with the unit under the
// value axis and a legend of the marks it drew.
func NewBarChart(id, title string, bars []BarInput) BarChart {
	c := BarChart{
		ChartFrame: ChartFrame{ID: id, Title: title, Width: chartWidth, Left: labelWidth, Right: chartWidth - valueRoom, Top: 4},
		BarH:       barHeight, LabelX: labelWidth - barLabelGap,
	}
	c.Bottom = c.Top + rowHeight*float64(len(bars))
	c.Height = c.Bottom + axisRoom + unitRoom
	c.TickY = c.Bottom + 20
	if len(bars) > 0 {
		c.Unit = bars[0].Unit
	}
	c.UnitX, c.UnitY = round1((c.Left+c.Right)/2), c.TickY+unitRoom
	top := 0.0
	for _, b := range bars {
		top = maxFinite(top, b.Median, b.Hi)
		for _, r := range b.Reps {
			top = maxFinite(top, r.Value)
		}
	}
	groups := map[string]int{}
	for _, b := range bars {
		if _, ok := groups[b.Group]; !ok && b.Group != "" {
			groups[b.Group] = len(groups)
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
		c.Ticks = append(c.Ticks, Tick{X: round1(c.Left + scale(v)), Label: ShortCount(v)})
	}
	for i, b := range bars {
		rowTop := c.Top + rowHeight*float64(i)
		y := rowTop + (rowHeight-barHeight)/2
		mid := round1(y + barHeight/2)
		bar := Bar{
			Label: fitLabel(b.Label), Href: b.Href, Value: Count(b.Median), Class: "bar",
			Title: fmt.Sprintf("%s: %s %s %s", b.Label, b.what(), Count(b.Median), b.Unit),
			Y:     round1(y), W: scale(b.Median), TextY: mid, // centred by the theme (dominant-baseline)
		}
		if len(b.Reps) > 0 {
			bar.Title += fmt.Sprintf(" of %s", parse.Plural(len(b.Reps), "repetition"))
		}
		if b.Group != "" {
			bar.Class += fmt.Sprintf(" g%d", groups[b.Group]%chartGroups)
			bar.Title += " (" + b.Group + ")"
		}
		if b.Rank.Ranked {
			bar.Title += ", rank " + rankText(b.Rank)
		} else if len(b.Reps) > 0 {
			bar.Class = "bar unranked"
		}
		if b.Note != "" {
			bar.Title += "; " + b.Note
		}
		right := bar.W
		if b.Hi > 0 && !math.IsInf(b.Hi, 0) && b.Lo >= 0 {
			bar.Whisker = &Whisker{
				X1: round1(c.Left + scale(b.Lo)), X2: round1(c.Left + scale(b.Hi)),
				Y: mid, Y1: round1(mid - 4), Y2: round1(mid + 4),
				Title: fmt.Sprintf("%s–%s (%s)", Count(b.Lo), Count(b.Hi), b.WhiskerLabel),
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
	c.legend(bars, groups)
	return c
}

// legend lists the kinds of marks the chart drew, each once.
func (c *BarChart) legend(bars []BarInput, groups map[string]int) {
	whats, whiskers := map[string]bool{}, map[string]bool{}
	var reps, unranked, marks bool
	var add []LegendItem
	for _, b := range bars {
		if w := b.what(); !whats[w] {
			whats[w] = true
			add = append(add, LegendItem{Class: "sw-bar", Text: "bar: " + w + " " + b.Unit})
		}
		if b.WhiskerLabel != "" && b.Hi > 0 && !whiskers[whiskerKind(b.WhiskerLabel)] {
			whiskers[whiskerKind(b.WhiskerLabel)] = true
			add = append(add, LegendItem{Class: "sw-whisker", Text: "whisker: " + whiskerKind(b.WhiskerLabel)})
		}
		reps = reps || len(b.Reps) > 0
		unranked = unranked || (!b.Rank.Ranked && len(b.Reps) > 0)
		marks = marks || b.Badge != nil
	}
	names := make([]string, len(groups))
	for g, i := range groups {
		names[i] = g
	}
	for i, g := range names {
		add = append(add, LegendItem{Class: fmt.Sprintf("sw-bar g%d", i%chartGroups), Text: g})
	}
	if reps {
		add = append(add, LegendItem{Class: "sw-dot", Text: "dot: one repetition"})
	}
	if unranked {
		add = append(add, LegendItem{Class: "sw-unranked", Text: "pale bar: unranked (its title says why)"})
	}
	if marks {
		add = append(add, LegendItem{Class: "sw-mark", Text: "mark: the audit has findings (links to them)"})
	}
	c.Legend = add
}

// whiskerKind is a whisker label without its count: "min–max of the
// repetitions" for any n, a confidence interval with what its odd level
// is (the whisker's interval is one target's median, not a verdict's).
func whiskerKind(label string) string {
	if strings.HasPrefix(label, "min–max") {
		return "min–max of the repetitions (too few for a confidence interval)"
	}
	return label + " (its level is the nearest at or above the one asked for, 95% by default, that the repetitions' order statistics give; it describes one target, while a verdict's interval is of a pair's ratio)"
}

func (b BarInput) what() string {
	if b.What != "" {
		return b.What
	}
	return "median"
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
	return shortenRunes(r, n)
}

// round1 rounds a coordinate to a whole unit: at 680 units wide that is
// 0.15% of the width, finer than a screen shows, and it keeps pages light.
func round1(v float64) float64 { return math.Round(v) }
