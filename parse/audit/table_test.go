package audit

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
)

const (
	bunTable      = "../testdata/bun/ba1520c/results/results.md"
	bunDumps      = "../testdata/bun/ba1520c/results"
	doctoredTable = "testdata/audit/ba1520c-results-doctored.md"
)

// setFromTable builds a Set that holds exactly the numbers of a
// bun-http-framework-benchmark results.md: one measurement per framework,
// runtime and scenario column, and a Target with the bundle, startup and
// memory columns (sizes 1024-based, as the harness prints them).
func setFromTable(t testing.TB, name string) *parse.Set {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(strings.Fields(s)[0], ",", ""), 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", name, s, err)
		}
		return v
	}
	set := &parse.Set{}
	scenarios := []string{"ping", "query", "body", "video"}
	for _, line := range strings.Split(string(b), "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		f := strings.Split(line, "|")[1:]
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		target, runtime := f[0], f[1]
		file := bunDumps + "/" + runtime + "/" + target + ".txt"
		for i, sc := range scenarios {
			set.Measurements = append(set.Measurements, &parse.Measurement{Tool: parse.ToolBombardier, Target: target, Runtime: runtime,
				Scenario: sc, RPS: num(f[3+i]), Source: parse.Source{File: file}})
		}
		tg := &parse.Target{Name: target, Runtime: runtime, Startup: time.Duration(num(f[8]) * float64(time.Millisecond)), Source: parse.Source{File: file}}
		if f[7] != "n/a" {
			unit := map[string]float64{"KB": 1 << 10, "MB": 1 << 20}[strings.Fields(f[7])[1]]
			tg.ArtifactBytes = int64(num(f[7]) * unit)
		}
		mem := strings.Split(f[9], "/")
		tg.RSSBefore, tg.RSSAfter = int64(num(mem[0])*(1<<20)), int64(num(mem[1])*(1<<20))
		set.Targets = append(set.Targets, tg)
	}
	return set
}

func auditTableFile(t *testing.T, name string, set *parse.Set) []Finding {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs, err := AuditTable(f, name, set)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// notInfo drops the info findings (columns no dump could check).
func notInfo(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Level > LevelInfo {
			out = append(out, f)
		}
	}
	return out
}

// checkDoctored asserts the two doctored changes and nothing else.
func checkDoctored(t *testing.T, fs []Finding) {
	t.Helper()
	fs = notInfo(fs)
	if len(fs) != 2 {
		t.Fatalf("findings:\n%v\nwant exactly the changed number and the removed row", fs)
	}
	m, r := fs[0], fs[1]
	if m.Rule != RuleTableMismatch || m.Level != LevelError || m.Target != "elysia (bun)" || m.Scenario != "query" ||
		!strings.Contains(m.Message, ":5: ") || !strings.Contains(m.Message, "234,698.15") || !strings.Contains(m.Message, "224,698.15") {
		t.Errorf("first finding %s, want the elysia (bun) query mismatch on line 5", m)
	}
	if r.Rule != RuleTableDumpWithoutRow || r.Target != "koa (node)" || len(r.Dumps) != 1 || !strings.HasSuffix(r.Dumps[0], "node/koa.txt") {
		t.Errorf("second finding %s %v, want koa (node) without a row", r, r.Dumps)
	}
}

// TestAuditTableSynthetic runs the table audit on a Set built from the
// undoctored table's own numbers, every column checked.
func TestAuditTableSynthetic(t *testing.T) {
	set := setFromTable(t, bunTable)
	if fs := auditTableFile(t, bunTable, set); len(fs) != 0 {
		t.Errorf("findings on the table's own numbers:\n%v", fs)
	}
	fs := auditTableFile(t, doctoredTable, set)
	for _, f := range fs {
		if f.Rule == RuleTableUnchecked {
			t.Errorf("a column went unchecked: %s", f)
		}
	}
	checkDoctored(t, fs)
}

// TestAuditTableDumps runs the table audit against the real harness dumps
// the table was made from, as parse reads them.
func TestAuditTableDumps(t *testing.T) {
	set, errs := parse.ReadAll([]string{bunDumps})
	if len(errs) > 0 {
		t.Fatalf("reading the dumps: %v", errs)
	}
	if fs := notInfo(auditTableFile(t, bunTable, set)); len(fs) != 0 {
		t.Errorf("findings on the published table:\n%v", fs)
	}
	checkDoctored(t, auditTableFile(t, doctoredTable, set))
}

func TestAuditTableRules(t *testing.T) {
	set := &parse.Set{
		Measurements: []*parse.Measurement{
			{Target: "a", Scenario: "ping", RPS: 1000.25, Source: parse.Source{File: "a.txt"}},
			{Target: "a", Scenario: "query", RPS: 500, Source: parse.Source{File: "a.txt"}},
			{Target: "b", Scenario: "ping", RPS: 2000, Source: parse.Source{File: "b.txt"}},
		},
		Targets: []*parse.Target{{Name: "a", Startup: 51100 * time.Microsecond, ArtifactBytes: 3000}},
	}
	table := `Results:

| Name | Ping | Query | Average | Startup | Bundle | Notes |
|------|-----:|------:|--------:|--------:|-------:|-------|
| a | 1,000.3 | 500 | 750.125 | 52.1 ms | 2.9 KB | fast |
| b | 2,000 | 9,999 | 1 | n/a | n/a | |
| c | 1 | 2 | 1.5 | | | |

trailing text
`
	fs, err := AuditTable(strings.NewReader(table), "t.md", set)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Target+" "+f.Scenario)
	}
	want := []string{
		RuleTableMismatch + " a ",               // startup 52.1 ms is not 51.1 ms
		RuleTableNumberWithoutDump + " b query", // no dump for b/query
		RuleTableRowWithoutDump + " c ",
		RuleTableUnchecked + "  ", // Notes
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\n(full: %v)", strings.Join(got, "\n"), strings.Join(want, "\n"), fs)
	}
	if _, err := AuditTable(strings.NewReader("no table here\n"), "x.md", set); err == nil {
		t.Errorf("no error for a file without a table")
	}
}
