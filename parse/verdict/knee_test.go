package verdict

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// sweepConns are the connection counts the simulated sweeps measure.
var sweepConns = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}

// simulateSweep measures a closed-loop curve at sweepConns: each point the
// median of reps repetitions, each repetition's throughput the model's times
// lognormal noise of sd sigma; latency follows by Little's law (R = N/X).
func simulateSweep(rng *rand.Rand, model func(n float64) float64, reps int, sigma float64) []CurvePoint {
	var out []CurvePoint
	for _, n := range sweepConns {
		xs := make([]float64, reps)
		for i := range xs {
			xs[i] = model(float64(n)) * math.Exp(sigma*rng.NormFloat64())
		}
		slices.Sort(xs)
		x := xs[reps/2]
		out = append(out, CurvePoint{Connections: n, Throughput: x, Latency: time.Duration(float64(n) / x * float64(time.Second))})
	}
	return out
}

// TestFindKneeSimulated checks the knee on simulated sweeps with a fixed
// seed: a server that saturates (asymptotic bounds of a closed queue:
// X = min(N/(Z+S), 1/S), here saturating at N* = 48 connections) has its
// knee at the first measured count past N*÷(1+KneeGain), 64; one that
// collapses past its peak has it at the peak; a curve that keeps growing
// (each doubling of connections gains 74%) has none.
func TestFindKneeSimulated(t *testing.T) {
	const capacity, nStar = 20000.0, 48.0
	cases := []struct {
		name  string
		model func(n float64) float64
		want  int // connections of the knee, 0 for none
	}{
		{"saturates", func(n float64) float64 { return min(n/nStar, 1) * capacity }, 64},
		{"collapses past its peak", func(n float64) float64 {
			if n <= 16 {
				return n / 16 * capacity
			}
			return capacity * math.Pow(16/n, 0.3)
		}, 16},
		{"keeps growing", func(n float64) float64 { return 900 * math.Pow(n, 0.8) }, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(16, 5))
			const trials = 500
			wrong := 0
			for range trials {
				pts := simulateSweep(rng, tc.model, 5, 0.03)
				k, ok := FindKnee(pts)
				got := 0
				if ok {
					got = k.Connections
				}
				if got != tc.want {
					wrong++
					if wrong == 1 {
						t.Logf("first miss: knee %d (found %v), want %d; points %+v", got, ok, tc.want, pts)
					}
				}
			}
			// Noise of 3% per repetition is a noisy machine; the rule may miss
			// at most 1% of curves.
			if wrong > trials/100 {
				t.Errorf("knee wrong in %d of %d simulated sweeps, want at most %d", wrong, trials, trials/100)
			}
		})
	}
}

func TestFindKneeEdges(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name   string
		points []CurvePoint
		want   int
		ok     bool
	}{
		{"too few points", []CurvePoint{{1, 1000, ms}, {8, 1000, 8 * ms}}, 0, false},
		{"flat throughput, latency unknown", []CurvePoint{{1, 1000, 0}, {8, 1010, 0}, {64, 1005, 0}}, 0, false},
		{"flat throughput, flat latency", []CurvePoint{{1, 1000, ms}, {8, 1010, ms}, {64, 1005, ms}}, 0, false},
		{"unsorted input", []CurvePoint{{256, 10100, 25 * ms}, {1, 1000, ms}, {64, 10000, 6 * ms}, {8, 7000, ms}}, 64, true},
		{"saturated from the first point", []CurvePoint{{1, 9000, ms}, {8, 9500, 8 * ms}, {64, 9400, 68 * ms}}, 1, true},
	}
	for _, tc := range cases {
		k, ok := FindKnee(tc.points)
		if ok != tc.ok || k.Connections != tc.want {
			t.Errorf("%s: knee at %d (%v), want %d (%v)", tc.name, k.Connections, ok, tc.want, tc.ok)
		}
		if ok && k.Why == "" {
			t.Errorf("%s: knee without a reason", tc.name)
		}
	}
}
