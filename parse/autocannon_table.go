package parse

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// autocannon's tables are drawn with box characters (│ ┌ ┬ ─ …); copies
// pasted as plain text may use | + - instead. Cells are trimmed.

// isTableRule reports whether t is a border line: only rule characters.
// The box characters are all three bytes long in UTF-8 and are compared as
// such, without decoding runes.
func isTableRule(t string) bool {
	rule := false
	for i := 0; i < len(t); {
		if strings.HasPrefix(t[i:], "─") { // most of a border
			rule = true
			i += len("─")
			continue
		}
		if c := t[i]; c < utf8.RuneSelf {
			switch c {
			case '-', '=':
				rule = true
			case '+', '|', ':', ' ':
			default:
				return false
			}
			i++
			continue
		}
		if i+3 > len(t) || t[i] != 0xe2 {
			return false
		}
		switch t[i+1] {
		case 0x94: // U+2500–U+253F
			switch t[i+2] {
			case 0x80: // ─, mostly taken above
				rule = true
			case 0x8c, 0xac, 0x90, 0x9c, 0xbc, 0xa4, 0x94, 0xb4, 0x98, 0x82: // ┌ ┬ ┐ ├ ┼ ┤ └ ┴ ┘ │
			default:
				return false
			}
		case 0x95: // U+2540–U+257F
			if t[i+2] != 0x90 { // ═
				return false
			}
			rule = true
		default:
			return false
		}
		i += 3
	}
	return rule
}

// isTableRow reports whether t is a row of cells.
func isTableRow(t string) bool {
	return strings.HasPrefix(t, "│") || strings.HasPrefix(t, "|")
}

// tableCells splits a row into its trimmed cells.
func tableCells(t string) []string { return appendCells(nil, t) }

// appendCells appends the trimmed cells of a row to dst, which may be an
// array on the caller's stack.
func appendCells(dst []string, t string) []string {
	sep := "│"
	if !strings.HasPrefix(t, sep) {
		sep = "|"
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, sep), sep)
	for {
		cell, rest, more := strings.Cut(t, sep)
		dst = append(dst, strings.TrimSpace(cell))
		if !more {
			return dst
		}
		t = rest
	}
}

// tableRow reads one row of a table: a header names the table and its
// columns; a data row is read against the last header.
func (b *autocannonText) tableRow(l line, cells []string) error {
	switch cells[0] {
	case "Stat":
		b.header, b.table = slices.Clone(cells), "stat"
		b.pct = make([]float64, len(cells))
		for i, col := range cells {
			if p, ok := strings.CutSuffix(col, "%"); ok {
				b.pct[i], _ = strconv.ParseFloat(p, 64)
			}
		}
		return nil
	case "Percentile":
		b.table = "percentile"
		return nil
	case "Code":
		b.table = "code"
		return nil
	}
	m := b.m
	switch b.table {
	case "percentile":
		p, err := strconv.ParseFloat(cells[0], 64)
		d, ok := millis(strings.TrimSuffix(cells[len(cells)-1], " ms"))
		if err != nil || !ok || len(cells) != 2 {
			return b.syntax(l, "latency table row %q: want a percentile and milliseconds", strings.Join(cells, " │ "))
		}
		b.pcts[p] = Percentile{P: p, Value: d}
	case "code":
		code, ok1 := atoi(cells[0])
		n, ok2 := atoi(cells[len(cells)-1])
		if !ok1 || !ok2 || len(cells) != 2 {
			return b.syntax(l, "status code row %q: want a code and a count", strings.Join(cells, " │ "))
		}
		m.Status.Known = true
		addStatus(&m.Status, code, n)
	case "stat":
		if len(cells) != len(b.header) {
			return b.syntax(l, "row %q has %d cells, its header %d", cells[0], len(cells), len(b.header))
		}
		return b.statRow(l, cells)
	default:
		return b.syntax(l, "table row %q before any header", strings.Join(cells, " │ "))
	}
	return nil
}

// statRow reads a Latency, Req/Sec or Bytes/Sec row.
func (b *autocannonText) statRow(l line, cells []string) error {
	m := b.m
	label := cells[0]
	b.rows++
	var rates RateSamples // the Req/Sec row
	group, dec := localeSeparators(b.header, cells)
	for i := 1; i < len(cells); i++ {
		col, cell := b.header[i], cells[i]
		isPct, pv := strings.HasSuffix(col, "%"), b.pct[i]
		var v float64
		var ok bool
		switch {
		case strings.HasPrefix(label, "Latency"):
			var d time.Duration
			d, ok = millis(strings.TrimSuffix(cell, " ms"))
			switch {
			case isPct:
				b.pcts[pv] = Percentile{P: pv, Value: d}
			case col == "Avg":
				m.Latency.Mean = d
			case col == "Stdev":
				m.Latency.Stdev = d
			case col == "Max":
				m.Latency.Max = d
			case col == "Min":
				m.Latency.Min = d
			}
		case label == "Req/Sec":
			v, ok = localeNumber(cell, group, dec)
			rates.cell(col, isPct, pv, v)
		case label == "Bytes/Sec":
			v, ok = siBytes(cell)
			m.BytesPerSecSamples.cell(col, isPct, pv, v)
		default:
			return b.syntax(l, "unknown table row %q", label)
		}
		if !ok {
			return b.syntax(l, "%s %s cell %q is not a number", label, col, cell)
		}
	}
	switch label {
	case "Req/Sec":
		m.ToolRPS, m.RPSStdev, m.RPSMax, m.RPSMin = rates.Mean, rates.Stdev, rates.Max, rates.Min
		m.RPSPercentiles = rates.Percentiles
	case "Bytes/Sec":
		m.BytesPerSec = m.BytesPerSecSamples.Mean
	}
	return nil
}

// cell keeps one cell of a Req/Sec or Bytes/Sec row under its column.
func (r *RateSamples) cell(col string, isPct bool, p, v float64) {
	switch {
	case isPct:
		r.Percentiles = append(r.Percentiles, RatePercentile{P: p, Value: v})
	case col == "Avg":
		r.Mean = v
	case col == "Stdev":
		r.Stdev = v
	case col == "Max":
		r.Max = v
	case col == "Min":
		r.Min = v
	}
}

// localeSeparators finds the grouping and decimal separators of a Req/Sec
// row. Percentile, Min and Max cells are whole numbers, so a "." in one of
// them is a grouping separator (de_DE: "15.903"), and "," is then decimal.
func localeSeparators(header, cells []string) (group, dec string) {
	for i := 1; i < len(cells) && i < len(header); i++ {
		col := header[i]
		if (strings.HasSuffix(col, "%") || col == "Min" || col == "Max") && strings.Contains(cells[i], ".") {
			return ".", ","
		}
	}
	return ",", "."
}

// localeNumber parses a number written with the given separators.
func localeNumber(s, group, dec string) (float64, bool) {
	if mayHaveSpaceGroups(s) {
		s = spaceGroups.Replace(s)
	}
	s = strings.ReplaceAll(s, group, "")
	if dec != "." {
		s = strings.ReplaceAll(s, dec, ".")
	}
	return scaled(s, 0)
}

// mayHaveSpaceGroups reports whether s holds a byte that starts a
// separator spaceGroups drops: Replace copies s even when it has none.
func mayHaveSpaceGroups(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\'', 0xc2, 0xe2: // U+00A0 is C2 A0, U+202F is E2 80 AF
			return true
		}
	}
	return false
}

// spaceGroups drops the grouping separators every locale may use: no-break
// spaces, spaces and apostrophes.
var spaceGroups = strings.NewReplacer("\u00a0", "", "\u202f", "", " ", "", "'", "")

// addStatus counts n responses of one status code into its class.
func addStatus(s *StatusCounts, code, n int64) {
	switch code / 100 {
	case 1:
		s.C1xx += n
	case 2:
		s.C2xx += n
	case 3:
		s.C3xx += n
	case 4:
		s.C4xx += n
	case 5:
		s.C5xx += n
	default:
		s.Other += n
	}
}

// sortedPercentiles returns the percentiles in ascending order of P.
func sortedPercentiles(ps map[float64]Percentile) []Percentile {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Percentile, 0, len(ps))
	for _, p := range ps {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Percentile) int { return cmp.Compare(a.P, b.P) })
	return out
}
