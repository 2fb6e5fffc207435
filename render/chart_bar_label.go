package render

import "strings"

// A bar chart's label column holds labelEms ems of text: its labels end
// barLabelGap short of the plot, set at phoneLabelUnits, the size the themes
// give them on a phone (base.css), where the column is tightest. A label
// is cut by its estimated width, not its count of characters: twenty-one
// letters of a name fit, twenty-one of "<", "=" or "W" would run past the
// chart's left edge. ellipsisEms is the width of "…".
const (
	barLabelGap     = 10.0
	phoneLabelUnits = 21.0
	labelEms        = (labelWidth - barLabelGap) / phoneLabelUnits
	ellipsisEms     = 1.0
)

// emWidth estimates a character's advance in ems, taken at the wide end of
// the sans faces a page may fall back to (DejaVu Sans: "i" 0.28, "t" 0.39,
// "a" 0.61, "M" 0.86, "<" 0.84), so that an estimate errs long.
func emWidth(r rune) float64 {
	switch {
	case strings.ContainsRune("ilj.,:;'|!", r):
		return 0.32
	case strings.ContainsRune("tfr-_ ()[]/\\\"{}", r):
		return 0.42
	case strings.ContainsRune("mwMW@%&", r):
		return 1.0
	case strings.ContainsRune("<>=+~#", r), r >= 'A' && r <= 'Z', r > 0x7f:
		return 0.86
	default:
		return 0.62
	}
}

// fitLabel cuts s to at most maxLabel characters and labelEms ems, ending
// in "…" when cut; the bar's title keeps the whole name.
func fitLabel(s string) string {
	r := []rune(s)
	total := 0.0
	for _, c := range r {
		total += emWidth(c)
	}
	if len(r) <= maxLabel && total <= labelEms {
		return s
	}
	n, w := 0, ellipsisEms // the characters kept before "…", their width with it
	for n < len(r) && n < maxLabel-1 && w+emWidth(r[n]) <= labelEms {
		w += emWidth(r[n])
		n++
	}
	return shortenRunes(r, n+1)
}

// shortenRunes is r's first n−1 characters and "…" (n characters).
func shortenRunes(r []rune, n int) string {
	if n < 1 {
		n = 1
	}
	return string(r[:n-1]) + "…"
}
