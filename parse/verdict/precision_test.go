package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// host is the noise of one window on log throughput as this host shows
// it: an autoregressive process (lag-1 correlation phi between adjacent
// windows), slow bursts, a drift over the run, and a fresh server
// process's own offset per window.
type host struct {
	sd, phi       float64 // the stationary sd and lag-1 correlation
	burst, slowBy float64 // the chance of a slow burst window, and its cost (log)
	drift         float64 // added per window
	process       float64 // sd of a fresh process's offset
	x, t          float64
}

// window is the next window's log noise for a fresh server process.
func (h *host) window(r *rand.Rand) float64 {
	h.x = h.phi*h.x + math.Sqrt(1-h.phi*h.phi)*h.sd*r.NormFloat64()
	h.t += h.drift
	y := h.x + h.t + h.process*r.NormFloat64()
	if r.Float64() < h.burst {
		y -= h.slowBy
	}
	return y
}

// collectToPrecision draws rounds of k targets (levels in log) the way a
// collect to a precision takes them: each round visits the targets back
// to back in a fresh random order, and after minRounds, rounds are added
// while the family's PrecisionOf is above resolve and fewer than
// maxRounds (the budget) were taken. logs[i][r] is target i in round r.
func collectToPrecision(r *rand.Rand, h host, levels []float64, minRounds, maxRounds int, resolve float64, th Thresholds) [][]float64 {
	logs := make([][]float64, len(levels))
	order := make([]int, len(levels))
	for i := range order {
		order[i] = i
	}
	for round := 0; round < maxRounds; round++ {
		if round >= minRounds && PrecisionOf(logs, th).Resolves <= resolve {
			break
		}
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			logs[i] = append(logs[i], levels[i]+h.window(r))
		}
	}
	return logs
}

// noisyHost is a bad day as measured here: windows varying about 10% in
// all (sd 0.085 with lag-1 0.26, one window in fifty 25% slow, 2% per
// process), drifting 3% per 100 windows; quietHost a good one.
var (
	noisyHost = host{sd: 0.085, phi: 0.26, burst: 0.02, slowBy: math.Log(1 / 0.75), drift: 0.0003, process: 0.02}
	quietHost = host{sd: 0.02, phi: 0.26, drift: 0.0001, process: 0.01}
)

// TestPrecisionNullAdaptive: identical targets collected to a precision,
// stopping on the noise, on a quiet and a bad day: pages with any false
// claim stay within α (the binomial bound), as at a fixed count. The floor
// is 0, so that the test and its stopping rule are what is checked.
func TestPrecisionNullAdaptive(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0
	for _, c := range []struct {
		name string
		h    host
		k    int
	}{{"quiet k=7", quietHost, 7}, {"bad day k=7", noisyHost, 7}, {"bad day k=3", noisyHost, 3},
		{"gaussian 10% k=7", host{sd: 0.10, phi: 0.26}, 7}, {"gaussian 10% k=2", host{sd: 0.10, phi: 0.26}, 2}} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(53, uint64(c.k)))
			pages, bad, rounds := simPages()/2, 0, 0
			for range pages {
				logs := collectToPrecision(r, c.h, make([]float64, c.k), 8, 60, 0.10, th)
				rounds += len(logs[0])
				if anyClaim(blockedPage(logs, th)) {
					bad++
				}
			}
			t.Logf("%d of %d pages with a false claim; %.1f rounds on average", bad, pages, float64(rounds)/float64(pages))
			if float64(bad) > binomialBound(th.Alpha, pages) {
				t.Errorf("%d of %d pages of identical targets claim a difference, over %.0f", bad, pages, binomialBound(th.Alpha, pages))
			}
		})
	}
}

// TestPrecisionShowsTenPercent: the planted suite's shape (a base, its
// twin 2% apart, copies 5%, 10% and 25% slower, a second base and its
// copy 10% slower) on a bad day, collected to resolve 10% within 60
// rounds: each 10% pair is claimed the right way in at least 80% of
// collects, none the wrong way, and the rounds spent are printed.
func TestPrecisionShowsTenPercent(t *testing.T) {
	th := DefaultThresholds
	slower := func(p float64) float64 { return -math.Log1p(p) }
	levels := []float64{0, slower(0.02), slower(0.05), slower(0.10), slower(0.25), 0.3, 0.3 + slower(0.10)}
	for _, c := range []struct {
		name string
		h    host
	}{{"quiet", quietHost}, {"bad day", noisyHost}} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(59, 1))
			collects, rounds := simPages()/4, 0
			shown, wrong := map[string]int{}, 0
			for range collects {
				logs := collectToPrecision(r, c.h, levels, 8, 60, 0.10, th)
				rounds += len(logs[0])
				sv := blockedPage(logs, th)
				for _, p := range [][2]int{{0, 3}, {5, 6}, {0, 4}} {
					v, _ := sv.Pair(cellOf(sv, p[0]), cellOf(sv, p[1]))
					key := fmt.Sprintf("t%02d÷t%02d", p[0], p[1])
					switch v.Faster() {
					case cellOf(sv, p[0]):
						shown[key]++
					case cellOf(sv, p[1]):
						wrong++
					}
				}
			}
			t.Logf("%s: %.1f rounds on average; shown of %d collects: %v; wrong way %d", c.name, float64(rounds)/float64(collects), collects, shown, wrong)
			if wrong > 0 {
				t.Errorf("%d planted pairs claimed the wrong way", wrong)
			}
			for _, key := range []string{"t00÷t03", "t05÷t06", "t00÷t04"} {
				if shown[key] < collects*8/10 {
					t.Errorf("%s (planted 10%%+ apart) shown in %d of %d collects, want ≥ 80%%", key, shown[key], collects)
				}
			}
		})
	}
}

// anyClaim reports whether a page claims any difference.
func anyClaim(sv *ScenarioVerdicts) bool {
	for _, v := range sv.Pairs {
		if v.Claimed() {
			return true
		}
	}
	return false
}

// cellOf is target i's cell of a simulated page.
func cellOf(sv *ScenarioVerdicts, i int) *Cell {
	for _, c := range sv.Cells {
		if c.Name == fmt.Sprintf("t%02d", i) {
			return c
		}
	}
	return nil
}
