package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestScenarioCPUPerRequest: the scenario table's server CPU per request is
// run.json's server_cpu_s ÷ the requests the dump counted, at the lower
// median of the repetitions, for every target of the fixed run.
func TestScenarioCPUPerRequest(t *testing.T) {
	set, site := fixture(t)
	runs, err := filepath.Glob(filepath.Join("testdata", "runs", "*", "run.json"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no run.json in testdata/runs: %v", err)
	}
	var manifest struct {
		Measurements []struct {
			Target, Scenario string
			Rep              int
			Warmup           bool
			ServerCPU        float64 `json:"server_cpu_s"`
		}
	}
	b, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	requests := map[[3]string]int64{}
	for _, m := range set.Measurements {
		if !m.Warmup && m.Phase == parse.PhaseThroughput {
			requests[[3]string{m.Target, m.Scenario, strconv.Itoa(m.Rep)}] = m.Requests
		}
	}
	per := map[[2]string][]float64{}
	for _, m := range manifest.Measurements {
		n := requests[[3]string{m.Target, m.Scenario, strconv.Itoa(m.Rep)}]
		if m.Warmup || n == 0 || m.ServerCPU == 0 {
			continue
		}
		k := [2]string{m.Scenario, m.Target}
		per[k] = append(per[k], m.ServerCPU/float64(n))
	}
	if len(per) == 0 {
		t.Fatal("the fixed run records no server CPU time")
	}
	out := build(t, set, site)
	for k, vs := range per {
		sort.Float64s(vs)
		want := CPUTime(vs[(len(vs)-1)/2])
		page, err := os.ReadFile(filepath.Join(out, "scenario", k[0]+".html"))
		if err != nil {
			t.Fatal(err)
		}
		row := tableRow(string(page), `<a href="../target/`+k[1]+`.html">`+k[1]+`</a>`)
		if !strings.Contains(row, ">"+want+"</span>") {
			t.Errorf("%s %s: the scenario table's row lacks server CPU per request %s:\n%s", k[0], k[1], want, row)
		}
	}
}

// tableRow is the <tr> of page that holds cell, "" if none.
func tableRow(page, cell string) string {
	i := strings.Index(page, cell)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(page[:i], "<tr>")
	end := strings.Index(page[i:], "</tr>")
	if start < 0 || end < 0 {
		return ""
	}
	return page[start : i+end]
}
