package audit

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// TestAuditTableRowOrder: the published bun table with its last row (acorn,
// the lowest average) moved to the top still matches its dumps number
// for number, and the audit says its rows follow no order; the table
// sorted by runtime, then by average within each, or by name, passes.
func TestAuditTableRowOrder(t *testing.T) {
	b, err := os.ReadFile(bunTable)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	head, rows := lines[:2], lines[2:]
	set := setFromTable(t, bunTable)
	audit := func(rows []string) []Finding {
		t.Helper()
		fs, err := AuditTable(strings.NewReader(strings.Join(append(append([]string(nil), head...), rows...), "\n")+"\n"), "results.md", set)
		if err != nil {
			t.Fatal(err)
		}
		return notInfo(fs)
	}
	moved := append([]string{rows[len(rows)-1]}, rows[:len(rows)-1]...)
	fs := audit(moved)
	if len(fs) != 1 || fs[0].Rule != RuleTableRowOrder || fs[0].Level != LevelError || fs[0].Target != "acorn" ||
		!strings.Contains(fs[0].Message, "results.md:3: the row for acorn is above the row for uws (line 4) though its Average is lower (10,264.195 and 262,146.763)") {
		t.Errorf("findings %v, want one %s error naming acorn above uws", fs, RuleTableRowOrder)
	}

	field := func(row string, i int) string { return strings.TrimSpace(strings.Split(row, "|")[i]) }
	byRuntime := append([]string(nil), rows...)
	sort.SliceStable(byRuntime, func(i, j int) bool { return field(byRuntime[i], 2) < field(byRuntime[j], 2) })
	byName := append([]string(nil), rows...)
	sort.SliceStable(byName, func(i, j int) bool { return field(byName[i], 1) < field(byName[j], 1) })
	for name, rows := range map[string][]string{"by runtime, then average": byRuntime, "by name": byName} {
		if fs := audit(rows); len(fs) != 0 {
			t.Errorf("%s: findings %v, want none", name, fs)
		}
	}
}

// FuzzAuditTable: whatever markdown -table is given, the table audit does
// not panic, and every finding names the table's lines. Seeds: the
// published bun table and its doctored copy, against the set of its own
// numbers.
func FuzzAuditTable(f *testing.F) {
	for _, name := range []string{bunTable, doctoredTable} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("| Framework | Runtime | Average | ping |\n|---|---|---|---|\n| a | node | 1e999 | -0 |\n| b | | NaN | 1,2,3 |\n| c |\n"))
	set := setFromTable(f, bunTable)
	f.Fuzz(func(t *testing.T, md []byte) {
		fs, err := AuditTable(strings.NewReader(string(md)), "t.md", set)
		if err != nil {
			return
		}
		for _, fd := range fs {
			if fd.Rule != RuleTableDumpWithoutRow && fd.Rule != RuleTableUnchecked && !strings.HasPrefix(fd.Message, "t.md:") {
				t.Fatalf("finding %s does not name the table's line", fd)
			}
		}
	})
}
