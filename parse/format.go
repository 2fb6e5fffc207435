package parse

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Plural is "1 repetition", "3 repetitions".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// FormatCount writes v with en-US digit grouping: no decimals from 100 up,
// two below ("402,998", "12.50").
func FormatCount(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case math.Abs(v) < 100:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	s := GroupDigits(strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64))
	if v < 0 {
		return "-" + s
	}
	return s
}

// GroupDigits puts a comma between each group of three digits of a whole
// number written in digits ("402998" → "402,998").
func GroupDigits(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
