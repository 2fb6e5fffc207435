package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestAAPairFinding: twins 8% apart against a 2% threshold with 6
// repetitions fail the A/A check, in the run that declared them only.
func TestAAPairFinding(t *testing.T) {
	build := func(run string) []*parse.Measurement {
		var ms []*parse.Measurement
		ms = append(ms, series(run, "stdlib", "ping", 0, 0, 1080, 1090, 1070, 1085, 1075, 1082)...)
		ms = append(ms, series(run, "stdlib-aa", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
		ms = append(ms, series(run, "x", "ping", 0, 0, 1060, 1061, 1059, 1060.5, 1059.5, 1060.2)...)
		ms = append(ms, series(run, "y", "ping", 0, 0, 1000, 1001, 999, 1000.5, 999.5, 1000.2)...)
		return ms
	}
	s := setOf(build("with"), build("without"))
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "with", AAPair: []string{"stdlib", "stdlib-aa"}}}, {Manifest: runjson.Manifest{ID: "without"}}}
	fs := aaFindings(s.Runs, verdict.Cells(s, verdict.DefaultThresholds), nil, verdict.DefaultThresholds)
	if len(fs) != 1 || fs[0].Rule != RuleAAPair || fs[0].Level != LevelError || fs[0].Run != "with" {
		t.Errorf("aa-pair findings %v, want one error for run with", fs)
	}
}

// TestAAPairsEveryPair: a run naming a pair per runtime has each checked;
// the further pair's finding says it is the gate's control, not the floor.
func TestAAPairsEveryPair(t *testing.T) {
	var ms []*parse.Measurement
	ms = append(ms, series("r", "node", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
	ms = append(ms, series("r", "node-aa", "ping", 0, 0, 1001, 1009, 991, 1004, 996, 1003)...)
	ms = append(ms, series("r", "go", "ping", 0, 0, 1080, 1090, 1070, 1085, 1075, 1082)...)
	ms = append(ms, series("r", "go-aa", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
	s := setOf(ms)
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "r", AAPair: []string{"node", "node-aa"},
		AAPairs: [][]string{{"node", "node-aa"}, {"go", "go-aa"}}}}}
	fs := aaFindings(s.Runs, verdict.Cells(s, verdict.DefaultThresholds), nil, verdict.DefaultThresholds)
	if len(fs) != 1 || fs[0].Target != "go = go-aa" || !strings.Contains(fs[0].Message, "the control compare's gate reads") {
		t.Errorf("aa-pair findings %v, want one for the Go pair naming the gate", fs)
	}
}
