package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// Count formats a rate or count for display, with comma grouping: 12,345 or
// 1.23M. Values are scaled here only; the model stays in base units.
func Count(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case a >= 1e9:
		return strconv.FormatFloat(v/1e9, 'f', 2, 64) + "G"
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 2, 64) + "M"
	case a >= 100:
		return group(int64(math.Round(v)))
	case a == math.Trunc(a):
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
}

// ShortCount is Count for an axis tick, at most five characters for the
// round values a tick holds: from 10,000 in thousands ("25k", "12.5k"),
// from a million in millions ("1.5M"). A chart on a phone has room for six
// such ticks across its plot at a legible size, not for "125,000".
func ShortCount(v float64) string {
	trim := func(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case a >= 1e6:
		return trim(v/1e6) + "M"
	case a >= 1e4:
		return trim(v/1e3) + "k"
	default:
		return Count(v)
	}
}

// Grouped writes v in en-US style with at most decimals fraction digits and
// no trailing zeros: 262146.7634 with 3 is "262,146.763", 418 is "418".
// This is how JavaScript's toLocaleString("en-US") prints, which tables made
// by JavaScript harnesses use.
func Grouped(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	whole, frac := roundDecimal(strconv.FormatFloat(math.Abs(v), 'f', -1, 64), decimals)
	frac = strings.TrimRight(frac, "0")
	n, _ := strconv.ParseInt(whole, 10, 64)
	out := group(n)
	if frac != "" {
		out += "." + frac
	}
	if v < 0 && out != "0" {
		out = "-" + out
	}
	return out
}

// roundDecimal rounds the decimal digits of s (no sign, no exponent) to
// decimals places, half away from zero, as decimal arithmetic does: the
// shortest decimal of 165699.1725 rounds up to .173 where the binary float
// (a hair below) would round down.
func roundDecimal(s string, decimals int) (whole, frac string) {
	whole, frac, _ = strings.Cut(s, ".")
	if len(frac) <= decimals {
		return whole, frac
	}
	up := frac[decimals] >= '5'
	digits := []byte(whole + frac[:decimals])
	for i := len(digits) - 1; up && i >= 0; i-- {
		if digits[i] == '9' {
			digits[i] = '0'
			continue
		}
		digits[i]++
		up = false
	}
	if up {
		digits = append([]byte{'1'}, digits...)
	}
	cut := len(digits) - decimals
	return string(digits[:cut]), string(digits[cut:])
}

// group writes n with comma thousands separators ("-1,234"), the
// grouping of parse.GroupDigits with the sign kept in front.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	if digits, neg := strings.CutPrefix(s, "-"); neg {
		return "-" + parse.GroupDigits(digits)
	}
	return parse.GroupDigits(s)
}

// Latency formats a duration with three significant digits in µs, ms or s.
func Latency(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

// Millis formats a duration in milliseconds with one decimal ("51.2 ms"),
// "n/a" for an unknown (zero) one.
func Millis(d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

// Bytes formats a size with 1024-based units, named so, and one decimal
// ("160.8 KiB"),
// "n/a" for an unknown (zero) one.
func Bytes(n int64) string {
	if n <= 0 {
		return "n/a"
	}
	v, unit := float64(n), "B"
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	if unit == "B" {
		return strconv.FormatInt(n, 10) + " B"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
}

// MemoryPair formats memory before and after in one unit, as "35.1 / 43.7 MiB".
func MemoryPair(before, after int64) string {
	if before <= 0 && after <= 0 {
		return "n/a"
	}
	mb := func(n int64) string {
		if n <= 0 {
			return "n/a"
		}
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64)
	}
	return mb(before) + " / " + mb(after) + " MiB"
}

// Ratio formats a ratio with three significant figures: "2.49×", "0.0640×",
// "12.3×"; whole from 100× up.
func Ratio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
		return "–"
	}
	digits := max(0, 2-int(math.Floor(math.Log10(r))))
	s := strconv.FormatFloat(r, 'f', digits, 64)
	if again, _ := strconv.ParseFloat(s, 64); digits > 0 && math.Floor(math.Log10(again)) > math.Floor(math.Log10(r)) {
		s = strconv.FormatFloat(r, 'f', digits-1, 64) // 9.996 rounds to 10.0, not 10.00
	}
	return s + "×"
}

// Percent formats a relative change as "+12.3%".
func Percent(change float64) string {
	if math.IsNaN(change) || math.IsInf(change, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", change*100)
}

// Seconds formats a duration for facts tables: "452 ms", "1.2 s".
func Seconds(d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	return Latency(d)
}

// intervalLevelLabel is a confidence level as a percentage to four
// significant digits: 0.95 is "95%", 0.9995 is "99.95%", 0.98333 "98.33%".
func intervalLevelLabel(level float64) string {
	return strconv.FormatFloat(level*100, 'g', 4, 64) + "%"
}

// seconds is s seconds as a duration, unrounded: the model keeps times in
// seconds, the formatters take durations.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
