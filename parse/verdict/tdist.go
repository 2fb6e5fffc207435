package verdict

import (
	"math"
	"sync"

	"github.com/aclements/go-moremath/mathx"
)

// StudentTwoSided is P(|T| ≥ |t|) for Student's t with df degrees of
// freedom (df > 0 and finite, not necessarily whole, as Welch's
// approximation gives): the regularized incomplete beta I_x(df/2, 1/2) at
// x = df/(df+t²), from go-moremath. The tail is taken from the incomplete
// beta directly rather than as 1 − CDF, so small p-values keep their
// relative precision. NaN for a NaN t or a df out of range.
func StudentTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || !(df > 0):
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	case math.IsInf(df, 1):
		// x would be NaN, on which mathx.BetaInc panics for want of convergence.
		return math.NaN()
	}
	return mathx.BetaInc(df/(df+t*t), df/2, 0.5)
}

// studentQuantile is the t with P(T ≤ t) = q for Student's t with df
// degrees of freedom, q in (0.5, 1): found by bisection on
// StudentTwoSided, which is monotone in |t|. go-moremath has no t
// quantile of its own, and its generic stats.InvCDF bisects on 1 − tail,
// which loses relative precision far out (5e-8 at q = 1 − 1e-9); this
// bisects on the tail itself.
func studentQuantile(q, df float64) float64 {
	if !(q > 0.5 && q < 1) || !(df > 0) {
		return math.NaN()
	}
	key := [2]float64{q, df}
	if t, ok := quantiles.Load(key); ok {
		return t.(float64)
	}
	t := bisectQuantile(q, df)
	quantiles.Store(key, t)
	return t
}

// quantiles holds every studentQuantile answered, by (q, df): the power
// search (Power, repsFor) asks the same few for every scenario on every
// page that shows it, and each is a bisection over some sixty incomplete
// beta functions (90% of a large site's render before it was kept).
var quantiles sync.Map // [2]float64 → float64

// bisectQuantile is studentQuantile's bisection, for q and df it checked.
func bisectQuantile(q, df float64) float64 {
	tail := 2 * (1 - q) // two-sided p at the quantile
	lo, hi := 0.0, 1.0
	for StudentTwoSided(hi, df) > tail {
		hi *= 2
		if hi > 1e12 {
			return math.Inf(1)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if StudentTwoSided(mid, df) > tail {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
