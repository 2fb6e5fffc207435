package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// calibrationSet is a calibration run "cal" (base, its twin, a copy 30%
// costlier per request, a copy `odd` with the rps given) at 8 rounds and a
// run "site" of the same host at 4.
func calibrationSet(odd float64) *parse.Set {
	set := &parse.Set{Runs: []*parse.Run{
		{Manifest: runjson.Manifest{ID: "cal", Facts: runjson.Facts{Hostname: "vm"}, AAPair: []string{"base", "base-aa"},
			Planted: map[string]string{"plus30": "base", "odd": "base"}}},
		{Manifest: runjson.Manifest{ID: "site", Facts: runjson.Facts{Hostname: "vm"}}},
	}}
	jitter := []float64{1, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1}
	order := 0
	for round := 1; round <= 8; round++ {
		for _, c := range []struct {
			name string
			rps  float64
		}{{"base", 50000}, {"base-aa", 50000}, {"plus30", 50000 / 1.3}, {"odd", odd}} {
			order++
			m := meas("cal", c.name, "ping", round, c.rps*jitter[(round+order)%8])
			m.Order, m.ServerCPU = order, 10
			set.Measurements = append(set.Measurements, m)
		}
		if round <= 4 {
			for _, name := range []string{"x", "y"} {
				order++
				m := meas("site", name, "ping", round, 40000*jitter[order%8])
				m.Order = order
				set.Measurements = append(set.Measurements, m)
			}
		}
	}
	return set
}

func resolvingOf(set *parse.Set) []Finding {
	cells := verdict.Cells(set, verdict.DefaultThresholds)
	return resolvingFindings(set, verdict.Decide(set, cells, verdict.MetricRPS, verdict.DecideOptions{}))
}

// TestResolvingFindings: the calibration run's note states the smallest
// cost it resolved, the site run with half its repetitions is warned, and
// a planted copy claimed faster than its base is an error.
func TestResolvingFindings(t *testing.T) {
	fs := resolvingOf(calibrationSet(50000 / 1.005))
	var note, warn bool
	for _, f := range fs {
		switch {
		case f.Level == LevelInfo && f.Run == "cal":
			note = strings.Contains(f.Message, "resolved a planted +30.") &&
				strings.Contains(f.Message, "but not +0.5%") && strings.Contains(f.Message, "claimed apart in 0 of 1")
			if !note {
				t.Errorf("calibration note: %s", f.Message)
			}
		case f.Level == LevelWarning && f.Run == "site":
			warn = strings.Contains(f.Message, "4 repetitions") && strings.Contains(f.Message, "resolved +30.")
			if !warn {
				t.Errorf("site warning: %s", f.Message)
			}
		default:
			t.Errorf("unexpected finding %s", f)
		}
	}
	if !note || !warn {
		t.Errorf("findings %v: want the calibration's note and the site run's warning", fs)
	}
	// A copy that is planted slower but measures 20% faster: an error.
	fs = resolvingOf(calibrationSet(60000))
	if !strings.Contains(findingsText(fs), "error resolving-power cal: a planted slowdown was claimed faster than its base: odd/ping") {
		t.Errorf("a planted copy claimed faster: findings\n%s", findingsText(fs))
	}
}

func findingsText(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}
