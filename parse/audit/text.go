package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// WriteFindingsText writes findings for a terminal: a count line, then the
// findings by level (errors first), each with its rule, where it applies,
// its message and its dumps. Findings that say the same thing about several
// places (same level, rule and message) are written once with every place.
// fs should be sorted (Audit's are).
func WriteFindingsText(w io.Writer, fs []Finding) error {
	var counts [3]int
	for _, f := range fs {
		if f.Level >= 0 && int(f.Level) < len(counts) {
			counts[f.Level]++
		}
	}
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s, %s, %s\n", parse.Plural(counts[LevelError], "error"), parse.Plural(counts[LevelWarning], "warning"), parse.Plural(counts[LevelInfo], "info"))
	for _, g := range groupFindings(fs) {
		f := g[0]
		fmt.Fprintf(b, "\n%s %s", strings.ToUpper(f.Level.String()), f.Rule)
		var places []string
		for _, x := range g {
			if p := x.where(); p != "" {
				places = append(places, p)
			}
		}
		switch {
		case len(places) == 1:
			fmt.Fprintf(b, " at %s", places[0])
		case len(places) > 1:
			fmt.Fprintf(b, " at %d places: %s", len(places), strings.Join(places, ", "))
		}
		fmt.Fprintf(b, "\n  %s\n", f.Message)
		var dumps []string
		for _, x := range g {
			dumps = append(dumps, x.Dumps...)
		}
		dumps = uniqueSorted(dumps)
		switch {
		case len(dumps) == 0:
		case len(dumps) <= 6:
			fmt.Fprintf(b, "  dumps: %s\n", strings.Join(dumps, " "))
		default:
			fmt.Fprintf(b, "  dumps: %s … and %d more (all in -format json)\n", strings.Join(dumps[:6], " "), len(dumps)-6)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupFindings gathers the findings with the same level, rule and message,
// in the order each group first appears in fs.
func groupFindings(fs []Finding) [][]Finding {
	type key struct {
		level         Level
		rule, message string
	}
	index := map[key]int{}
	var groups [][]Finding
	for _, f := range fs {
		k := key{f.Level, f.Rule, f.Message}
		if i, ok := index[k]; ok {
			groups[i] = append(groups[i], f)
			continue
		}
		index[k] = len(groups)
		groups = append(groups, []Finding{f})
	}
	return groups
}

// FindingsReport is the JSON document WriteFindingsJSON writes.
type FindingsReport struct {
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Infos    int       `json:"infos"`
	Findings []Finding `json:"findings"`
}

// WriteFindingsJSON writes findings as one indented FindingsReport.
func WriteFindingsJSON(w io.Writer, fs []Finding) error {
	r := FindingsReport{Findings: fs}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	for _, f := range fs {
		switch f.Level {
		case LevelError:
			r.Errors++
		case LevelWarning:
			r.Warnings++
		default:
			r.Infos++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// formatScaled writes v in at most four significant digits with a metric
// suffix, as benchstat does ("402.9k", "1.235M", "87.50").
func formatScaled(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	a, suffix := math.Abs(v), ""
	for _, s := range []struct {
		div float64
		sym string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if a >= s.div {
			v, suffix = v/s.div, s.sym
			break
		}
	}
	a = math.Abs(v)
	digits := 0
	switch {
	case a < 10:
		digits = 3
	case a < 100:
		digits = 2
	case a < 1000:
		digits = 1
	}
	return strconv.FormatFloat(v, 'f', digits, 64) + suffix
}
