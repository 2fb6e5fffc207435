package collect_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/render"
)

// checkCeiling checks the ceiling measurements of a run: one window (after
// its warm-up) of vegeta at -rate=0 with the phase's workers, its dump kept
// and hashed, its send rate the rate vegeta's own report printed, its
// client load recorded and judged; it returns the limit of a point.
func checkCeiling(t *testing.T, runDir string, ceiling []runjson.Measurement, workers int) float64 {
	t.Helper()
	var window []runjson.Measurement
	for _, mr := range ceiling {
		if !mr.Warmup {
			window = append(window, mr)
		}
	}
	if len(window) != 1 {
		t.Fatalf("%d ceiling windows, want 1: %+v", len(window), ceiling)
	}
	mr := window[0]
	w := "=" + strconv.Itoa(workers)
	if mr.Tool != "vegeta" || mr.Error != "" || mr.Connections != workers || mr.Rate != 0 ||
		!slices.Contains(mr.Argv, "-rate=0") || !slices.Contains(mr.Argv, "-workers"+w) || !slices.Contains(mr.Argv, "-max-workers"+w) {
		t.Errorf("ceiling %s: tool %s error %q connections %d rate %v argv %q", mr.Dump, mr.Tool, mr.Error, mr.Connections, mr.Rate, mr.Argv)
	}
	b, err := os.ReadFile(filepath.Join(runDir, mr.Dump))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != mr.SHA256 {
		t.Errorf("ceiling %s: sha256 %x, run.json says %s", mr.Dump, sum, mr.SHA256)
	}
	checkVegetaDump(t, filepath.Join(runDir, mr.Dump), 0, false)
	var report struct {
		Rate float64 `json:"rate"`
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	if err := json.Unmarshal(first, &report); err != nil {
		t.Fatal(err)
	}
	if mr.SendRate <= 0 || math.Abs(mr.SendRate-report.Rate) > 0.05*report.Rate {
		t.Errorf("ceiling %s: send rate %v, vegeta's report says %v", mr.Dump, mr.SendRate, report.Rate)
	}
	if mr.ClientLoad <= 0 || mr.ClientLoad > 1.1 || mr.ClientBound != (mr.ClientLoad >= 0.9) {
		t.Errorf("ceiling %s: client load %v, client bound %v", mr.Dump, mr.ClientLoad, mr.ClientBound)
	}
	return collect.CeilingShare * mr.SendRate
}

// TestFractionAboveCeilingNotOffered measures the client's ceiling with a
// single vegeta worker, well under what bombardier's eight connections
// drew from the same server: 100% of the target's capacity is above it and
// is not offered, 5% is; run.json and the rendered scenario and target
// pages say which point was not offered and why.
func TestFractionAboveCeilingNotOffered(t *testing.T) {
	if testing.Short() {
		t.Skip("drives real load generators")
	}
	bin := sharedStdlib(t)
	st := phaseSuiteFor(t, bin, "1", "", "1s")
	st.Latency.Fractions = []float64{0.05, 1}
	st.Latency.Rates = nil
	st.Latency.MaxWorkers = 1
	st.Sweep = nil
	dir, lines := runComplete(t, st)
	m := dir.Manifest()
	var ceiling, latency []runjson.Measurement
	var capacity float64
	for _, mr := range m.Measurements {
		switch mr.Phase {
		case "":
			if mr.Scenario == "ping" {
				capacity = rpsOf(t, filepath.Join(dir.Path, mr.Dump))
			}
		case collect.PhaseCeiling:
			ceiling = append(ceiling, mr)
		case collect.PhaseLatency:
			latency = append(latency, mr)
		}
	}
	limit := checkCeiling(t, dir.Path, ceiling, 1)
	if capacity <= limit {
		t.Fatalf("one vegeta worker was let send %v req/s, at least the %v req/s of eight bombardier connections: the test needs a ceiling below capacity", limit, capacity)
	}
	if len(latency) != 2 || latency[1].RateFraction != 0.05 || latency[1].Rate > limit {
		t.Errorf("latency points %+v, want the warm-up and window of 5%% only", latency)
	}
	if len(m.NotOffered) != 1 {
		t.Fatalf("not offered: %+v, want the 100%% point", m.NotOffered)
	}
	no := m.NotOffered[0]
	if no.RateFraction != 1 || no.Rate != math.Round(capacity) || no.Capacity != capacity || no.Limit != limit || no.Calibration != ceiling[len(ceiling)-1].Dump {
		t.Errorf("not offered %+v: want 100%% of %v req/s, limit %v", no, capacity, limit)
	}
	if !strings.Contains(lines.String(), "latency-100pct: "+strconv.FormatFloat(no.Rate, 'f', 0, 64)+" req/s not offered") {
		t.Errorf("progress does not say the 100%% point was not offered:\n%s", lines.String())
	}

	// The pages say it.
	out := t.TempDir()
	if _, _, err := render.BuildPaths([]string{dir.Path}, render.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"scenario/ping.html", "target/stdlib.html"} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("Not offered: ")) || !bytes.Contains(b, []byte("100%")) || !bytes.Contains(b, []byte("could not send that many")) {
			t.Errorf("%s does not say the 100%% point was not offered and why:\n%s", page, b)
		}
	}
}

// TestMergeKeepsNotOffered merges two shards that each left a latency
// point out above their own client's ceiling: the merged run lists both.
func TestMergeKeepsNotOffered(t *testing.T) {
	var paths []string
	for i, s := range []fakeShard{{shard: "1/2", targets: []string{"a", "c"}}, {shard: "2/2", targets: []string{"b"}}} {
		p := s.write(t)
		d, err := rundir.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		no := runjson.NotOffered{Target: s.targets[0], Scenario: "ping", Rate: float64(1000 * (i + 1)), Ceiling: 500, Limit: 450}
		if err := d.Update(func(m *runjson.Manifest) { m.NotOffered = append(m.NotOffered, no) }); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	d, err := collect.MergeWith(t.TempDir(), paths, collect.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, no := range d.Manifest().NotOffered {
		got = append(got, no.Target+" "+strconv.FormatFloat(no.Rate, 'f', -1, 64))
	}
	if !slices.Equal(got, []string{"a 1000", "b 2000"}) {
		t.Errorf("merged run lists %q as not offered, want a 1000 and b 2000", got)
	}
}
