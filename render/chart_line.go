package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// LineChart is the geometry of a chart of lines over points: one series
// per target, every repetition a dot, the line through the medians. As
// with BarChart, the theme's SVG template holds no arithmetic; the value
// axis starts at zero, both axes carry their unit, every mark has a
// <title>, colours come from CSS classes only.
type LineChart struct {
	ChartFrame
	XTicks, YTicks []AxisTick
	// XUnit and YUnit name the axes, drawn under the x ticks and above the
	// y ticks.
	XUnit, YUnit   string
	XUnitX, XUnitY float64
	YUnitX, YUnitY float64
	Series         []Series
}

// AxisTick is one gridline: a vertical one at X (x axis) or a horizontal
// one at Y (y axis), with its label at LX, LY.
type AxisTick struct {
	X, Y, LX, LY float64
	Label        string
}

// Series is one target's line: the path through its medians, a dot per
// repetition, and its name at the line's end.
type Series struct {
	Name, Class, Title string
	D                  string // the median line's path, "" when fewer than two medians
	Dots               []Dot
	Marks              []Dot // the knee, drawn as a ring
	LabelX, LabelY     float64
}

// Dot is one mark: a repetition (Class "dot", or "dot behind", drawn
// hollow, where the client fell behind its schedule) or a knee ("knee").
type Dot struct {
	X, Y         float64
	Class, Title string
	Href         string
}

// LineInput is one series before layout.
type LineInput struct {
	Name string
	// Series is the style the series takes (0 to seriesClasses-1, taken
	// modulo), so that a target keeps its colour on every chart.
	Series int
	Points []PointInput
	// Knee is the x of the series' knee, NaN for none; KneeTitle says why.
	Knee      float64
	KneeTitle string
}

// PointInput is one repetition's point.
type PointInput struct {
	X, Y  float64
	Title string
	Href  string
	// Behind marks a point that shows the client's failure, not the
	// server's latency: drawn hollow and left out of the median line.
	Behind bool
}

// LineSpec says what the axes of a LineChart are.
type LineSpec struct {
	ID, Title, Desc string
	XUnit, YUnit    string
	// LogX places x on a log₂ scale with a tick at every x measured
	// (connections 1, 8, 64, 256); else x is linear from zero.
	LogX bool
	// XMax is the least extent of a linear x axis (100 for a percentage).
	XMax float64
	// YScale turns a value into the axis's unit (1000 for seconds shown
	// as ms); 0 means 1.
	YScale float64
}

const (
	lineLeft   = 64.0
	lineRight  = 150.0 // room for the series' names
	lineTop    = 24.0
	lineHeight = 260.0
	lineAxis   = 40.0
)

// seriesClasses style the series in turn; the theme gives each a colour
// and a dash so that the lines differ without colour too.
const seriesClasses = 6

// NewLineChart lays out series on the spec's axes, in the order given.
func NewLineChart(spec LineSpec, series []LineInput) LineChart {
	c := LineChart{ChartFrame: ChartFrame{ID: spec.ID, Title: spec.Title, Desc: spec.Desc, Width: chartWidth,
		Left: lineLeft, Right: chartWidth - lineRight, Top: lineTop, Bottom: lineTop + lineHeight},
		XUnit: spec.XUnit, YUnit: spec.YUnit}
	c.Height = c.Bottom + lineAxis
	c.XUnitX, c.XUnitY = round1((c.Left+c.Right)/2), c.Bottom+34
	c.YUnitX, c.YUnitY = 6, lineTop-10
	ys := spec.YScale
	if ys == 0 {
		ys = 1
	}
	var xs []float64
	topX, topY := spec.XMax, 0.0
	for _, s := range series {
		for _, p := range s.Points {
			xs = append(xs, p.X)
			topX, topY = maxFinite(topX, p.X), maxFinite(topY, p.Y*ys)
		}
	}
	sx := c.xScale(spec, xs, topX)
	ystep, ylimit := niceAxis(topY)
	sy := func(v float64) float64 {
		v *= ys
		if math.IsNaN(v) || v < 0 {
			v = 0
		}
		return round1(c.Bottom - (c.Bottom-c.Top)*math.Min(v, ylimit)/ylimit)
	}
	for i := 0.0; i*ystep <= ylimit+ystep/2; i++ {
		v := i * ystep
		y := sy(v / ys)
		c.YTicks = append(c.YTicks, AxisTick{X: c.Left, Y: y, LX: c.Left - 6, LY: y + 4, Label: tickLabel(v)})
	}
	for _, s := range series {
		c.Series = append(c.Series, c.series(s, sx, sy))
	}
	c.spreadLabels()
	c.legend(series)
	return c
}

// xScale sets the x ticks and returns the x position of a value.
func (c *LineChart) xScale(spec LineSpec, xs []float64, top float64) func(float64) float64 {
	if spec.LogX {
		xs = slices.Compact(slices.Sorted(slices.Values(xs)))
		lo, hi := 0.0, 1.0
		if len(xs) > 0 && xs[0] > 0 {
			lo, hi = math.Log2(xs[0]), math.Log2(xs[len(xs)-1])
		}
		if hi <= lo {
			hi = lo + 1
		}
		pos := func(v float64) float64 {
			if v <= 0 {
				return c.Left
			}
			return round1(c.Left + 12 + (c.Right-c.Left-24)*(math.Log2(v)-lo)/(hi-lo))
		}
		for _, v := range xs {
			c.XTicks = append(c.XTicks, AxisTick{X: pos(v), Y: c.Top, LX: pos(v), LY: c.Bottom + 16, Label: Count(v)})
		}
		return pos
	}
	step, limit := niceAxis(top)
	pos := func(v float64) float64 {
		if math.IsNaN(v) || v < 0 {
			v = 0
		}
		return round1(c.Left + (c.Right-c.Left)*math.Min(v, limit)/limit)
	}
	for i := 0.0; i*step <= limit+step/2; i++ {
		v := i * step
		c.XTicks = append(c.XTicks, AxisTick{X: pos(v), Y: c.Top, LX: pos(v), LY: c.Bottom + 16, Label: tickLabel(v)})
	}
	return pos
}

// series lays out one line: its dots, the path through the medians of the
// points that kept to their schedule at each x, and its knee.
func (c *LineChart) series(s LineInput, sx, sy func(float64) float64) Series {
	out := Series{Name: shorten(s.Name, 18), Class: fmt.Sprintf("s%d", s.Series%seriesClasses)}
	byX := map[float64][]float64{}
	for _, p := range s.Points {
		d := Dot{X: sx(p.X), Y: sy(p.Y), Class: "dot", Title: s.Name + ": " + p.Title, Href: p.Href}
		if p.Behind {
			d.Class = "dot behind"
		} else {
			byX[p.X] = append(byX[p.X], p.Y)
		}
		out.Dots = append(out.Dots, d)
	}
	xs := make([]float64, 0, len(byX))
	for x := range byX {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	var d strings.Builder
	for k, x := range xs {
		y := verdict.MedianOf(byX[x])
		cmd := "L"
		if k == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&d, "%s%g %g", cmd, sx(x), sy(y))
		out.LabelX, out.LabelY = sx(x)+8, sy(y)+4
		if x == s.Knee {
			out.Marks = append(out.Marks, Dot{X: sx(x), Y: sy(y), Class: "knee", Title: s.Name + ": knee at " + Count(x) + "; " + s.KneeTitle})
		}
	}
	if len(xs) > 1 {
		out.D = d.String()
	}
	out.Title = fmt.Sprintf("%s: median of the repetitions that kept to their schedule, at %s", s.Name, parse.Plural(len(xs), "load"))
	if len(xs) == 0 && len(out.Dots) > 0 {
		out.LabelX, out.LabelY = out.Dots[len(out.Dots)-1].X+8, out.Dots[len(out.Dots)-1].Y+4
	}
	return out
}

// labelGap is the least vertical distance between two series' names.
const labelGap = 13.0

// spreadLabels moves the series' names apart where lines end close
// together, keeping their order from top to bottom.
func (c *LineChart) spreadLabels() {
	idx := make([]int, len(c.Series))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return c.Series[idx[a]].LabelY < c.Series[idx[b]].LabelY })
	for k := 1; k < len(idx); k++ {
		prev, cur := &c.Series[idx[k-1]], &c.Series[idx[k]]
		if cur.LabelY-prev.LabelY < labelGap && math.Abs(cur.LabelX-prev.LabelX) < 60 {
			cur.LabelY = prev.LabelY + labelGap
		}
	}
}

// tickLabel writes an axis value: grouped from 100 up, else with the
// digits a round step needs (0.25, 2.5, 12.5).
func tickLabel(v float64) string {
	if math.Abs(v) >= 100 {
		return Count(v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// legend says what each kind of mark is, and names each series.
func (c *LineChart) legend(series []LineInput) {
	var behind, knee bool
	for _, s := range series {
		c.Legend = append(c.Legend, LegendItem{Class: fmt.Sprintf("sw-line s%d", s.Series%seriesClasses), Text: s.Name})
		knee = knee || !math.IsNaN(s.Knee)
		for _, p := range s.Points {
			behind = behind || p.Behind
		}
	}
	c.Legend = append(c.Legend, LegendItem{Class: "sw-dot", Text: "dot: one repetition; line: their median"})
	if behind {
		c.Legend = append(c.Legend, LegendItem{Class: "sw-hollow", Text: "hollow dot: the load tool fell behind its schedule, so the latency is the client's failure, not the server's (left out of the line)"})
	}
	if knee {
		c.Legend = append(c.Legend, LegendItem{Class: "sw-knee", Text: "ring: the knee, where more connections stop buying throughput while latency grows"})
	}
}
