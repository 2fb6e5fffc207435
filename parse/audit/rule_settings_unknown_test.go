package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestSettingsUnknownFinding audits the collapsed post: each run says
// what it lacks, and a run read whole says nothing.
func TestSettingsUnknownFinding(t *testing.T) {
	set, errs := parse.ReadAll([]string{"../testdata/post-autocannon-9.0.0__benchmarking_collapsed.md", "../testdata/posts/autocannon-9.0.0__plaintext_Hono.stderr.txt"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, f := range Audit(set, AuditOptions{}) {
		if f.Rule == RuleSettingsUnknown {
			got = append(got, f.Target+": "+f.Message)
		}
	}
	if len(got) != 3 {
		t.Fatalf("%d settings-unknown findings, want 3 (one per pasted run):\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, msg := range got {
		if !strings.Contains(msg, "does not say its connections, pipelining and requested duration;") {
			t.Errorf("finding %q: want it to name connections, pipelining and requested duration", msg)
		}
	}
}
