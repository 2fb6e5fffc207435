package audit

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
		if p := studentTwoSided(got, c.df); math.Abs(p-2*(1-c.q)) > 1e-9 {
			t.Errorf("studentTwoSided(%.4f, %v) = %v, want %v", got, c.df, p, 2*(1-c.q))
		}
	}
	if p := studentTwoSided(0, 5); math.Abs(p-1) > 1e-12 {
		t.Errorf("studentTwoSided(0) = %v, want 1", p)
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
