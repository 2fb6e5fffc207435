package parse

import (
	"math"
	"testing"
)

// TestGroupDigits checks the comma between each group of three digits.
func TestGroupDigits(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "0": "0", "999": "999", "1000": "1,000", "402998": "402,998", "1234567": "1,234,567",
	} {
		if got := GroupDigits(in); got != want {
			t.Errorf("GroupDigits(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFormatCount checks the two regimes: whole and grouped from 100 up,
// two decimals below, the sign in front, NaN and infinities spelled out.
func TestFormatCount(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{402998.4, "402,998"}, {12.5, "12.50"}, {100, "100"}, {99.999, "100.00"},
		{-1234.5, "-1,235"}, {-3, "-3.00"}, {math.NaN(), "NaN"}, {math.Inf(1), "+Inf"},
	} {
		if got := FormatCount(c.v); got != c.want {
			t.Errorf("FormatCount(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
