package audit

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// The open-model phase's bounds, and why.
const (
	// rateTolerance is how far below the offered rate sending, and below
	// the rate sent the answers, may fall before a point is said to fall
	// behind: 2%, Thresholds.Noise's default, the smallest difference
	// fairbench claims at all. An answer rate also counts the time from the
	// last request sent to the last answer (vegeta's wait), about one
	// latency: 0.1% of a 4 s window at 4 ms, so a kept schedule stays well
	// inside it.
	rateTolerance = 0.02
	// behindFloor is the least lateness of a request (or, where the
	// latency from the schedule is known, the least shift of the p99) that
	// counts as the schedule not kept, whatever the point's latency: a Go
	// timer under load fires up to about a millisecond late, and a
	// collector pause of the load tool is as long; neither is the client
	// failing.
	behindFloor = time.Millisecond
	// behindFallback is the bound of a point that printed no p99: ten times
	// behindFloor, the order of a fast service's tail on loopback.
	behindFallback = 10 * time.Millisecond
)

// behindBound is how late a request may go out before the point's latency
// stops being the server's: the point's p99 (a request held back longer
// than that carries, unrecorded, a delay as large as the tail the point
// reports: Gil Tene's coordinated omission, on the client's side), not
// below behindFloor; behindFallback where no p99 was printed.
func behindBound(m *parse.Measurement) time.Duration {
	if p99, ok := m.Latency.Percentile(99); ok {
		return max(p99, behindFloor)
	}
	return behindFallback
}

// openCell is the latency points of one target on one scenario of one
// run, by offered rate, then repetition.
type openCell struct {
	run, target, scenario string
	points                []*parse.Measurement
}

// openCells groups the set's latency points (warm-ups aside) by run,
// target, runtime and scenario, sorted as Cells sorts cells.
func openCells(set *parse.Set) []*openCell {
	type key struct{ run, target, runtime, scenario string }
	byKey := map[key]*openCell{}
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != parse.PhaseLatency {
			continue
		}
		k := key{m.Run, m.Target, m.Runtime, m.Scenario}
		c := byKey[k]
		if c == nil {
			name := m.Target
			if m.Runtime != "" && otherRuntime(set, m) {
				name = fmt.Sprintf("%s (%s)", m.Target, m.Runtime)
			}
			c = &openCell{run: m.Run, target: name, scenario: m.Scenario}
			byKey[k] = c
		}
		c.points = append(c.points, m)
	}
	out := make([]*openCell, 0, len(byKey))
	for _, c := range byKey {
		sort.SliceStable(c.points, func(i, j int) bool {
			a, b := c.points[i], c.points[j]
			if a.Rate != b.Rate {
				return a.Rate < b.Rate
			}
			return a.Rep < b.Rep
		})
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return verdict.PlaceLess(a.run, a.scenario, a.target, b.run, b.scenario, b.target)
	})
	return out
}

// otherRuntime reports whether the set holds m's target on another
// runtime too, so that its cells are named with the runtime (as Cells does).
func otherRuntime(set *parse.Set, m *parse.Measurement) bool {
	for _, o := range set.Measurements {
		if o.Target == m.Target && o.Runtime != m.Runtime {
			return true
		}
	}
	return false
}

func (c *openCell) dumps() []string { return verdict.DumpsOf(c.points) }

// rateLabel names a point's offered rate: "90% (9,000 req/s)" where the
// suite set it as a share of capacity, "9,000 req/s" otherwise, and says
// so where nothing recorded it (a vegeta report read alone).
func rateLabel(m *parse.Measurement) string {
	switch {
	case m.Rate <= 0:
		return "an offered rate not recorded"
	case m.Open.Fraction > 0:
		return fmt.Sprintf("%s%% (%s req/s)", formatShare(m.Open.Fraction), parse.FormatCount(m.Rate))
	}
	return parse.FormatCount(m.Rate) + " req/s"
}

// formatShare is a fraction in percent without needless digits: "90", "12.5".
func formatShare(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f*100), "0"), ".")
}

// answered is the number of requests of m that got a response of any
// status: vegeta counts every request it sent, failures among them; the
// other tools count responses.
func answered(m *parse.Measurement) int64 {
	if m.Tool == parse.ToolVegeta {
		return max(m.Requests-m.Errors.Total(), 0)
	}
	return max(m.Requests, 0)
}

// answerRate is responses per second from the first request sent to the
// last answer (the window plus vegeta's wait), 0 where unknown.
func answerRate(m *parse.Measurement) float64 {
	d := (verdict.RanFor(m) + m.Open.Wait).Seconds()
	if d <= 0 {
		return 0
	}
	return float64(answered(m)) / d
}

// Who fell behind at a point.
const (
	behindNone   = ""
	behindClient = "the client"
	behindTarget = "the target"
	behindEither = "the target or the client"
)

// whoFellBehind says who kept a point below its offered rate, and how.
// Sending below the rate by more than rateTolerance is the client's
// failure; so is sending late enough to change what the point reports:
// where the results stream was read (run.json's from_schedule), a p99
// timed from when each request was due that is longer than the printed
// one by more than behindFloor (a few late requests move the max, not
// the tail); where it was not, any request later than behindBound.
// Answers below what was sent are the target's; where the tool does not
// say how sending went (wrk2), answers below the offered rate are
// either's. Where the offered rate was not recorded (a vegeta report read
// alone), only the lateness and the answers against what was sent are
// judged.
func whoFellBehind(m *parse.Measurement) (who, how string) {
	offered, o := m.Rate, m.Open
	if offered <= 0 && o.SendRate <= 0 {
		return behindNone, ""
	}
	late, lateHow := sentLate(m)
	short := offered > 0 && o.SendRate > 0 && o.SendRate < offered*(1-rateTolerance)
	if held, heldHow := heldByTarget(o); (short || late) && held {
		if late {
			heldHow += "; " + lateHow
		}
		return behindTarget, heldHow
	}
	switch {
	case short && late:
		return behindClient, fmt.Sprintf("sent %s req/s; %s", parse.FormatCount(o.SendRate), lateHow)
	case short:
		return behindClient, fmt.Sprintf("sent %s req/s", parse.FormatCount(o.SendRate))
	case late:
		return behindClient, lateHow
	}
	sent, known := o.SendRate, o.SendRate > 0 || o.Behind > 0
	if !known {
		sent = offered
	}
	got := answerRate(m)
	if got <= 0 && verdict.RanFor(m) <= 0 {
		return behindNone, ""
	}
	if got >= sent*(1-rateTolerance) {
		return behindNone, ""
	}
	if !known {
		return behindEither, fmt.Sprintf("answered %s req/s; %s does not say how its sending kept to the schedule", parse.FormatCount(got), m.Tool)
	}
	return behindTarget, fmt.Sprintf("answered %s req/s of %s sent", parse.FormatCount(got), parse.FormatCount(sent))
}

// sentLate reports whether m's requests went out late enough that its
// latency is not the server's, and how (whoFellBehind).
func sentLate(m *parse.Measurement) (bool, string) {
	o := m.Open
	if sched, ok := o.FromSchedule.Percentile(99); ok {
		printed, ok := m.Latency.Percentile(99)
		if !ok {
			return false, ""
		}
		// vegeta's printed p99 is a t-digest estimate, the one from the
		// schedule exact: a shift within rateTolerance of it (or within
		// behindFloor) is the estimate's, not lateness.
		if sched-printed > max(behindFloor, time.Duration(rateTolerance*float64(printed))) {
			return true, fmt.Sprintf("requests went out up to %s late: timed from when each was due, the p99 is %s, not the %s printed", formatMS(o.Behind), formatMS(sched), formatMS(printed))
		}
		return false, ""
	}
	if bound := behindBound(m); o.Behind > bound {
		return true, fmt.Sprintf("a request went out %s behind the schedule, beyond the point's %s bound", formatMS(o.Behind), formatMS(bound))
	}
	return false, ""
}

// heldByTarget reports whether most of the wait of a point's late
// requests was of requests due while every worker was waiting for an
// answer (parse.HeldBack): the target stalled and held the load tool's
// workers, so the lateness is the target's, and the latency timed from
// when each request was due is what a user on that schedule met. False
// where the count was not made (runs before it): the point is then
// judged as the client's, as before.
//
// The wait decides, not the count: on a busy host a few requests leave a
// millisecond or two late with workers free (timer jitter), while one
// stall of the target makes fewer requests wait far longer.
func heldByTarget(o parse.OpenModel) (bool, string) {
	l := o.Late
	if l.Workers <= 0 || l.Wait <= 0 || 2*l.HeldWait < l.Wait {
		return false, ""
	}
	return true, fmt.Sprintf("%s of the %s requests that went out late, %s of their %s wait, were due while all %d workers waited for answers: the target held them",
		parse.FormatCount(float64(l.Held)), parse.FormatCount(float64(l.Late)), formatMS(l.HeldWait), formatMS(l.Wait), l.Workers)
}

// ClientFellBehind is why a latency point measures the client rather than
// the server, "" when it does not: the audit's own judgment
// (achieved-below-offered's), for pages to show beside the point.
func ClientFellBehind(m *parse.Measurement) string {
	if m.Phase != parse.PhaseLatency {
		return ""
	}
	if who, how := whoFellBehind(m); who == behindClient {
		return "the load tool fell behind its schedule (" + how + "): the latency it printed leaves out that wait (the p99 from the schedule puts it back), so the printed figures are not the server's latency at this rate"
	}
	return ""
}

// TargetHeldWorkers is why a latency point's requests went out late
// because the target kept every worker waiting, "" when they did not: its
// latency timed from the schedule is then the target's, a user's at that
// rate (whoFellBehind's judgment, for pages to show beside the point).
func TargetHeldWorkers(m *parse.Measurement) string {
	if m.Phase != parse.PhaseLatency {
		return ""
	}
	if who, how := whoFellBehind(m); who == behindTarget {
		if held, _ := heldByTarget(m.Open); held {
			return how + ": the p99 from the schedule, which counts that wait, is the latency a user at this rate met"
		}
	}
	return ""
}

// formatMS is a duration in milliseconds, three significant digits; in
// seconds from one second up.
func formatMS(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.3g s", d.Seconds())
	}
	return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
}

// byRate splits points sorted by rate into runs of one offered rate.
func byRate(ms []*parse.Measurement) [][]*parse.Measurement {
	var out [][]*parse.Measurement
	for i, m := range ms {
		if i == 0 || m.Rate != ms[i-1].Rate {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], m)
	}
	return out
}
