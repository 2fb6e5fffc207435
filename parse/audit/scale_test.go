package audit

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// manyReps is a run of two targets on one scenario, reps repetitions in
// all, taken in alternating turns, with a few per cent of noise.
func manyReps(reps int) *parse.Set {
	r := rand.New(rand.NewPCG(1, 2))
	var ms []*parse.Measurement
	for i := range reps {
		target, base := "a", 10000.0
		if i%2 == 1 {
			target, base = "b", 10500
		}
		m := meas("r1", target, "ping", i/2+1, base*(1+0.03*r.NormFloat64()))
		m.Order = i + 1
		ms = append(ms, m)
	}
	return setOf(ms)
}

// auditTime is the shortest of three audits of manyReps(reps): the
// machine's other load only adds.
func auditTime(reps int) time.Duration {
	set := manyReps(reps)
	best := time.Duration(math.MaxInt64)
	for range 3 {
		start := time.Now()
		Audit(set, AuditOptions{NoIntegrity: true})
		best = min(best, time.Since(start))
	}
	return best
}

// BenchmarkAuditReps audits runs of 1,000 and 10,000 repetitions and
// reports the ratio of their times: near 10 when the audit is linear in
// the repetitions.
func BenchmarkAuditReps(b *testing.B) {
	for range b.N {
		small, large := auditTime(1000), auditTime(10000)
		b.ReportMetric(small.Seconds(), "s/1k-reps")
		b.ReportMetric(large.Seconds(), "s/10k-reps")
		b.ReportMetric(large.Seconds()/small.Seconds(), "ratio")
	}
}

// auditBytes is what one audit of manyReps(reps) allocates: unlike its
// time, it does not move with the machine's other load.
func auditBytes(reps int) uint64 {
	set := manyReps(reps)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Audit(set, AuditOptions{NoIntegrity: true})
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAuditNearLinear: auditing forty times the repetitions allocates
// well under the square of that: linear is 40 times, a rule that copies
// a cell's repetitions for each of them 1,600. The bound, 200, sits
// between. Bytes, not time: CI runs packages side by side, and a timed
// ratio there read 233 for an audit that is linear (its time is shown by
// BenchmarkAuditReps).
func TestAuditNearLinear(t *testing.T) {
	small, large := auditBytes(500), auditBytes(20000)
	if ratio := float64(large) / float64(small); ratio > 200 {
		t.Errorf("500 reps allocate %d bytes, 20,000 %d: %.1f times as much, want near 40", small, large, ratio)
	} else {
		t.Logf("500 reps allocate %d bytes, 20,000 %d: %.1f times as much", small, large, ratio)
	}
}

// TestFarthestRep: farthestRep finds what taking each value out, sorting
// the rest and measuring from their median finds, on samples with ties.
func TestFarthestRep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 2; n < 40; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Round(1000*math.Exp(0.1*r.NormFloat64())) / 10 // ties among them
		}
		if n%7 == 0 {
			v[r.IntN(n)] *= 3
		}
		wantWorst, wantDev, wantSpread := -1, 0.0, 0.0
		for i := range v {
			others := slices.Delete(slices.Clone(v), i, i+1)
			slices.Sort(others)
			med := math.Log(verdict.MedianSorted(others))
			if d := math.Abs(math.Log(v[i]) - med); d > wantDev {
				wantWorst, wantDev = i, d
				wantSpread = math.Max(math.Abs(math.Log(others[0])-med), math.Abs(math.Log(others[len(others)-1])-med))
			}
		}
		worst, dev, spread := farthestRep(v)
		if worst != wantWorst || dev != wantDev || spread != wantSpread {
			t.Errorf("%v: got %d %g %g, want %d %g %g", v, worst, dev, spread, wantWorst, wantDev, wantSpread)
		}
	}
}
