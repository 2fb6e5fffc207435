package history

import (
	"encoding/json"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestChangesOfRealRuns: real run dirs of one suite make one history in
// start order, and ChangesOf writes a JSON list ("[]" when none), never
// null.
func TestChangesOfRealRuns(t *testing.T) {
	set, errs := parse.ReadAll([]string{"../../render/testdata/runs"})
	if len(set.Runs) == 0 {
		t.Fatalf("no runs read: %v", errs)
	}
	hs := Histories(set)
	n := 0
	for suite, h := range hs {
		n += len(h)
		for i := 1; i < len(h); i++ {
			if h[i].Key == nil {
				t.Errorf("%s: run %s has no key", suite, h[i].Run.ID)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no history from %d runs", len(set.Runs))
	}
	b, err := json.Marshal(ChangesOf(set))
	if err != nil || b[0] != '[' {
		t.Errorf("changes as JSON: %s, %v", b, err)
	}
}
