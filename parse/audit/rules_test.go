package audit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// ruleConstants are the values of the package's Rule* string constants,
// read from its Go files (tests aside), by constant name.
func ruleConstants(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Rule") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						ids[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	if len(ids) < 40 {
		t.Fatalf("found %d Rule constants, want the package's (about 50)", len(ids))
	}
	return ids
}

// TestRulesRegistered: every Rule* constant has one registry entry with a
// Doc and levels, ids are unique, every check is registered once, every
// rule Audit raises is found by a check before it, and the table rules
// have none.
func TestRulesRegistered(t *testing.T) {
	seen := map[string]bool{}
	checks := map[uintptr]string{}
	for i, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s registered twice", r.ID)
		}
		seen[r.ID] = true
		if strings.TrimSpace(r.Doc) == "" || len(r.Levels) == 0 {
			t.Errorf("rule %s: no Doc or no levels", r.ID)
		}
		if !slices.IsSorted(r.Levels) {
			t.Errorf("rule %s: levels %v not lowest first", r.ID, r.Levels)
		}
		switch {
		case r.Table && r.check != nil:
			t.Errorf("table rule %s has a check: Audit would run it", r.ID)
		case !r.Table && r.check == nil && i == 0:
			t.Errorf("rule %s: the first rule has no check to be found by", r.ID)
		case r.check != nil:
			p := reflect.ValueOf(r.check).Pointer()
			if other, ok := checks[p]; ok {
				t.Errorf("rules %s and %s register the same check", other, r.ID)
			}
			checks[p] = r.ID
		}
		if got, ok := RuleByID(r.ID); !ok || got.ID != r.ID {
			t.Errorf("RuleByID(%q) = %v, %v", r.ID, got.ID, ok)
		}
	}
	for name, id := range ruleConstants(t) {
		if !seen[id] {
			t.Errorf("%s = %q has no registry entry", name, id)
		}
	}
	if _, ok := RuleByID("no-such-rule"); ok {
		t.Error("RuleByID found a rule that does not exist")
	}
}

// TestFindingLevelsRegistered runs Audit on the real runs of
// parse/testdata/runs and the phase run, and the table audit on the
// doctored table: every finding's rule is registered, with its level among
// the rule's Levels. Those runs trip most rules; minRulesFound keeps them
// doing so.
func TestFindingLevelsRegistered(t *testing.T) {
	const minRulesFound = 18
	runs, _ := filepath.Glob("../testdata/runs/*")
	runs = append(runs, "testdata/phase-run/20261201T122920Z-vm")
	set, errs := parse.ReadAll(runs)
	if len(errs) > 0 {
		t.Fatalf("reading %q: %v", runs, errs)
	}
	fs := Audit(set, AuditOptions{})
	found := map[string]bool{}
	for _, f := range fs {
		found[f.Rule] = true
	}
	if len(found) < minRulesFound {
		t.Fatalf("the runs trip %d rules, want at least %d: %v", len(found), minRulesFound, found)
	}
	f, err := os.Open(doctoredTable)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dumps, _ := parse.ReadAll([]string{bunDumps})
	tfs, err := AuditTable(f, doctoredTable, dumps)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(fs, tfs...) {
		r, ok := RuleByID(f.Rule)
		switch {
		case !ok:
			t.Errorf("finding of unregistered rule %q: %s", f.Rule, f)
		case !slices.Contains(r.Levels, f.Level):
			t.Errorf("rule %s found at %s, not among its levels %v", f.Rule, f.Level, r.Levels)
		}
	}
}

// TestWriteRulesMarkdown: every rule, in registry order, with its title in
// a reader's words, its levels and its Doc.
func TestWriteRulesMarkdown(t *testing.T) {
	var b strings.Builder
	if err := WriteRulesMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	at := 0
	for _, r := range Rules() {
		i := strings.Index(out[at:], "\n### "+r.ID+"\n")
		if i < 0 {
			t.Fatalf("rule %s missing or out of order in:\n%s", r.ID, out)
		}
		at += i + 1
		if !strings.Contains(out[at:], r.Doc) {
			t.Errorf("rule %s: Doc missing", r.ID)
		}
		if r.Title == "" || !strings.Contains(out[at:], upperFirst(r.Title)+". ") {
			t.Errorf("rule %s: no title in a reader's words, or not written", r.ID)
		}
	}
	if !strings.Contains(out, "### pinning\n\nCPU pinning. Levels: info, warning, error.\n") {
		t.Errorf("pinning's levels not listed:\n%s", out)
	}
}
