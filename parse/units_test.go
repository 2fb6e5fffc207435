package parse

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestExactDecimal checks the fast path against strconv.ParseFloat, which
// it must match bit for bit wherever it answers.
func TestExactDecimal(t *testing.T) {
	cases := []string{"0", "-0", "+0", "1", "1.", ".5", "787.98", "-12.07", "0.000001", "4503599627370495",
		"4503599627370496", "99999999999999999999", "1.2.3", "", ".", "-", "1e5", "inf", "nan", "12a"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		// Decimals as the tools print them, a point anywhere; one in ten
		// too long for the fast path.
		limit := uint64(1e9)
		if i%10 == 0 {
			limit = 1e17
		}
		digits := strconv.FormatUint(rng.Uint64N(limit), 10)
		if p := rng.IntN(len(digits) + 1); p < len(digits) {
			digits = digits[:p] + "." + digits[p:]
		}
		cases = append(cases, digits, "-"+digits)
	}
	answered := 0
	for _, s := range cases {
		for _, exp := range []int{-23, -22, -9, -6, -3, 0, 3, 6, 9, 12, 22, 23} {
			got, ok := exactDecimal(s, exp)
			if !ok {
				continue
			}
			answered++
			want, err := strconv.ParseFloat(s+"e"+strconv.Itoa(exp), 64)
			if err != nil || got != want || (got == 0 && strings.HasPrefix(s, "-") != (1/got < 0)) {
				t.Errorf("exactDecimal(%q, %d) = %v, ParseFloat says %v (%v)", s, exp, got, want, err)
			}
		}
	}
	if answered < len(cases)*6 {
		t.Errorf("the fast path answered only %d of %d", answered, len(cases)*12)
	}
}

// TestFields splits as strings.Fields does.
func TestFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", "  Latency   787.98us    1.41ms  ", "a\tb\vc\fd\re\nf", "│ Stat │ 2.5% │", "a\u00a0b c"} {
		var buf [2]string
		got, want := fields(buf[:0], s), strings.Fields(s)
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("fields(%q) = %q, want %q", s, got, want)
		}
	}
}
