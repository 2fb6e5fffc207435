package parse

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

func TestCSVWriter(t *testing.T) {
	ms, ts, errs := readRecords(t, "testdata/bun/ba1520c/results/bun/elysia.txt")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var b strings.Builder
	w := NewCSVWriter(&b)
	for _, r := range []Record{ms[0], ts[0]} {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, c := range []struct {
		row       int
		name, val string
	}{
		{1, "kind", "measurement"}, {1, "tool", "bombardier"}, {1, "target", "elysia"}, {1, "runtime", "bun"},
		{1, "scenario", "ping"}, {1, "requests", "4025543"}, {1, "window_s", "10"}, {1, "status_2xx", "4025543"},
		{1, "rps", "402554.3"}, {1, "rps_basis", "requests/window"}, {1, "tool_rps", "402997.65"},
		{1, "good_rps", "402554.3"}, {1, "good_basis", "2xx"},
		{1, "latency_mean_s", "0.00124"}, {1, "source_line_start", "5"}, {1, "errors_timeout", "0"},
		{2, "kind", "target"}, {2, "startup_s", "0.0511"}, {2, "artifact_bytes", "164659"}, {2, "rps", ""},
	} {
		if got := rows[c.row][col[c.name]]; got != c.val {
			t.Errorf("row %d %s = %q, want %q", c.row, c.name, got, c.val)
		}
	}
}

// TestHostsInOutput checks that the server and client host and the shard
// reach JSON Lines and CSV, and that a dump without them adds no JSON key.
func TestHostsInOutput(t *testing.T) {
	m := &Measurement{Tool: ToolBombardier, Target: "gin", ServerHost: "srv1", ClientHost: "cli1", Shard: "1/2"}
	var j, c bytes.Buffer
	if err := NewJSONWriter(&j).Write(m); err != nil {
		t.Fatal(err)
	}
	cw := NewCSVWriter(&c)
	if err := cw.Write(m); err != nil {
		t.Fatal(err)
	}
	cw.Flush()
	if !strings.Contains(j.String(), `"server_host":"srv1","client_host":"cli1","shard":"1/2"`) {
		t.Errorf("JSON: %s", j.String())
	}
	if !strings.Contains(strings.TrimSpace(c.String()), ",srv1,cli1,1/2,") {
		t.Errorf("CSV: %s", c.String())
	}
	j.Reset()
	NewJSONWriter(&j).Write(&Measurement{Tool: ToolWrk})
	if strings.Contains(j.String(), "server_host") {
		t.Errorf("a foreign dump carries a host: %s", j.String())
	}
}

// TestCSVFormulas: a text field that a spreadsheet would run as a formula
// (a target or a file named "=cmd|' /C calc'!A0") is written with a
// leading apostrophe, by the rule the site's results.csv uses; numbers,
// negative ones too, are written as they are.
func TestCSVFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=cmd|' /C calc'!A0": "'=cmd|' /C calc'!A0",
		"+1+1":               "'+1+1",
		"-x":                 "'-x",
		"@SUM(A1)":           "'@SUM(A1)",
		"\tx":                "'\tx",
		"\rx":                "'\rx",
		"gin":                "gin",
		"-2.5":               "-2.5",
		"":                   "",
	} {
		if got := csvField(in); got != want {
			t.Errorf("csvField(%q) = %q, want %q", in, got, want)
		}
	}
	var b strings.Builder
	w := NewCSVWriter(&b)
	w.Write(&Measurement{Tool: ToolWrk, Target: "=cmd|' /C calc'!A0", Source: Source{File: "@evil.txt"}})
	w.Flush()
	if out := b.String(); strings.Contains(out, ",=cmd") || strings.Contains(out, ",@evil") || !strings.Contains(out, "'=cmd") {
		t.Errorf("formula fields written raw:\n%s", out)
	}
}
