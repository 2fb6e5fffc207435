package history

import "math"

// spread is the history's own estimate of the run-level variance of a
// place's controlled level: each gated place's levels over the runs
// scattered about their mean, pooled over the places (S2 on DF degrees of
// freedom), less the part their repetitions' noise explains (W, the mean
// within-run variance of one such level, on WDF).
//
// The twins cannot see all of it: they are one program, so they read the
// host's mood and the process's, but not how a day moves one program
// against another (a Go server against the Node twins, say, when the
// hypervisor changes what a cycle buys) unless the suite names twins of
// that runtime too (aa_pairs). The runs show that directly.
// The run under test enters too, as in a pooled t-test: with nothing
// changed it is one more draw, and an odd day then widens the yardstick
// it is judged by instead of being claimed; a real change in one place
// widens it only by that place's share of the pool.
type spread struct {
	S2, W   float64
	DF, WDF int
	Places  int
}

// tau2 is the estimate, at least 0.
func (s spread) tau2() float64 { return math.Max(0, s.S2-s.W) }

// parts are the estimate times c as variance parts for Satterthwaite;
// none when the estimate is 0.
func (s spread) parts(c float64) []part {
	if s.DF == 0 || s.tau2() == 0 {
		return nil
	}
	return []part{{c * s.S2, float64(s.DF)}, {-c * s.W, float64(s.WDF)}}
}

// add pools one place's levels ys with their within-run
// variance parts (one slice per level).
func (s *spread) add(ys []float64, within [][]part) {
	k := len(ys)
	if k < 2 {
		return
	}
	mean := 0.0
	for _, y := range ys {
		mean += y / float64(k)
	}
	ss, w := 0.0, 0.0
	wdf := 0
	for i, y := range ys {
		ss += (y - mean) * (y - mean)
		for _, p := range within[i] {
			w += p.v
			wdf += int(math.Round(p.df))
		}
	}
	// S2 and W are pooled as sums here and divided at the end (finish):
	// each place weighs by its degrees of freedom.
	s.S2 += ss
	s.W += w / float64(k) * float64(k-1)
	s.DF += k - 1
	s.WDF += wdf
	s.Places++
}

// finish turns the pooled sums into the variances.
func (s *spread) finish() {
	if s.DF > 0 {
		s.S2 /= float64(s.DF)
		s.W /= float64(s.DF)
	}
}
