package collect

import (
	"slices"
	"testing"
	"time"
)

// TestResumedErrors: the errors that told to finish a run with -resume say
// it was resumed once it is, keeping what happened; others stay.
func TestResumedErrors(t *testing.T) {
	end := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	now := end.Add(time.Hour)
	got := resumedErrors([]string{
		"interrupted: finish with -resume results/20261204T095000Z-vm",
		"3 measurements missing or failed (see errors in run.json): take them again with -resume results/r",
		"write dumps/a/ping/1.txt: no space left on device: the run stops here, every dump stored so far is kept: free space on results/r, then finish with -resume results/r",
		"resumed with wrk 4.2.0; earlier measurements used 4.1.0",
	}, &end, now)
	want := []string{
		"interrupted at 2026-12-04T10:00:00Z; resumed at 2026-12-04T11:00:00Z",
		"3 measurements missing or failed (see errors in run.json); resumed at 2026-12-04T11:00:00Z",
		"write dumps/a/ping/1.txt: no space left on device: the run stops here, every dump stored so far is kept; resumed at 2026-12-04T11:00:00Z",
		"resumed with wrk 4.2.0; earlier measurements used 4.1.0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
