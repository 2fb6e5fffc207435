package parse

import (
	"math"
	"slices"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
)

// An open-model attack sends request seq at the attack's start + seq ÷
// rate. vegeta times each request from when a worker sends it, so a
// request sent late leaves its wait out of the latency it records: on a
// client that fell behind, the tail it prints is shorter than the one a
// user on that schedule would have met (Gil Tene's coordinated omission,
// on the client's side). The results stream has what it takes to put the
// wait back: each request's seq, when it went out and its latency.

// sending is one request of an attack: its place in the schedule, when it
// went out (Unix ns) and its latency as vegeta timed it.
type sending struct {
	seq     uint64
	at      int64
	latency time.Duration
}

// sendings are results as the schedule needs them.
func sendings(results []VegetaResult) []sending {
	sent := make([]sending, len(results))
	for i, r := range results {
		sent[i] = sending{r.Seq, r.Timestamp.UnixNano(), r.Latency}
	}
	return sent
}

// Behind is how late the latest request went out against the attack's
// schedule at rate req/s: each request seq is due at the first request's
// time + seq/rate, and Behind is the most any was sent after it was due,
// 0 when none was late or rate is not positive. vegeta numbers requests
// in the order its workers take them, so a request's seq is its tick.
func Behind(results []VegetaResult, rate float64) time.Duration {
	return behind(lateness(sendings(results), rate))
}

// Schedule is what an attack's results say against its schedule: Behind,
// FromSchedule and HeldBack of the same results, computed in one pass
// over them (an attack's results run to a hundred thousand).
type Schedule struct {
	Behind       time.Duration
	FromSchedule Latency
	Late         LateSending
}

// ScheduleOf is Behind, FromSchedule and HeldBack of results at rate
// req/s with at most workers workers.
func ScheduleOf(results []VegetaResult, rate float64, workers int) Schedule {
	sent := sendings(results)
	late := lateness(sent, rate)
	return Schedule{Behind: behind(late), FromSchedule: fromSchedule(sent, late), Late: heldBack(sent, late, workers)}
}

// FromSchedule is the latency of results timed from when each request was
// due rather than when it went out: its latency plus how late it was sent
// (never less than its latency), with the percentiles of fromSchedulePs
// (nearest rank) and the max, Corrected set. The zero Latency where there
// are no results or rate is not positive. Set beside the latency vegeta
// printed, it says whether lateness changed the tail a point reports.
func FromSchedule(results []VegetaResult, rate float64) Latency {
	sent := sendings(results)
	return fromSchedule(sent, lateness(sent, rate))
}

// fromSchedulePs are the percentiles FromSchedule gives: vegeta's own
// (50, 90, 95, 99) and 99.9, the tail a schedule's lateness moves first.
var fromSchedulePs = [...]float64{50, 90, 95, 99, 99.9}

// lateness is how long after it was due each request went out, by index
// of sent, at rate req/s; nil where the schedule is unknown.
func lateness(sent []sending, rate float64) []time.Duration {
	if len(sent) == 0 || !(rate > 0) || math.IsInf(rate, 0) {
		return nil
	}
	first := sent[0].at
	for _, s := range sent[1:] {
		first = min(first, s.at)
	}
	late := make([]time.Duration, len(sent))
	for i, s := range sent {
		due := time.Duration(math.Round(float64(s.seq) * float64(time.Second) / rate))
		late[i] = max(time.Duration(s.at-first)-due, 0)
	}
	return late
}

// behind is Behind from each request's lateness.
func behind(late []time.Duration) time.Duration {
	var most time.Duration
	for _, l := range late {
		most = max(most, l)
	}
	return most
}

// fromSchedule is FromSchedule on what it needs of each result and each
// one's lateness (nil: the schedule is unknown).
func fromSchedule(sent []sending, late []time.Duration) Latency {
	if late == nil {
		return Latency{}
	}
	total := make([]time.Duration, len(sent))
	var sum time.Duration
	for i, s := range sent {
		total[i] = s.latency + late[i]
		sum += total[i]
	}
	slices.Sort(total)
	l := Latency{Min: total[0], Max: total[len(total)-1], Mean: sum / time.Duration(len(total)), Corrected: true}
	for _, p := range fromSchedulePs {
		rank := int(math.Ceil(p / 100 * float64(len(total))))
		l.Percentiles = append(l.Percentiles, Percentile{P: p, Value: total[max(rank, 1)-1]})
	}
	return l
}

// ScheduleRecord is l as run.json keeps it; nil for the zero Latency.
func ScheduleRecord(l Latency) *runjson.ScheduleLatency {
	if l.Max <= 0 {
		return nil
	}
	r := &runjson.ScheduleLatency{MaxS: l.Max.Seconds()}
	for _, p := range l.Percentiles {
		switch p.P {
		case 50:
			r.P50S = p.Value.Seconds()
		case 90:
			r.P90S = p.Value.Seconds()
		case 95:
			r.P95S = p.Value.Seconds()
		case 99:
			r.P99S = p.Value.Seconds()
		case 99.9:
			r.P999S = p.Value.Seconds()
		}
	}
	return r
}

// scheduleLatency is a run.json record read back, Corrected set; the zero
// Latency for nil or a record with no max.
func scheduleLatency(r *runjson.ScheduleLatency) Latency {
	if r == nil || !(r.MaxS > 0) {
		return Latency{}
	}
	l := Latency{Max: seconds(r.MaxS), Corrected: true}
	for _, p := range []struct {
		p float64
		s float64
	}{{50, r.P50S}, {90, r.P90S}, {95, r.P95S}, {99, r.P99S}, {99.9, r.P999S}} {
		if p.s > 0 {
			l.Percentiles = append(l.Percentiles, Percentile{P: p.p, Value: seconds(p.s)})
		}
	}
	return l
}

// LateThreshold is how late a request must go out to count as late in
// LateSending: below a millisecond is the timers' jitter, not a stall.
const LateThreshold = time.Millisecond

// LateSending says whose stall made requests go out late. vegeta's workers
// each keep one request in flight and never pass -max-workers, so a request
// can go out late for two reasons: every worker was waiting for an answer
// when it was due (the target held them: timed from when it was due, its
// latency is what a user on that schedule met), or some worker was free and
// the load tool did not send it (a pause of the tool itself: a GC, a timer,
// its CPU taken). Counting the requests in flight at each late request's due
// time tells the two apart.
type LateSending struct {
	// Late is the number of requests that went out more than LateThreshold
	// after they were due; Held how many of those were due while every
	// one of the workers had a request in flight.
	Late, Held int
	// Wait is how long the late requests waited past their due times in
	// all, HeldWait the part of it the held ones waited: on a busy host a
	// few requests leave a millisecond or two late with workers free (the
	// timers' jitter), and the wait, not the count, says whose stall moved
	// the tail.
	Wait, HeldWait time.Duration
	// Workers is the bound the count was made against.
	Workers int
}

// HeldBack counts the late requests of an attack at rate req/s with at
// most workers workers, and those of them held back by answers, and sums
// their waits; the zero LateSending where the schedule or the bound is
// unknown.
func HeldBack(results []VegetaResult, rate float64, workers int) LateSending {
	sent := sendings(results)
	return heldBack(sent, lateness(sent, rate), workers)
}

// heldBack is HeldBack on what it needs of each result and each one's
// lateness (nil: the schedule is unknown).
func heldBack(sent []sending, late []time.Duration, workers int) LateSending {
	if late == nil || workers <= 0 {
		return LateSending{}
	}
	starts, ends := make([]int64, len(sent)), make([]int64, len(sent))
	for i, s := range sent {
		starts[i], ends[i] = s.at, s.at+int64(s.latency)
	}
	slices.Sort(starts)
	slices.Sort(ends)
	// upTo is how many of sorted xs are at or before t
	upTo := func(xs []int64, t int64) int {
		n, _ := slices.BinarySearch(xs, t+1)
		return n
	}
	out := LateSending{Workers: workers}
	for i, s := range sent {
		if late[i] <= LateThreshold {
			continue
		}
		out.Late++
		out.Wait += late[i]
		due := s.at - int64(late[i])
		if upTo(starts, due)-upTo(ends, due) >= workers {
			out.Held++
			out.HeldWait += late[i]
		}
	}
	return out
}

// LateRecord is l as run.json keeps it; nil where nothing was counted.
func LateRecord(l LateSending) *runjson.LateSending {
	if l.Workers <= 0 {
		return nil
	}
	return &runjson.LateSending{Requests: l.Late, Held: l.Held, Workers: l.Workers, WaitS: l.Wait.Seconds(), HeldWaitS: l.HeldWait.Seconds()}
}

// lateSending is a run.json record read back; the zero LateSending for nil.
func lateSending(r *runjson.LateSending) LateSending {
	if r == nil {
		return LateSending{}
	}
	return LateSending{Late: r.Requests, Held: r.Held, Workers: r.Workers, Wait: seconds(r.WaitS), HeldWait: seconds(r.HeldWaitS)}
}
