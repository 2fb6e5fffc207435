package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestErrorsNotRanked loads two servers that answer 200 in 2 ms, and a
// third that answers only 500 (many times faster) or 500 to 47% of its
// requests, with the real wrk: the erring target is not ranked, results.md
// lists it after the others and says why, the index never calls it faster
// nor its median the highest and says why, and the audit reports its
// errors as throughput, at good req/s 0 too.
func TestErrorsNotRanked(t *testing.T) {
	for _, kind := range []string{"errors", "half"} {
		t.Run(kind, func(t *testing.T) {
			dir := claimRunDir(t, claimTarget{"ok-a", "ok", "pass"}, claimTarget{"ok-b", "ok", "pass"}, claimTarget{"broken", kind, "pass"})
			set := readClaimRun(t, dir)
			cells := verdict.Cells(set, verdict.DefaultThresholds)
			dec := verdict.Decide(set, cells, verdict.MetricRPS, verdict.DecideOptions{})
			for _, c := range cells {
				if r := dec.Scenario(c).Rank(c); c.Name == "broken" && r.Ranked {
					t.Errorf("broken (%.0f%% errors) is ranked %d–%d", c.ErrorShare()*100, r.Lo, r.Hi)
				}
			}
			out := build(t, set, nil)
			md, err := os.ReadFile(filepath.Join(out, "results.md"))
			if err != nil {
				t.Fatal(err)
			}
			rows := mdRows(md)
			if len(rows) != 4 || rows[3][0] != "broken" {
				t.Errorf("results.md does not list broken last:\n%s", md)
			}
			if !strings.Contains(string(md), "Not ranked, as more than 0.1% of their requests were answered with an error status") ||
				!strings.Contains(string(md), "broken on ping (") {
				t.Errorf("results.md does not say why broken is not ranked:\n%s", md)
			}
			index := unescape(readFile(t, filepath.Join(out, "index.html")))
			for _, never := range []string{"broken is faster", "broken, ", "<td>broken</td>"} {
				if strings.Contains(index, never) {
					t.Errorf("the index says %q", never)
				}
			}
			if !strings.Contains(index, "Not ranked, as more than 0.1% of their requests were answered with an error status, which req/s counts as throughput: broken on ping (") {
				t.Errorf("the index does not say why broken is not ranked")
			}
			scenario := unescape(readFile(t, filepath.Join(out, "scenario", "ping.html")))
			if !strings.Contains(scenario, "not ranked: ") || !strings.Contains(scenario, "were answered with an error status (over the 0.1% allowed)") {
				t.Errorf("the scenario page does not say why broken is not ranked")
			}
			found := false
			for _, f := range audit.Audit(set, audit.AuditOptions{}) {
				found = found || f.Rule == audit.RuleErrorsAsThroughput && f.Target == "broken"
			}
			if !found {
				t.Errorf("no %s finding for broken", audit.RuleErrorsAsThroughput)
			}
		})
	}
}
