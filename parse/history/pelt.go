package history

import (
	"math"
	"slices"
)

// minSegment is the fewest runs a segment between change points holds:
// one run alone is an outlier, not a level.
const minSegment = 2

// Penalty is the cost of one more change point, in units of the series'
// noise variance, for a series of n points: 4·ln n. BIC's ln n alarms on
// the maximum of many noisy split points; 4·ln n keeps the false alarms
// of the synthetic histories (changes_test.go) under one in all series.
func Penalty(n int) float64 { return 4 * math.Log(float64(n)) }

// ChangePoints finds where the mean of y steps, by PELT (Killick,
// Fearnhead and Eckley 2012): the segmentation minimising the sum of each
// segment's squared deviations from its mean, divided by sigma², plus
// penalty per change, exact, with pruning. It returns the index of the
// first point of each new segment, ascending. sigma must be positive.
func ChangePoints(y []float64, sigma, penalty float64) []int {
	n := len(y)
	if n < 2*minSegment || !(sigma > 0) {
		return nil
	}
	s1, s2 := make([]float64, n+1), make([]float64, n+1)
	for i, v := range y {
		s1[i+1], s2[i+1] = s1[i]+v, s2[i]+v*v
	}
	cost := func(a, b int) float64 { // points [a, b)
		m := float64(b - a)
		d := s1[b] - s1[a]
		return (s2[b] - s2[a] - d*d/m) / (sigma * sigma)
	}
	f := make([]float64, n+1)
	last := make([]int, n+1)
	f[0] = -penalty
	cands := []int{0}
	for t := minSegment; t <= n; t++ {
		f[t] = math.Inf(1)
		for _, s := range cands {
			if t-s < minSegment {
				continue
			}
			if v := f[s] + cost(s, t) + penalty; v < f[t] {
				f[t], last[t] = v, s
			}
		}
		keep := cands[:0]
		for _, s := range cands {
			if t-s < minSegment || f[s]+cost(s, t) <= f[t] {
				keep = append(keep, s)
			}
		}
		cands = append(keep, t)
	}
	var cps []int
	for t := last[n]; t > 0; t = last[t] {
		cps = append(cps, t)
	}
	slices.Reverse(cps)
	return cps
}

// NoiseSD is a robust estimate of the point-to-point noise of a series
// that may hold steps: 1.4826 × the median absolute first difference ÷ √2
// (a step spoils one difference, not the median).
func NoiseSD(y []float64) float64 {
	if len(y) < 3 {
		return 0
	}
	d := make([]float64, len(y)-1)
	for i := range d {
		d[i] = math.Abs(y[i+1] - y[i])
	}
	slices.Sort(d)
	med := d[len(d)/2]
	if len(d)%2 == 0 {
		med = (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	return 1.4826 * med / math.Sqrt2
}
