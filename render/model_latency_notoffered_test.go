package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestNotOfferedNotes adds to the real phase run the points a collector
// left out above the client's ceiling (gin at 75% of its capacity, and a
// fixed 20,000 req/s for both targets, as run.json's not_offered lists
// them): the ping page names each with its target, the target pages name
// their own with the scenario, each says why, and no point of the run is
// lost from the table.
func TestNotOfferedNotes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), filepath.Base(phaseRun))
	if err := os.CopyFS(dir, os.DirFS(phaseRun)); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	cal := "dumps/gin/ping/ceiling/1.txt"
	m.NotOffered = []runjson.NotOffered{
		{Target: "gin", Scenario: "ping", Rate: 6074, RateFraction: 0.75, Capacity: 8099.03, Ceiling: 6500, ClientBound: true, Limit: 5850, Calibration: cal},
		{Target: "stdlib", Scenario: "ping", Rate: 20000, Ceiling: 6500, ClientBound: true, Limit: 5850, Calibration: cal},
		{Target: "gin", Scenario: "ping", Rate: 20000, Ceiling: 6500, ClientBound: true, Limit: 5850, Calibration: cal},
	}
	if b, err = runjson.Encode(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	why := "the client could not send that many: sending as fast as it could%s it sent 6,500 req/s (its own CPUs near their limit), and a point offers at most 5,850 req/s"
	for _, tt := range []struct {
		page       string
		say, never []string
	}{
		{"scenario/ping.html", []string{"Not offered: gin at 75% (6,074 req/s), stdlib at 20,000 req/s, gin at 20,000 req/s; " + strings.Replace(why, "%s", "", 1)}, nil},
		{"target/gin.html", []string{"Not offered: 75% (6,074 req/s), 20,000 req/s; " + strings.Replace(why, "%s", " on ping", 1)}, nil},
		{"target/stdlib.html", []string{"Not offered: 20,000 req/s; " + strings.Replace(why, "%s", " on ping", 1)}, []string{"75%"}},
	} {
		page := unescape(readFile(t, filepath.Join(out, tt.page)))
		for _, s := range tt.say {
			if !strings.Contains(page, s) {
				t.Errorf("%s does not say %q", tt.page, s)
			}
		}
		for _, s := range tt.never {
			if strings.Contains(page, "Not offered: "+s) {
				t.Errorf("%s says another target's %q was not offered", tt.page, s)
			}
		}
	}
	if page := readFile(t, filepath.Join(out, "scenario", "ping.html")); !strings.Contains(page, "9 latency points of 12 fell behind") {
		t.Error("the ping page lost its points")
	}
	// results.json lists them too, with their run.
	var doc struct {
		NotOffered []struct {
			Run      string  `json:"run"`
			Target   string  `json:"target"`
			Rate     float64 `json:"rate"`
			Fraction float64 `json:"rate_fraction"`
			Ceiling  float64 `json:"ceiling"`
		} `json:"not_offered"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "results.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	if n := doc.NotOffered; len(n) != 3 || n[0].Target != "gin" || n[0].Fraction != 0.75 || n[0].Rate != 6074 || n[0].Ceiling != 6500 || n[0].Run != filepath.Base(phaseRun) {
		t.Errorf("results.json not_offered: %+v", n)
	}
}
