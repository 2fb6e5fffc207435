package parse

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Numbers as load generators print them, converted to base units.
//
// Decimal scales (us, ms, k, MB in SI) are applied by rewriting the mantissa
// with an exponent ("787.98us" → 787.98e3 ns), so that a printed decimal maps
// to the nearest float or integer exactly, without a multiplication's error.

// number parses a plain decimal as C printf writes it. nan, -nan and inf
// (glibc's spellings for 0/0) are accepted and reported as NaN.
func number(s string) (float64, bool) {
	switch strings.ToLower(strings.TrimSuffix(s, "%")) {
	case "nan", "-nan", "+nan":
		return math.NaN(), true
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// finite turns NaN and infinities into 0: the model has no "not a number".
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// scaled parses mantissa×10^exp exactly.
func scaled(mantissa string, exp int) (float64, bool) {
	if mantissa == "" || strings.ContainsAny(mantissa, "eExXpP_") {
		return 0, false
	}
	if exp == 0 {
		v, err := strconv.ParseFloat(mantissa, 64)
		return v, err == nil
	}
	v, err := strconv.ParseFloat(mantissa+"e"+strconv.Itoa(exp), 64)
	return v, err == nil
}

// splitUnit splits "787.98us" into "787.98" and "us".
func splitUnit(s string) (num, unit string) {
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c >= '0' && c <= '9' || c == '.' {
			break
		}
		i--
	}
	return s[:i], s[i:]
}

// duration parses a latency or run time with its unit: ns, us (µs), ms, s,
// m (minutes, never milli) and h, as wrk, wrk2 and bombardier print them.
// A NaN value gives 0.
func duration(s string) (time.Duration, bool) {
	if v, ok := number(s); ok && math.IsNaN(v) {
		return 0, true
	}
	num, unit := splitUnit(s)
	var exp int
	switch unit {
	case "ns":
		exp = 0
	case "us", "µs", "μs":
		exp = 3
	case "ms":
		exp = 6
	case "s":
		exp = 9
	case "m", "h":
		v, ok := scaled(num, 9)
		if !ok {
			return 0, false
		}
		if unit == "m" {
			return time.Duration(math.Round(v * 60)), true
		}
		return time.Duration(math.Round(v * 3600)), true
	default:
		return 0, false
	}
	v, ok := scaled(num, exp)
	if !ok || v > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(math.Round(v)), true
}

// millis converts a float number of milliseconds to a Duration exactly.
func millis(s string) (time.Duration, bool) {
	v, ok := scaled(s, 6)
	if !ok || v > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(math.Round(v)), true
}

// metric parses a count with wrk's metric suffix: "", k, M, G, T (×1000).
func metric(s string) (float64, bool) {
	if v, ok := number(s); ok {
		return finite(v), true
	}
	num, unit := splitUnit(s)
	exp := map[string]int{"k": 3, "K": 3, "M": 6, "G": 9, "T": 12}[unit]
	if exp == 0 {
		return 0, false
	}
	return scaled(num, exp)
}

// binaryBytes parses a size with 1024-based units as wrk and bombardier print
// them: "804.29B", "5.95MB", "2.32GB", and bombardier's unit-less "50.39".
func binaryBytes(s string) (float64, bool) {
	s = strings.TrimSuffix(s, "B")
	num, unit := splitUnit(s)
	var mul float64
	switch unit {
	case "":
		mul = 1
	case "K", "k":
		mul = 1 << 10
	case "M":
		mul = 1 << 20
	case "G":
		mul = 1 << 30
	case "T":
		mul = 1 << 40
	case "P":
		mul = 1 << 50
	default:
		return 0, false
	}
	v, ok := scaled(num, 0)
	return v * mul, ok
}

// siBytes parses a size with 1000-based units as autocannon (pretty-bytes)
// prints it: "0 B", "2.3 kB", "4.78 MB".
func siBytes(s string) (float64, bool) {
	num, unit, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok {
		num, unit = splitUnit(s)
	}
	exp, known := map[string]int{"B": 0, "kB": 3, "KB": 3, "MB": 6, "GB": 9, "TB": 12, "PB": 15}[strings.TrimSpace(unit)]
	if !known {
		return 0, false
	}
	return scaled(num, exp)
}

// atoi parses a decimal integer count.
func atoi(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// roundInt64 rounds a byte count or count to an integer.
func roundInt64(v float64) int64 {
	if math.IsNaN(v) || v > math.MaxInt64 || v < math.MinInt64 {
		return 0
	}
	return int64(math.Round(v))
}

// ints returns the unsigned decimal integers in s, in order: a fast stand-in
// for fmt.Sscanf on fixed-format lines ("connect 0, read 9667, write 0, …").
func ints(s string) []int64 {
	var out []int64
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		var n int64
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int64(s[i]-'0')
			i++
		}
		out = append(out, n)
	}
	return out
}
