package render

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
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

// calibration is what verdict.ResolvingPower makes of run "cal": "base"
// and its twin at 50,000 req/s, each copy (planted on base) at its req/s
// for its repetitions, 8 rounds of 10 s each busy 10 s of server CPU.
func calibration(t *testing.T, planted []string, copies map[string][2]float64) verdict.Resolving {
	t.Helper()
	on := map[string]string{}
	for _, p := range planted {
		on[p] = "base"
	}
	set := &parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "cal",
		AAPair: []string{"base", "base-aa"}, Planted: on}}}}
	copies = maps.Clone(copies)
	copies["base"], copies["base-aa"] = [2]float64{50000, 8}, [2]float64{50000, 8}
	jitter := []float64{1, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1}
	order := 0
	for round := 1; round <= 8; round++ {
		for _, name := range slices.Sorted(maps.Keys(copies)) {
			if c := copies[name]; round <= int(c[1]) {
				order++
				rps := c[0] * jitter[(round+order)%8]
				n := int64(rps * 10)
				set.Measurements = append(set.Measurements, &parse.Measurement{Tool: parse.ToolWrk, Run: "cal",
					Target: name, Scenario: "ping", Rep: round, Order: order, Connections: 64, Threads: 1,
					Window: 10 * time.Second, Duration: 10 * time.Second, Requests: n, RPS: rps, ServerCPU: 10,
					Status: parse.StatusCounts{Known: true, C2xx: n},
					Source: parse.Source{File: fmt.Sprintf("cal/dumps/%s/ping/%d.txt", name, round)}})
			}
		}
	}
	d := verdict.Decide(set, verdict.Cells(set, verdict.DefaultThresholds), verdict.MetricRPS, verdict.DecideOptions{})
	res := verdict.ResolvingPower(set, d)
	if len(res) != 1 {
		t.Fatalf("%d calibration runs, want 1", len(res))
	}
	return res[0]
}

// TestResolvingSummaryWrongWay: the one planted copy measures 20% faster
// than its base and is claimed so; the summary says the copy was claimed
// the wrong way round, and not that no server CPU was recorded.
func TestResolvingSummaryWrongWay(t *testing.T) {
	v := resolvingView(calibration(t, []string{"odd"}, map[string][2]float64{"odd": {60000, 8}}))
	if !strings.Contains(v.Summary, "A planted copy was claimed faster than its base, the wrong way round (odd in ping)") ||
		strings.Contains(v.Summary, "no server CPU") {
		t.Errorf("summary %q", v.Summary)
	}
	if len(v.Rows) != 1 || !v.Rows[0].Wrong {
		t.Errorf("rows %+v: want odd marked the wrong way", v.Rows)
	}
}

// TestResolvingSummaryNotMonotone: +6% resolved, +25% missed (two
// repetitions, too few to test): the summary says both and that the
// verdicts are not monotone, and states no threshold.
func TestResolvingSummaryNotMonotone(t *testing.T) {
	v := resolvingView(calibration(t, []string{"plus6", "plus25"},
		map[string][2]float64{"plus6": {50000 / 1.06, 8}, "plus25": {50000 / 1.25, 2}}))
	if !strings.HasPrefix(v.Summary, "Resolved +6.") || !strings.Contains(v.Summary, "but missed +2") ||
		!strings.Contains(v.Summary, "CPU per request: this run's verdicts are not monotone in the cost") ||
		strings.Contains(v.Summary, "differences below") {
		t.Errorf("summary %q", v.Summary)
	}
}

// TestResolvingSummaryUnmeasured: a planted copy never measured is named,
// beside what the measured one resolved.
func TestResolvingSummaryUnmeasured(t *testing.T) {
	v := resolvingView(calibration(t, []string{"plus30", "plus5"}, map[string][2]float64{"plus30": {50000 / 1.3, 8}}))
	if !strings.Contains(v.Summary, "Every planted cost was resolved, the smallest +29.") ||
		!strings.Contains(v.Summary, "Planted copies not measured against their base: plus5 (on base): the run says nothing of their costs.") {
		t.Errorf("summary %q", v.Summary)
	}
}

// TestMethodologyResolvingUnmeasured renders the real calibration run with
// every planted copy's measurements taken out (as when each failed before
// measuring): the section stays and names each copy not measured.
func TestMethodologyResolvingUnmeasured(t *testing.T) {
	dir := fixtureCopy(t, "calibration")
	planted := []string{"go-plus10", "node-plus10", "node-plus25", "node-plus5"}
	rewriteRunJSON(t, dir, func(run map[string]any) {
		var kept []any
		for _, v := range run["measurements"].([]any) {
			if !slices.Contains(planted, v.(map[string]any)["target"].(string)) {
				kept = append(kept, v)
			}
		}
		run["measurements"] = kept
	})
	for _, name := range planted {
		if err := os.RemoveAll(filepath.Join(dir, "dumps", name)); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "methodology.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Planted copies not measured against their base: go-plus10 (on go-base); node-plus10 (on node-base); node-plus25 (on node-base); node-plus5 (on node-base): the run says nothing of their costs."
	if page := string(b); !strings.Contains(page, `<h2 id="resolving">`) || !strings.Contains(page, want) {
		t.Errorf("methodology.html does not name the planted copies not measured")
	}
	if strings.Contains(string(b), `<th scope="col">copy</th>`) {
		t.Errorf("methodology.html shows a table of planted pairs with none measured")
	}
}

// TestResolvingRowEquivalent: a planted copy within the margin of its base
// is called equivalent: its row reads "=", not "~", and it is not resolved.
func TestResolvingRowEquivalent(t *testing.T) {
	v := resolvingView(calibration(t, []string{"plus1"}, map[string][2]float64{"plus1": {50000 / 1.005, 8}}))
	if len(v.Rows) != 1 || v.Rows[0].Resolved || !strings.HasSuffix(v.Rows[0].Verdict, ": = (equivalent)") {
		t.Errorf("rows %+v: want one, unresolved, read \"=\"", v.Rows)
	}
}
