package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGatePerRun: on the committed site, each target's page carries the
// gate of every run on show that measured it, each with that run's own
// transcript whole (every scenario the transcript gated), and
// conformance.html has a row per target and run linking it; neither page
// passes 400 KB.
func TestGatePerRun(t *testing.T) {
	conf := projectPage(t, "conformance.html")
	if len(conf) > 400<<10 {
		t.Errorf("conformance.html is %d bytes, want at most 400 KB", len(conf))
	}
	runs, err := filepath.Glob(filepath.Join("..", "site", "results", "*", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	newest := map[string]string{} // suite → its newest run dir: the run on show
	for _, rj := range runs {
		var m struct{ Suite string }
		b, err := os.ReadFile(rj)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		newest[m.Suite] = max(newest[m.Suite], filepath.Dir(rj))
	}
	gated := 0
	for _, dir := range newest {
		run := filepath.Base(dir)
		transcripts, err := filepath.Glob(filepath.Join(dir, "conformance", "*.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range transcripts {
			name := strings.TrimSuffix(filepath.Base(tr), ".txt")
			b, err := os.ReadFile(tr)
			if err != nil {
				t.Fatal(err)
			}
			heads := strings.Count("\n"+string(b), "\n===")
			page := projectPage(t, "target/"+name+".html")
			if len(page) > 400<<10 {
				t.Errorf("target/%s.html is %d bytes, want at most 400 KB", name, len(page))
			}
			gate := regexp.MustCompile(`(?s)<div id="` + gateID(run) + `">.*?\n</div>`).FindString(page)
			if gate == "" {
				t.Errorf("target/%s.html has no gate of run %s", name, run)
				continue
			}
			if got := strings.Count(gate, `<span class="head">===`); got != heads {
				t.Errorf("target/%s.html shows %d scenario heads of run %s's gate, its transcript has %d", name, got, run, heads)
			}
			if !strings.Contains(conf, `href="target/`+name+`.html#`+gateID(run)+`"`) {
				t.Errorf("conformance.html does not link %s's gate of run %s", name, run)
			}
			gated++
		}
	}
	if gated < 40 {
		t.Errorf("%d gates checked, want every target of the 6 runs on show (over 40)", gated)
	}
}
