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
	return resolvingFindings(set, verdict.DecideOnce(set, cells, cells, verdict.MetricRPS, verdict.DecideOptions{}))
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
			note = strings.Contains(f.Message, "a planted +30.") &&
				strings.Contains(f.Message, "and +0.5% was not") && strings.Contains(f.Message, "claimed apart in 0 of 1")
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

// plantedCopy is a planted copy of "base" in plantedRun: its req/s and
// how many repetitions of it were measured.
type plantedCopy struct {
	name string
	rps  float64
	reps int
}

// plantedRun is calibration run "cal" alone: "base" and its twin at
// 50,000 req/s for 8 rounds, each copy as given, every repetition busy
// 10 s of server CPU; planted names the copies' base.
func plantedRun(planted map[string]string, copies ...plantedCopy) *parse.Set {
	set := &parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "cal",
		AAPair: []string{"base", "base-aa"}, Planted: planted}}}}
	jitter := []float64{1, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1}
	all := append([]plantedCopy{{"base", 50000, 8}, {"base-aa", 50000, 8}}, copies...)
	order := 0
	for round := 1; round <= 8; round++ {
		for _, c := range all {
			if round > c.reps {
				continue
			}
			order++
			m := meas("cal", c.name, "ping", round, c.rps*jitter[(round+order)%8])
			m.Order, m.ServerCPU = order, 10
			set.Measurements = append(set.Measurements, m)
		}
	}
	return set
}

// TestResolvingWrongWayOnly: the one planted copy measures 20% faster than
// its base and is claimed so: an error, and the note says what was
// measured (the copy took less CPU per request), not that no server CPU
// was recorded.
func TestResolvingWrongWayOnly(t *testing.T) {
	fs := resolvingOf(plantedRun(map[string]string{"odd": "base"}, plantedCopy{"odd", 60000, 8}))
	text := findingsText(fs)
	if !strings.Contains(text, "error resolving-power cal: a planted slowdown was claimed faster than its base: odd/ping") {
		t.Errorf("no error for the copy claimed faster:\n%s", text)
	}
	if strings.Contains(text, "no server CPU") ||
		!strings.Contains(text, "info resolving-power cal: at 8 repetitions of 10s: no planted copy measured more server CPU per request than its base (at most -17.0%)") {
		t.Errorf("the note does not say what was measured:\n%s", text)
	}
}

// TestResolvingNotMonotone: +6% is resolved, +25% is not (two repetitions,
// too few to test): the note says both, and that the verdicts are not
// monotone in the cost, as a warning; it claims no threshold.
func TestResolvingNotMonotone(t *testing.T) {
	fs := resolvingOf(plantedRun(map[string]string{"plus6": "base", "plus25": "base"},
		plantedCopy{"plus6", 50000 / 1.06, 8}, plantedCopy{"plus25", 50000 / 1.25, 2}))
	text := findingsText(fs)
	if !strings.Contains(text, "warning resolving-power cal: at 8 repetitions of 10s: resolved +6.1% but missed +25.1% CPU per request: this run's verdicts are not monotone in the cost") {
		t.Errorf("the note does not say +6%% resolved and +25%% missed as a warning:\n%s", text)
	}
	if strings.Contains(text, "differences below") || strings.Contains(text, "smaller differences") {
		t.Errorf("the note claims a threshold the run does not show:\n%s", text)
	}
}

// TestResolvingUnmeasured: a planted copy with no measurement is named in a
// warning, beside the note of what the measured one resolved; a run whose
// only planted copy was never measured is still reported.
func TestResolvingUnmeasured(t *testing.T) {
	fs := resolvingOf(plantedRun(map[string]string{"plus30": "base", "plus5": "base"}, plantedCopy{"plus30", 50000 / 1.3, 8}))
	text := findingsText(fs)
	if !strings.Contains(text, "warning resolving-power cal: planted copies not measured against their base: plus5 (on base)") ||
		!strings.Contains(text, "every planted cost was resolved, the smallest +29.") {
		t.Errorf("the unmeasured copy is not named:\n%s", text)
	}
	fs = resolvingOf(plantedRun(map[string]string{"plus5": "base"}))
	if text := findingsText(fs); !strings.Contains(text, "warning resolving-power cal: planted copies not measured against their base: plus5 (on base)") {
		t.Errorf("a calibration run with nothing planted measured is not reported:\n%s", text)
	}
}
