package render

import (
	"fmt"
	"math"
)

// BarChart is the geometry of a horizontal bar chart, computed here so that
// the theme's SVG template holds no arithmetic. The value axis starts at zero.
type BarChart struct {
	ID, Title           string
	Width, Height       float64
	Left, Right         float64 // plot area, x
	Top, Bottom         float64 // plot area, y
	LabelX, TickY, BarH float64
	Ticks               []Tick
	Bars                []Bar
}

// Tick is one gridline of the value axis.
type Tick struct {
	X     float64
	Label string
}

// Bar is one target's bar: its median, and a dot per repetition.
type Bar struct {
	Label, Value, Title string
	Y, W, TextY, ValueX float64
	Dots                []Dot
}

// Dot is one repetition.
type Dot struct {
	X, Y  float64
	Title string
}

// BarInput is one bar's data before layout.
type BarInput struct {
	Label  string
	Median float64
	Reps   []float64
	Unit   string // e.g. "req/s"
}

const (
	chartWidth = 720.0
	labelWidth = 150.0
	valueRoom  = 80.0
	rowHeight  = 26.0
	barHeight  = 16.0
	axisRoom   = 24.0
)

// NewBarChart lays out bars in the given order.
func NewBarChart(id, title string, bars []BarInput) BarChart {
	c := BarChart{
		ID: id, Title: title, Width: chartWidth,
		Left: labelWidth, Right: chartWidth - valueRoom,
		Top: 8, BarH: barHeight, LabelX: labelWidth - 8,
	}
	c.Bottom = c.Top + rowHeight*float64(len(bars))
	c.Height = c.Bottom + axisRoom
	c.TickY = c.Bottom + 16
	top := 0.0
	for _, b := range bars {
		top = math.Max(top, b.Median)
		for _, r := range b.Reps {
			top = math.Max(top, r)
		}
	}
	step, limit := niceAxis(top)
	scale := func(v float64) float64 {
		if limit == 0 {
			return 0
		}
		return round1((c.Right - c.Left) * v / limit)
	}
	for v := 0.0; v <= limit+step/2; v += step {
		c.Ticks = append(c.Ticks, Tick{X: round1(c.Left + scale(v)), Label: Count(v)})
	}
	for i, b := range bars {
		y := c.Top + rowHeight*float64(i) + (rowHeight-barHeight)/2
		bar := Bar{
			Label: b.Label, Value: Count(b.Median),
			Title: fmt.Sprintf("%s: median %s %s over %d repetitions", b.Label, Count(b.Median), b.Unit, len(b.Reps)),
			Y:     round1(y), W: scale(b.Median), TextY: round1(y + barHeight - 3),
		}
		bar.ValueX = round1(c.Left + bar.W + 6)
		for k, r := range b.Reps {
			bar.Dots = append(bar.Dots, Dot{
				X: round1(c.Left + scale(r)), Y: round1(y + barHeight/2),
				Title: fmt.Sprintf("%s rep %d: %s %s", b.Label, k+1, Count(r), b.Unit),
			})
		}
		c.Bars = append(c.Bars, bar)
	}
	return c
}

// niceAxis picks a round tick step and the axis end for values up to top.
func niceAxis(top float64) (step, limit float64) {
	if top <= 0 {
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

func round1(v float64) float64 { return math.Round(v*10) / 10 }
