package audit

import (
	"math"

	"github.com/fairbench/fairbench/parse/verdict"
)

// binomialTail is P(X ≥ x) for X ~ Binomial(n, p).
func binomialTail(x, n int, p float64) float64 {
	if x <= 0 {
		return 1
	}
	total := 0.0
	for k := x; k <= n; k++ {
		lc, _ := math.Lgamma(float64(n + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		total += math.Exp(lc - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	return math.Min(1, total)
}

// beyondChance counts the cells of one run that show a pattern (hit) among
// those with at least minReps repetitions, where chance(n) is the
// probability that a cell of n repetitions shows it by luck. It returns the
// cells that show it, how many were eligible, how many chance gives, and p,
// the binomial tail of that count at the cells' mean chance.
func beyondChance(cells []*verdict.Cell, minReps int, chance func(n int) float64, hit func(*verdict.Cell) bool) (hits []*verdict.Cell, eligible int, expected, p float64) {
	for _, c := range cells {
		n := len(c.RPS.Values)
		if n < minReps {
			continue
		}
		eligible++
		expected += chance(n)
		if hit(c) {
			hits = append(hits, c)
		}
	}
	if len(hits) == 0 {
		return nil, eligible, expected, 1
	}
	return hits, eligible, expected, binomialTail(len(hits), eligible, expected/float64(eligible))
}
