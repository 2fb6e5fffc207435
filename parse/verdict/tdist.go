package verdict

import (
	"math"
	"sync"
)

// StudentTwoSided is P(|T| ≥ |t|) for Student's t with df degrees of
// freedom (df > 0, not necessarily whole, as Welch's approximation gives):
// the regularized incomplete beta I_x(df/2, 1/2) at x = df/(df+t²).
func StudentTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || !(df > 0):
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	}
	return incBeta(df/2, 0.5, df/(df+t*t))
}

// studentQuantile is the t with P(T ≤ t) = q for Student's t with df
// degrees of freedom, q in (0.5, 1): found by bisection on studentTwoSided,
// which is monotone in |t|.
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

// incBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), using the symmetry
// I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(b, a, 1-x)/b
	}
	return front * betaFraction(a, b, x) / a
}

// betaFraction evaluates the continued fraction of I_x(a, b).
func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		// The even step, then the odd step, of the fraction's terms.
		for _, num := range []float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= c * d
		}
		if math.Abs(c*d-1) < 1e-15 {
			break
		}
	}
	return f
}
