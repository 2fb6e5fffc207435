package verdict

import (
	"math"
	"testing"
)

// TestStudentKnownAnswers checks the t distribution against values from
// published t tables (two-sided critical values).
func TestStudentKnownAnswers(t *testing.T) {
	for _, c := range []struct{ df, q, want float64 }{
		{1, 0.975, 12.706},
		{3, 0.975, 3.182},
		{6, 0.975, 2.447},
		{10, 0.995, 3.169},
		{30, 0.975, 2.042},
		{4.5, 0.975, 2.6496}, // fractional df, as Welch gives; between 2.776 (4) and 2.571 (5)
	} {
		got := studentQuantile(c.q, c.df)
		if math.Abs(got-c.want) > 0.002*c.want+0.01*boolf(c.df != math.Trunc(c.df)) {
			t.Errorf("studentQuantile(%v, df=%v) = %.4f, want %.3f", c.q, c.df, got, c.want)
		}
		if p := StudentTwoSided(got, c.df); math.Abs(p-2*(1-c.q)) > 1e-9 {
			t.Errorf("studentTwoSided(%.4f, %v) = %v, want %v", got, c.df, p, 2*(1-c.q))
		}
	}
	if p := StudentTwoSided(0, 5); math.Abs(p-1) > 1e-12 {
		t.Errorf("studentTwoSided(0) = %v, want 1", p)
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestStudentQuantileKept checks that a quantile is computed once and then
// answered as kept, the same to the bit, and that invalid input is not kept.
func TestStudentQuantileKept(t *testing.T) {
	const q, df = 0.9871, 37
	first := studentQuantile(q, df)
	kept, ok := quantiles.Load([2]float64{q, df})
	if !ok {
		t.Fatalf("studentQuantile(%v, %v) was not kept", q, df)
	}
	if kept.(float64) != first || studentQuantile(q, df) != first || bisectQuantile(q, df) != first {
		t.Errorf("kept %v, returned %v, computed %v", kept, studentQuantile(q, df), bisectQuantile(q, df))
	}
	for _, bad := range [][2]float64{{math.NaN(), 3}, {0.4, 3}, {0.9, 0}} {
		if !math.IsNaN(studentQuantile(bad[0], bad[1])) {
			t.Errorf("studentQuantile(%v, %v) is a number", bad[0], bad[1])
		}
		if _, ok := quantiles.Load(bad); ok {
			t.Errorf("studentQuantile(%v, %v) was kept", bad[0], bad[1])
		}
	}
}

// TestStudentClosedForms checks the two-sided tail against the degrees of
// freedom that have one: df = 1 (Cauchy) 1 − (2/π)·atan|t| and df = 2,
// 1 − |t|/√(2+t²), out to p-values of 1e-10 and beyond, and that large
// and tiny df give a probability rather than a panic or NaN.
func TestStudentClosedForms(t *testing.T) {
	for _, x := range []float64{0, 1e-4, 0.1, 0.5, 1, 1.96, 3, 10, 1e3, 1e6} {
		for _, c := range []struct{ df, want float64 }{
			{1, 2 / math.Pi * math.Atan(1/x)}, // = 1 − (2/π)·atan x, without the cancellation
			{2, 1 - x/math.Sqrt(2+x*x)},
		} {
			if x > 10 && c.df == 2 {
				c.want = 2 / (x*x + 2 + x*math.Sqrt(2+x*x)) // the same, without the cancellation
			}
			if got := StudentTwoSided(x, c.df); math.Abs(got-c.want) > 1e-12*c.want {
				t.Errorf("StudentTwoSided(%v, df=%v) = %v, want %v", x, c.df, got, c.want)
			}
		}
	}
	for _, df := range []float64{1e-6, 0.3, 398, 1e5, 1e9} {
		for _, x := range []float64{0.5, 1.7, 3} {
			if p := StudentTwoSided(x, df); !(p >= 0 && p <= 1) {
				t.Errorf("StudentTwoSided(%v, df=%v) = %v, not a probability", x, df, p)
			}
		}
	}
	if p := StudentTwoSided(1, math.Inf(1)); !math.IsNaN(p) {
		t.Errorf("StudentTwoSided(1, df=+Inf) = %v, want NaN", p)
	}
}
