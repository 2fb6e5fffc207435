package verdict

import (
	"fmt"
	"sort"
	"time"
)

// CurvePoint is one point of a saturation curve: throughput and latency at
// one count of connections, each the median of that point's repetitions.
type CurvePoint struct {
	Connections int
	Throughput  float64       // req/s
	Latency     time.Duration // a latency figure of the point (p50 or mean), 0 if unknown
}

// Knee is where a saturation curve stops paying: the fewest connections
// beyond which more connections buy less than KneeGain more throughput
// while latency keeps growing.
type Knee struct {
	Index       int // into the points sorted by connections
	Connections int
	Throughput  float64
	// Best is the most throughput any point past the knee reached; Last is
	// the point with the most connections, whose latency grew from the
	// knee's.
	Best float64
	Last CurvePoint
	// LatencyGrowth is Last's latency ÷ the knee's.
	LatencyGrowth float64
	// Why says what was seen, in a sentence.
	Why string
}

// KneeGain is the least relative throughput gain over a point that counts
// as growing: a point is the knee when no point with more connections
// serves KneeGain (10%) more than it. 10% is above the run-to-run spread of
// a quiet machine's medians (the noise floor, DefaultThresholds.Noise, is
// 5%) so noise alone does not hide a knee, and below the gain of a curve
// that is still climbing (doubling connections before saturation gains far
// more).
const KneeGain = 0.10

// FindKnee finds the knee of a throughput-against-connections curve: the
// first point (by connections) such that every later point serves less
// than KneeGain more, and latency at the last point is above the knee's by
// more than KneeGain too (the server queues instead of serving). A curve
// still growing, one with fewer than three points, or one whose latency is
// unknown or flat has no knee. Points with the same connections are not
// merged: pass one per count.
func FindKnee(points []CurvePoint) (Knee, bool) {
	ps := append([]CurvePoint(nil), points...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Connections < ps[j].Connections })
	if len(ps) < 3 {
		return Knee{}, false
	}
	last := ps[len(ps)-1]
	for i := 0; i < len(ps)-1; i++ {
		p := ps[i]
		if p.Throughput <= 0 {
			continue
		}
		best := 0.0
		for _, q := range ps[i+1:] {
			best = max(best, q.Throughput)
		}
		if best >= p.Throughput*(1+KneeGain) {
			continue
		}
		if p.Latency <= 0 || float64(last.Latency) <= float64(p.Latency)*(1+KneeGain) {
			return Knee{}, false // flat throughput and flat latency: not saturated, or unknown
		}
		growth := float64(last.Latency) / float64(p.Latency)
		why := fmt.Sprintf("beyond %d connections throughput grows at most %+.0f%% (to %.0f req/s) while latency grows %.1f× (to %s at %d connections)",
			p.Connections, (best/p.Throughput-1)*100, best, growth, last.Latency.Round(time.Microsecond), last.Connections)
		return Knee{Index: i, Connections: p.Connections, Throughput: p.Throughput, Best: best, Last: last, LatencyGrowth: growth, Why: why}, true
	}
	return Knee{}, false
}
