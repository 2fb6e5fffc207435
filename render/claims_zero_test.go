package render

import (
	"testing"

	"github.com/fairbench/fairbench/parse/audit"
)

// TestZeroRequestsFinding: a target that never answers (real wrk, every
// repetition completes no request) gets an error finding that says so.
func TestZeroRequestsFinding(t *testing.T) {
	dir := claimRunDir(t, claimTarget{"ok-a", "ok", "pass"}, claimTarget{"ok-b", "ok", "pass"}, claimTarget{"silent", "silent", "pass"})
	set := readClaimRun(t, dir)
	found := false
	for _, f := range audit.Audit(set, audit.AuditOptions{}) {
		found = found || f.Rule == audit.RuleNoRequests && f.Target == "silent" && f.Level == audit.LevelError
	}
	if !found {
		t.Errorf("no %s finding for silent", audit.RuleNoRequests)
	}
}
