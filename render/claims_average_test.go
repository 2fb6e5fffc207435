package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestResultsMDAuditsClean: results.md as fairbench writes it by default,
// of a real run of three targets and three scenarios, passes the
// published-table audit with no error: its mean column is named for the
// mean it is, and the audit reads that name as that mean.
func TestResultsMDAuditsClean(t *testing.T) {
	run := filepath.Join("testdata", "runs", "20261129T192304Z-vm")
	set, errs := parse.ReadAll([]string{run})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	md := ResultsMarkdown(set, nil, verdict.Thresholds{})
	fs, err := audit.AuditTable(bytes.NewReader(md), "results.md", set)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Level == audit.LevelError {
			t.Errorf("%s", f)
		}
	}
	if t.Failed() {
		t.Logf("results.md:\n%s", md)
	}
}
