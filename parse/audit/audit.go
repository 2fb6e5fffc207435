package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Level is how much a finding weakens the numbers it is about.
type Level int

const (
	// LevelInfo is context a reader should know; the numbers stand.
	LevelInfo Level = iota
	// LevelWarning is a weakness: the numbers hold only with the caveat.
	LevelWarning
	// LevelError means the numbers, or the claim made with them, are wrong
	// as published. `fairbench audit` exits 1 on any.
	LevelError
)

var levelNames = []string{"info", "warning", "error"}

// String is "info", "warning" or "error".
func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// MarshalText writes the level's name, so JSON shows "warning", not 1.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	i := slices.Index(levelNames, string(b))
	if i < 0 {
		return fmt.Errorf("unknown finding level %q: want info, warning or error", b)
	}
	*l = Level(i)
	return nil
}

// Finding is one audit rule firing: what is soft, why, how to fix it, and
// the dumps that show it.
type Finding struct {
	Rule     string   `json:"rule"` // one of the Rule* constants
	Level    Level    `json:"level"`
	Run      string   `json:"run,omitempty"`
	Target   string   `json:"target,omitempty"` // the cell's Name where the finding is about one target
	Scenario string   `json:"scenario,omitempty"`
	Message  string   `json:"message"` // plain language, ending with the fix
	Dumps    []string `json:"dumps,omitempty"`
}

// String is the finding on one line: level, rule, where, message.
func (f Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", f.Level, f.Rule)
	if w := f.where(); w != "" {
		fmt.Fprintf(&b, " %s", w)
	}
	fmt.Fprintf(&b, ": %s", f.Message)
	return b.String()
}

// where is run/target/scenario without the empty parts.
func (f Finding) where() string {
	var parts []string
	for _, p := range []string{f.Run, f.Target, f.Scenario} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// HasErrors reports whether any finding is at LevelError.
func HasErrors(fs []Finding) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Level == LevelError })
}

// SortFindings orders findings errors first, then by rule, run, target,
// scenario and message, so output is the same on every run.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Level != b.Level:
			return a.Level > b.Level
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		case a.Run != b.Run:
			return a.Run < b.Run
		case a.Target != b.Target:
			return a.Target < b.Target
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		}
		return a.Message < b.Message
	})
}

// AuditOptions configure Audit.
type AuditOptions struct {
	// Thresholds decide when rules fire; the zero value means DefaultThresholds.
	Thresholds verdict.Thresholds
	// Pairs are A/A pairs for runs whose run.json names none
	// (parse.Run.AAPair): one program listed under two target names (or
	// cell names). A run takes the first pair it measured.
	Pairs [][2]string
	// NoIntegrity skips re-reading the dumps of run dirs (the integrity rules).
	NoIntegrity bool
	// Unreadable are the files ReadAll met and could not read (its
	// *parse.FoundError values): each is a finding.
	Unreadable []error
}

// Audit runs the checks of every rule (Rules, in their order) and returns
// the findings, sorted by SortFindings. Rules that need data a dialect
// does not carry (CPU seconds, run order, latency percentiles) stay silent
// on it.
func Audit(set *parse.Set, opts AuditOptions) []Finding {
	in := newInput(set, opts)
	var fs []Finding
	for _, r := range rules {
		if r.check != nil {
			fs = append(fs, r.check(in)...)
		}
	}
	SortFindings(fs)
	return fs
}
