package verdict

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// refPage decides one simulated scenario of len(shift) targets, n
// repetitions each with log noise sd, target i's true log shifted by
// shift[i]: past MaxPairwise targets, a family against a reference.
func refPage(r *rand.Rand, shift []float64, n int, sd float64, th Thresholds) *ScenarioVerdicts {
	logs := make([][]float64, len(shift))
	for i := range logs {
		logs[i] = make([]float64, n)
		for j := range logs[i] {
			logs[i][j] = shift[i] + sd*r.NormFloat64()
		}
	}
	return page(logs, th)
}

// TestReferenceFamilyNull: 120 identical targets, decided against a
// reference with ranks from intervals; a page is a false claim when any
// pair is claimed or any cell's rank range is narrower than 1..k (which
// says some target is faster than another). The family-wise rate stays
// under the binomial bound at α, as the pairwise family's does.
func TestReferenceFamilyNull(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // the test and its correction are checked, not the floor
	r := newRand(11)
	const k, pages = 120, 200
	bad := 0
	for p := 0; p < pages; p++ {
		sv := refPage(r, make([]float64, k), 5, 0.02, th)
		if len(sv.Pairs) != k-1 || sv.Family != k-1 {
			t.Fatalf("page %d: %d pairs, %d tested; want %d against the reference", p, len(sv.Pairs), sv.Family, k-1)
		}
		claimed := false
		for _, v := range sv.Pairs {
			claimed = claimed || v.Claimed()
		}
		for _, rk := range sv.Ranks {
			claimed = claimed || rk.Lo != 1 || rk.Hi != k
		}
		if claimed {
			bad++
		}
	}
	t.Logf("%d of %d null pages claimed a difference", bad, pages)
	if limit := binomialBound(th.Alpha, pages); float64(bad) > limit {
		t.Errorf("%d of %d null pages claimed a difference, over %.1f (α = %g)", bad, pages, limit, th.Alpha)
	}
}

// TestReferenceFamilyShowsDifferences: of 120 targets, one 50% faster
// and one a third slower (real differences, 2% noise, 5 repetitions):
// against the reference (t00, the first by name) the fast one is claimed
// faster and the slow one slower, no other pair is claimed; the fast one
// alone ranks 1, the slow one last, the others between.
func TestReferenceFamilyShowsDifferences(t *testing.T) {
	th := DefaultThresholds
	shift := make([]float64, 120)
	shift[7], shift[42] = math.Log(1.5), math.Log(2.0/3)
	sv := refPage(newRand(5), shift, 5, 0.02, th)
	fast, slow := sv.Cells[0], sv.Cells[len(sv.Cells)-1]
	if fast.Name != "t07" || slow.Name != "t42" {
		t.Fatalf("fastest %s, slowest %s; want t07, t42", fast.Name, slow.Name)
	}
	for _, v := range sv.Pairs {
		if v.A != "t00" {
			t.Fatalf("pair %s vs %s leaves out the reference t00", v.A, v.B)
		}
		want := (*Cell)(nil)
		switch v.B {
		case "t07":
			want = fast
		case "t42":
			want = v.CellA
		}
		if v.Faster() != want {
			t.Errorf("%s vs %s: %s (%s), want %v faster", v.A, v.B, v.Verdict, v.Reason, want)
		}
	}
	if rk := sv.Rank(fast); rk.Lo != 1 || rk.Hi != 1 {
		t.Errorf("%s ranks %d-%d, want 1", fast.Name, rk.Lo, rk.Hi)
	}
	if rk := sv.Rank(slow); rk.Lo != len(sv.Cells) || rk.Hi != len(sv.Cells) {
		t.Errorf("%s ranks %d-%d, want %d", slow.Name, rk.Lo, rk.Hi, len(sv.Cells))
	}
	if rk := sv.Rank(sv.Cells[60]); rk.Lo != 2 || rk.Hi != len(sv.Cells)-1 {
		t.Errorf("a middle target ranks %d-%d, want 2-%d", rk.Lo, rk.Hi, len(sv.Cells)-1)
	}
	if _, ok := sv.Pair(sv.Cells[1], sv.Cells[2]); ok {
		t.Errorf("a pair without the reference has a verdict")
	}
}

// TestReferenceFamilyIsLinear: MaxPairwise cells are decided pair by
// pair, one more against a reference; and the bytes allocated to decide
// 1,600 targets are about 4 times those of 400, not 16.
func TestReferenceFamilyIsLinear(t *testing.T) {
	th := DefaultThresholds
	r := newRand(3)
	if sv := refPage(r, make([]float64, MaxPairwise), 3, 0.02, th); len(sv.Pairs) != MaxPairwise*(MaxPairwise-1)/2 {
		t.Errorf("%d cells: %d pairs, want every pair", MaxPairwise, len(sv.Pairs))
	}
	if sv := refPage(r, make([]float64, MaxPairwise+1), 3, 0.02, th); len(sv.Pairs) != MaxPairwise {
		t.Errorf("%d cells: %d pairs, want %d against the reference", MaxPairwise+1, len(sv.Pairs), MaxPairwise)
	}
	alloc := func(k int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		refPage(newRand(1), make([]float64, k), 3, 0.02, th)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(400), alloc(1600)
	t.Logf("decide 400 targets: %d KB, 1,600: %d KB (%.1f×)", small>>10, large>>10, float64(large)/float64(small))
	if float64(large) > 6*float64(small) {
		t.Errorf("1,600 targets take %.1f× the bytes of 400: not linear", float64(large)/float64(small))
	}
}
