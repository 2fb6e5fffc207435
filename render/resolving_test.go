package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMethodologyResolvingPower renders a real calibration run (planted.toml
// collected at 4 × 1 s on a busy host): the methodology page states what its
// verdicts resolved of each planted copy, with the measured cost, and the
// twins.
func TestMethodologyResolvingPower(t *testing.T) {
	runs, err := filepath.Glob(filepath.Join("testdata", "calibration", "*"))
	if err != nil || len(runs) != 1 {
		t.Fatalf("calibration fixture: %v %v", runs, err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, runs[0]); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "methodology.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<h2 id="resolving">Resolving power of this host</h2>`,
		"4 repetitions of 1.0",
		"The A/A twins were claimed apart in 0 of 1 scenarios.",
		"<td>node-plus25</td><td>node-base</td>",
		"<td>go-plus10</td><td>go-base</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("methodology.html lacks %q", want)
		}
	}
	// This busy-host run resolved none: the summary says so, naming the
	// largest planted cost it measured.
	if !strings.Contains(page, "None of the planted costs was resolved, up to &#43;") {
		t.Errorf("methodology.html does not say that nothing was resolved")
	}
	if n := strings.Count(page, "<td>yes</td>"); n != 0 {
		t.Errorf("%d planted copies marked resolved; the run's audit resolved none", n)
	}
}
