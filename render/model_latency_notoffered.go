package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Before its latency points the collector measures how fast the load tool
// can send on the scenario (a point of phase "ceiling": vegeta with the
// phase's workers, as fast as they go, against the fastest target), and
// offers no point above a share of that: such a point would fall behind
// its schedule and measure the client. run.json lists the points it left
// out (not_offered); the scenario and target pages say which and why, so
// a missing point is never a silent hole.

// ceilingNotes say what each ceiling measurement of ceil found.
func (m *model) ceilingNotes(ceil []*parse.Measurement) []string {
	var out []string
	for _, meas := range ceil {
		r := m.runByID(meas.Run)
		if r == nil {
			continue
		}
		if mr, ok := ceilingRecord(r, meas); ok {
			out = append(out, ceilingNote(meas, mr.ClientLoad, mr.ClientBound, mr.Limit))
		}
	}
	return out
}

// ceilingNote says what the ceiling measurement meas found: the rate the
// load tool sent at, whether its own CPUs held it there, and the most a
// point offers.
func ceilingNote(meas *parse.Measurement, clientLoad float64, clientBound bool, limit float64) string {
	if meas.Open.SendRate <= 0 || limit <= 0 {
		return fmt.Sprintf("The client's ceiling here was measured (%s sending as fast as %s could against %s), but its send rate was not recorded: no latency point is bounded by it.", meas.Tool, parse.Plural(meas.Connections, "worker"), meas.Target)
	}
	who := fmt.Sprintf("the load tool used %.0f%% of its CPUs, so the target or other load on the machine held it back, and the client can send at least that", clientLoad*100)
	if clientBound {
		who = fmt.Sprintf("the load tool used %.0f%% of its CPUs, so that is the client's own ceiling", clientLoad*100)
	}
	return fmt.Sprintf("The client's ceiling here: %s, sending as fast as %s could against %s, sent %s req/s; %s. A latency point offers at most %s req/s (%.0f%% of it): nearer the ceiling the load tool falls behind its schedule and the point would measure the client, not the server.",
		meas.Tool, parse.Plural(meas.Connections, "worker"), meas.Target, Count(meas.Open.SendRate), who, Count(limit), limit/meas.Open.SendRate*100)
}

// notOffered are run.json's latency points not offered, of the runs on
// show, on scenario s ("" for all) and of target name ("" for all).
func (m *model) notOffered(s, name string) []notOfferedPoint {
	var out []notOfferedPoint
	for _, r := range m.runs {
		runtimes := map[string]string{}
		for _, t := range r.Targets {
			runtimes[t.Name] = t.Runtime
		}
		for _, no := range r.NotOffered {
			n := m.in.cellName(no.Target, runtimes[no.Target])
			if (s == "" || no.Scenario == s) && (name == "" || n == name) {
				out = append(out, notOfferedPoint{run: r, name: n, NotOffered: no})
			}
		}
	}
	return out
}

// notOfferedPoint is one point not offered, with the run and the target's
// name on the pages.
type notOfferedPoint struct {
	runjson.NotOffered
	run  *parse.Run
	name string
}

// label is the point as the tables name an offered rate: "100% (12,345
// req/s)", or "12,345 req/s" for a fixed rate.
func (p notOfferedPoint) label() string {
	if p.RateFraction > 0 {
		return fmt.Sprintf("%.0f%% (%s req/s)", p.RateFraction*100, Count(p.Rate))
	}
	return Count(p.Rate) + " req/s"
}

// notOfferedNotes says, per scenario and run, which points were not
// offered and why; withTarget names each point's target (a scenario page),
// withScenario its scenario (a target page).
func (m *model) notOfferedNotes(ps []notOfferedPoint, withTarget, withScenario bool) []string {
	type key struct{ run, scenario string }
	var order []key
	groups := map[key][]notOfferedPoint{}
	for _, p := range ps {
		k := key{p.run.ID, p.Scenario}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	var out []string
	for _, k := range order {
		g := groups[k]
		var what []string
		for _, p := range g {
			w := p.label()
			if withTarget {
				w = p.name + " at " + w
			}
			what = append(what, w)
		}
		where := ""
		if withScenario {
			where = " on " + k.scenario
		}
		first := g[0]
		why := fmt.Sprintf("the client could not send that many: the most it was measured to send%s in this run is %s req/s", where, Count(first.Ceiling))
		if first.Calibration != "" {
			bound := "its own CPUs near their limit"
			if !first.ClientBound {
				bound = "its CPUs below their limit, so the target or other load on the machine held it back: it can send at least that, but was not seen to send more"
			}
			why = fmt.Sprintf("the client could not send that many: sending as fast as it could%s it sent %s req/s (%s), and a point offers at most %s req/s", where, Count(first.Ceiling), bound, Count(first.Limit))
		}
		out = append(out, fmt.Sprintf("Not offered: %s; %s. These points are missing from the charts and the table on purpose.", strings.Join(what, ", "), why))
	}
	return out
}

// ceilingRecord is run.json's record of the ceiling measurement meas, to
// read what parse does not carry into the model (the load tool's share of
// its CPUs, and whether that was its limit).
func ceilingRecord(r *parse.Run, meas *parse.Measurement) (runjson.Measurement, bool) {
	for _, mr := range r.Measurements {
		if mr.Phase == parse.PhaseCeiling && !mr.Warmup && mr.Error == "" && mr.Scenario == meas.Scenario && mr.Target == meas.Target {
			return mr, true
		}
	}
	return runjson.Measurement{}, false
}
