package parse

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Numbers as load generators print them, converted to base units.
//
// Decimal scales (us, ms, k, MB in SI) are applied by rewriting the mantissa
// with an exponent ("787.98us" → 787.98e3 ns), so that a printed decimal maps
// to the nearest float or integer exactly, without a multiplication's error.

// number parses a plain decimal as C printf writes it. nan, -nan and inf
// (glibc's spellings for 0/0) are accepted and reported as NaN.
func number(s string) (float64, bool) {
	s = strings.TrimSuffix(s, "%")
	if !numberEnd(s) {
		return 0, false // "787.98us", "12.07k": a unit, not a number
	}
	if isNaN(s) {
		return math.NaN(), true
	}
	if v, ok := exactDecimal(s, 0); ok {
		return v, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// numberEnd reports whether s ends as a number may: in a digit, a point, or
// the last letter of inf, infinity or nan. It lets a value with a unit fail
// before strconv builds an error for it, which is most of the cost of a
// miss.
func numberEnd(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[len(s)-1]; {
	case c >= '0' && c <= '9', c == '.':
		return true
	case c == 'f' || c == 'F' || c == 'y' || c == 'Y' || c == 'n' || c == 'N':
		return true
	}
	return false
}

// isNaN reports whether s is glibc's nan, -nan or +nan, in any case.
func isNaN(s string) bool {
	if s == "" || s[len(s)-1]|0x20 != 'n' {
		return false // not spelled …n: decided without EqualFold
	}
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	return strings.EqualFold(s, "nan")
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
	// A plain decimal, the common case, has none of the characters refused
	// below.
	if v, ok := exactDecimal(mantissa, exp); ok {
		return v, true
	}
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

// exactDecimal parses a plain decimal ("-787.98") times 10^exp by
// strconv's own fast path, without making a string for strconv: when its
// digits are below 2^52 and the power of ten within 10^22, both are exact
// floats and one multiplication or division rounds as ParseFloat does. It
// reports false for anything else, which the caller hands to ParseFloat.
// s is text or, for the JSON decoders, bytes.
func exactDecimal[T string | []byte](s T, exp int) (float64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	var m uint64
	i := 0
	for ; i < len(s) && s[i]-'0' <= 9; i++ {
		if m >= 1<<52 {
			return 0, false
		}
		m = m*10 + uint64(s[i]-'0')
	}
	digits := i
	if i < len(s) && s[i] == '.' {
		i++
		frac := i
		for ; i < len(s) && s[i]-'0' <= 9; i++ {
			if m >= 1<<52 {
				return 0, false
			}
			m = m*10 + uint64(s[i]-'0')
		}
		digits += i - frac
		exp -= i - frac
	}
	if i != len(s) || digits == 0 || m >= 1<<52 {
		return 0, false
	}
	f := float64(m)
	if neg {
		f = -f
	}
	switch {
	case exp == 0:
		return f, true
	case exp > 0 && exp <= 22:
		return f * pow10[exp], true
	case exp < 0 && exp >= -22:
		return f / pow10[-exp], true
	}
	return 0, false
}

// pow10 holds the powers of ten that float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

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
	if isNaN(strings.TrimSuffix(s, "%")) {
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
			return nanos(v * 60), true
		}
		return nanos(v * 3600), true
	default:
		return 0, false
	}
	v, ok := scaled(num, exp)
	if !ok || v > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(math.Round(v)), true
}

// nanos rounds a float number of nanoseconds to a Duration. One beyond
// what a Duration holds (some 292 years) saturates at the largest or
// smallest Duration rather than wrap, so that range checks (validate.go)
// see it for what it is; NaN gives 0.
func nanos(ns float64) time.Duration { return saturate[time.Duration](ns) }

// saturate rounds v to an integer type of 64 bits, saturating at its
// largest and smallest value; NaN gives 0.
func saturate[T ~int64](v float64) T {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return T(math.Round(v))
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
	var exp int
	switch unit {
	case "k", "K":
		exp = 3
	case "M":
		exp = 6
	case "G":
		exp = 9
	case "T":
		exp = 12
	default:
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
	var exp int
	switch strings.TrimSpace(unit) {
	case "B":
		exp = 0
	case "kB", "KB":
		exp = 3
	case "MB":
		exp = 6
	case "GB":
		exp = 9
	case "TB":
		exp = 12
	case "PB":
		exp = 15
	default:
		return 0, false
	}
	return scaled(num, exp)
}

// atoi parses a decimal integer count.
func atoi(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// appendPercentile appends p to ps, making room for a tool's usual rows
// (4 to 8) at the first, so that a table of them costs one allocation.
func appendPercentile(ps []Percentile, p Percentile) []Percentile {
	if ps == nil {
		ps = make([]Percentile, 0, 8)
	}
	return append(ps, p)
}

// roundInt64 rounds a byte count or count to an integer. One beyond an
// int64 saturates, as nanos does, for the range checks to see; NaN gives 0.
func roundInt64(v float64) int64 { return saturate[int64](v) }

// leadingInt parses the integer that s starts with, up to its first blank
// ("500 connection(s)"); 0 if there is none.
func leadingInt(s string) int {
	n, _, _ := strings.Cut(s, " ")
	v, err := strconv.Atoi(n)
	if err != nil {
		return 0
	}
	return v
}

// ints returns the unsigned decimal integers in s, in order: a fast stand-in
// for fmt.Sscanf on fixed-format lines ("connect 0, read 9667, write 0, …").
func ints(s string) []int64 { return appendInts(nil, s) }

// appendInts appends the integers ints finds to out, which may be an array
// on the caller's stack.
func appendInts(out []int64, s string) []int64 {
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

// fields splits s around runs of white space as strings.Fields does, into
// dst: with dst an array on the caller's stack, a short line is split
// without allocating.
func fields(dst []string, s string) []string {
	n := len(dst)
	for i := 0; i < len(s); {
		for i < len(s) && byteClass[s[i]] == blankByte {
			i++
		}
		start := i
		for i < len(s) && byteClass[s[i]] == wordByte {
			i++
		}
		if i < len(s) && byteClass[s[i]] == wideByte {
			return append(dst[:n], strings.Fields(s)...) // Unicode spaces
		}
		if i > start {
			dst = append(dst, s[start:i])
		}
	}
	return dst
}

// byteClass sorts bytes for fields: ASCII white space, other ASCII, and
// bytes of multi-byte characters.
var byteClass = func() (c [256]uint8) {
	for i := utf8.RuneSelf; i < 256; i++ {
		c[i] = wideByte
	}
	for _, b := range []byte(" \t\n\v\f\r") {
		c[b] = blankByte
	}
	return c
}()

const (
	wordByte = iota
	blankByte
	wideByte
)
