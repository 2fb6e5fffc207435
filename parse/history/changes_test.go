package history

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestChangesAcceptance: a 60-run history with an 8% step on hono at run
// 40, a key change at run 20 and host drift with a slow spell: the step is
// found at run 40 (±1) in hono's scenarios, the key change breaks the
// line with its reason, at most one other series alarms, twins never.
func TestChangesAcceptance(t *testing.T) {
	w := defaultWorld()
	hist := w.history(rand.New(rand.NewPCG(38, 1)), map[string]float64{"hono": 0.92}, 40)
	st := Find("bench", hist)
	if len(st.Breaks) != 1 || st.Breaks[0].Run != "run20" || strings.Join(st.Breaks[0].Why, ";") != "kernel: 6.1 → 6.8" {
		t.Errorf("breaks %+v, want one at run20 for the kernel", st.Breaks)
	}
	found, others := 0, 0
	for _, c := range st.Changes {
		t.Logf("%+v", c)
		switch {
		case c.Target == "hono" && c.Run >= "run39" && c.Run <= "run41" && c.Ratio > 0.88 && c.Ratio < 0.96:
			found++
			if c.Run == "run40" && strings.Join(c.Why, ";") != "hono: 1.0.0 → 1.1.0" {
				t.Errorf("step at run40 says %q changed, want hono's version", c.Why)
			}
		default:
			others++
		}
	}
	if found != len(w.scenarios) {
		t.Errorf("hono's step found in %d of %d scenarios", found, len(w.scenarios))
	}
	if others > 1 {
		t.Errorf("%d other changes flagged, want ≤ 1", others)
	}
	if st.TwinAlarms != 0 {
		t.Errorf("twins flagged %d times", st.TwinAlarms)
	}
}

// TestChangesRates prints the detection and false-alarm rates of Find on
// seeded histories with a 5% and a 10% step on one target.
func TestChangesRates(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	w := defaultWorld()
	for _, f := range []float64{0.95, 0.90} {
		found, alarms, twins, series := 0, 0, 0, 0
		for s := range seeds {
			st := Find("bench", w.history(rand.New(rand.NewPCG(uint64(s), 2)), map[string]float64{"axum": f}, 40))
			for _, c := range st.Changes {
				if c.Target == "axum" && c.Run >= "run39" && c.Run <= "run41" {
					found++
				} else {
					alarms++
				}
			}
			twins += st.TwinAlarms
			series += st.Series
		}
		rate := float64(found) / float64(seeds*len(w.scenarios))
		t.Logf("step %.0f%%: found %.3f of %d steps at ±1 run; %d false alarms and %d twin alarms over %d series",
			(1-f)*100, rate, seeds*len(w.scenarios), alarms, twins, series)
		if f == 0.90 && rate < 0.8 {
			t.Errorf("10%% steps found %.3f < 0.8", rate)
		}
		if float64(alarms+twins) > float64(series)/20 {
			t.Errorf("false alarms %d over %d series > 1 in 20", alarms+twins, series)
		}
	}
}
