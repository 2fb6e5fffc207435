package audit

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleClientCeiling: before a scenario's latency points the collector has
// the open-model tool send as fast as its workers go (phase "ceiling"),
// and offers no point above a share of that rate. The rule says what the
// calibration found: the load tool's own CPU near its limit (the rate is
// the client's ceiling) or not (the target held it back: at least that),
// and which points were therefore not offered.
const RuleClientCeiling = "client-ceiling"

// ceilingFindings reports every ceiling measurement of the set: a warning
// where the client's own CPU set the ceiling and points were left out for
// it (they measure the client's limit, not the targets'), else a note.
func ceilingFindings(set *parse.Set, th verdict.Thresholds) []Finding {
	ix := verdict.NewRunIndex(set.Runs)
	var fs []Finding
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != parse.PhaseCeiling {
			continue
		}
		r := ix.Runs[m.Run]
		var left []string
		if r != nil {
			for _, no := range r.NotOffered {
				if no.Scenario == m.Scenario {
					w := no.Target + " at " + parse.FormatCount(no.Rate) + " req/s"
					if no.RateFraction > 0 {
						w = fmt.Sprintf("%s at %s%% (%s req/s)", no.Target, formatShare(no.RateFraction), parse.FormatCount(no.Rate))
					}
					left = append(left, w)
				}
			}
		}
		limit := 0.0
		if mr := ix.Records[verdict.KeyOfMeasurement(m)]; mr != nil {
			limit = mr.Limit
		}
		what := fmt.Sprintf("the client's ceiling on %s: %s with %s, as fast as they went against %s, sent %s req/s",
			m.Scenario, m.Tool, parse.Plural(m.Connections, "worker"), m.Target, parse.FormatCount(m.Open.SendRate))
		cu, _ := ix.Share(m)
		level, why := LevelInfo, ""
		switch {
		case math.IsNaN(cu):
			why = "its CPU time was not recorded, so whether the client or the target set that rate is not known"
		case cu >= th.ClientSaturation:
			why = fmt.Sprintf("the load tool kept %.0f%% of its CPUs busy, at least the %.0f%% that makes it the client's own limit", cu*100, th.ClientSaturation*100)
			if len(left) > 0 {
				level = LevelWarning
			}
		default:
			why = fmt.Sprintf("the load tool used %.0f%% of its CPUs, below the %.0f%% that would make it the client's limit: %s (or other load on the machine) held it back, and the client can send at least that", cu*100, th.ClientSaturation*100, m.Target)
		}
		msg := what + "; " + why
		if limit > 0 {
			msg += fmt.Sprintf("; no latency point is offered above %s req/s", parse.FormatCount(limit))
		}
		if len(left) > 0 {
			msg += fmt.Sprintf(", so %s were not offered: the client could not send that many on schedule; to measure them give the load tool more CPUs (or, where the target held it back, more workers: max_workers)", strings.Join(left, ", "))
		}
		fs = append(fs, Finding{Rule: RuleClientCeiling, Level: level, Run: m.Run, Scenario: m.Scenario, Message: msg, Dumps: []string{m.Source.File}})
	}
	return fs
}
