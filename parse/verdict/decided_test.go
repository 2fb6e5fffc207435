package verdict

import (
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestDecidedOnce: the Decided model holds the same judgments the
// decision functions give when asked one at a time, so a page reading it
// says what a page deciding again would have said: each family's power,
// each pair both ways round, each cell's unranked reason; cells of one
// scenario in different runs read "~" for another run.
func TestDecidedOnce(t *testing.T) {
	build := func(run string) []*parse.Measurement {
		var ms []*parse.Measurement
		ms = append(ms, series(run, "x", "ping", 0, 0, 1200, 1210, 1190, 1205, 1195, 1202)...)
		ms = append(ms, series(run, "y", "ping", 0, 0, 1000, 1001, 999, 1000.5, 999.5, 1000.2)...)
		ms = append(ms, series(run, "z", "ping", 0, 0, 900, 910)...)
		return ms
	}
	s := setOf(build("one"), build("two"))
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "one"}}, {Manifest: runjson.Manifest{ID: "two"}}}
	th := DefaultThresholds
	cells := Cells(s, th)
	d := DecideOnce(s, cells, cells, MetricRPS, DecideOptions{Thresholds: th})
	again := Decide(s, cells, MetricRPS, DecideOptions{Thresholds: th})
	if len(d.Scenarios) != 2 {
		t.Fatalf("%d families, want 2", len(d.Scenarios))
	}
	for i, sv := range d.Scenarios {
		got, gok := d.Power(sv)
		want, wok := again.Scenarios[i].Power(th)
		if gok != wok || got != want || !gok {
			t.Errorf("%s power: %+v %v, asked again %+v %v", sv.Run, got, gok, want, wok)
		}
		for _, a := range sv.Cells {
			for _, b := range sv.Cells {
				if a == b {
					continue
				}
				got, gok := d.Versus(a, b)
				want, wok := d.Verdicts.Versus(a, b)
				if gok != wok || got.Verdict.Verdict != want.Verdict.Verdict || got.Ratio != want.Ratio || got.Reason != want.Reason {
					t.Errorf("%s %s vs %s: %+v, asked again %+v", sv.Run, b.Name, a.Name, got, want)
				}
			}
		}
	}
	for _, c := range cells {
		_, why := Testable(c, MetricRPS, th)
		if got := d.Unranked(c); got != why {
			t.Errorf("%s/%s unranked %q, Testable says %q", c.Run, c.Name, got, why)
		}
		if c.Name == "z" && d.Unranked(c) != ReasonTooFewReps {
			t.Errorf("z with two repetitions: %q, want %q", d.Unranked(c), ReasonTooFewReps)
		}
	}
	x1, x2 := d.Scenarios[0].Cells[0], d.Scenarios[1].Cells[0]
	if c, ok := d.Versus(x1, x2); !ok || c.Verdict.Reason != ReasonOtherRun {
		t.Errorf("across runs: %+v %v, want %q", c, ok, ReasonOtherRun)
	}
	if med, largest, n := d.RunResolves("one"); n != 1 || med <= 0 || largest != med {
		t.Errorf("run one resolves median %v largest %v over %d families, want one family", med, largest, n)
	}
}
