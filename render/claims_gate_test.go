package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestUngatedNotRanked: a target measured (real wrk dumps, the fastest of
// three) whose run.json holds no gate record, or one without a verdict, is
// not ranked, gets a gate-missing finding, and the pages say why.
func TestUngatedNotRanked(t *testing.T) {
	for _, gate := range []string{"", "none"} {
		t.Run("gate="+gate, func(t *testing.T) {
			dir := claimRunDir(t, claimTarget{"ok-a", "ok", "pass"}, claimTarget{"ok-b", "ok", "pass"}, claimTarget{"nogate", "quick", gate})
			set := readClaimRun(t, dir)
			cells := verdict.Cells(set, verdict.DefaultThresholds)
			dec := verdict.Decide(set, cells, verdict.MetricRPS, verdict.DecideOptions{})
			for _, c := range cells {
				if r := dec.Scenario(c).Rank(c); r.Ranked != (c.Name != "nogate") {
					t.Errorf("%s: ranked %v (%d–%d)", c.Name, r.Ranked, r.Lo, r.Hi)
				}
			}
			found := false
			for _, f := range audit.Audit(set, audit.AuditOptions{}) {
				found = found || f.Rule == audit.RuleGateMissing && f.Target == "nogate" && f.Level == audit.LevelError
			}
			if !found {
				t.Errorf("no %s finding for nogate", audit.RuleGateMissing)
			}
			out := build(t, set, nil)
			md, err := os.ReadFile(filepath.Join(out, "results.md"))
			if err != nil {
				t.Fatal(err)
			}
			if rows := mdRows(md); len(rows) != 4 || rows[3][0] != "nogate" ||
				!strings.Contains(string(md), "Not ranked, as the run's run.json holds no gate record that passed them") {
				t.Errorf("results.md does not set nogate apart:\n%s", md)
			}
			index := unescape(readFile(t, filepath.Join(out, "index.html")))
			if strings.Contains(index, "nogate is faster") || !strings.Contains(index, "holds no gate record that passed them, so nothing shows they answered the request their peers did: nogate on ping.") {
				t.Errorf("the index ranks nogate or does not say why it is not ranked")
			}
		})
	}
}
