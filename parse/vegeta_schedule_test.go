package parse

import (
	"os"
	"reflect"
	"testing"
	"time"
)

// TestFromSchedule: a point whose requests all left on time reports the
// latency vegeta timed; one late request moves the max, not the p99; a
// client falling further behind with every request moves the whole tail;
// and on the recorded fixture of a client with four workers that fell
// behind 500 req/s against a server answering 100 a second, latency
// from the schedule is seconds where vegeta printed its own.
func TestFromSchedule(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	const rate = 1000.0 // a request a millisecond
	attack := func(n int, late func(i int) time.Duration) []VegetaResult {
		out := make([]VegetaResult, n)
		for i := range out {
			out[i] = VegetaResult{Seq: uint64(i), Timestamp: t0.Add(time.Duration(i)*time.Millisecond + late(i)), Latency: 2 * time.Millisecond}
		}
		return out
	}
	p := func(l Latency, q float64) time.Duration {
		for _, x := range l.Percentiles {
			if x.P == q {
				return x.Value
			}
		}
		t.Fatalf("no p%g in %+v", q, l)
		return 0
	}

	onTime := FromSchedule(attack(10000, func(int) time.Duration { return 0 }), rate)
	if !onTime.Corrected || p(onTime, 99) != 2*time.Millisecond || onTime.Max != 2*time.Millisecond {
		t.Errorf("on time: %+v, want 2ms everywhere", onTime)
	}
	oneLate := FromSchedule(attack(10000, func(i int) time.Duration {
		if i == 5000 {
			return 50 * time.Millisecond
		}
		return 0
	}), rate)
	if p(oneLate, 99) != 2*time.Millisecond || oneLate.Max != 52*time.Millisecond {
		t.Errorf("one late: p99 %s max %s, want 2ms and 52ms", p(oneLate, 99), oneLate.Max)
	}
	// sending at 900 of the 1000 due a second: request i leaves i/9 ms late
	drifting := FromSchedule(attack(10000, func(i int) time.Duration { return time.Duration(i) * time.Millisecond / 9 }), rate)
	if got := p(drifting, 99); got < 1000*time.Millisecond {
		t.Errorf("drifting: p99 %s, want over a second", got)
	}
	if l := FromSchedule(attack(10, func(int) time.Duration { return 0 }), 0); l.Max != 0 || l.Percentiles != nil {
		t.Errorf("rate unknown: %+v, want nothing", l)
	}

	res := behindResults(t)
	sched := FromSchedule(res, 500)
	printed := readVegeta(t, "behind_results.csv")
	if p(sched, 99) < 10*printedP99(t, printed) || p(sched, 99) < time.Second {
		t.Errorf("behind fixture: p99 from the schedule %s, printed %s: want seconds, far beyond", p(sched, 99), printedP99(t, printed))
	}
	back := scheduleLatency(ScheduleRecord(sched))
	if back.Max != sched.Max || len(back.Percentiles) != len(fromSchedulePs) || p(back, 99.9) != p(sched, 99.9) {
		t.Errorf("run.json round trip: %+v, want %+v", back, sched)
	}
}

func printedP99(t *testing.T, m *Measurement) time.Duration {
	for _, x := range m.Latency.Percentiles {
		if x.P == 99 {
			return x.Value
		}
	}
	t.Fatalf("no p99 printed")
	return 0
}

// TestHeldBack: an attack at 1000 req/s with four workers against a
// server that answers in 100 µs, where for 30 ms either the server holds
// every answer (four requests wait on it, the ones due meanwhile go out as
// answers return) or the load tool pauses (no request in flight, the ones
// due meanwhile go out together when it resumes). Both leave the same
// requests late; only the first has them held by answers. On the recorded
// fixture (four workers at 500 req/s against a server answering 100 a
// second) nearly every late request was held.
func TestHeldBack(t *testing.T) {
	const (
		rate    = 1000.0
		workers = 4
		stall   = 30 * time.Millisecond
	)
	t0 := time.Unix(1e9, 0).UnixNano()
	ms := int64(time.Millisecond)
	attack := func(serverStall bool) []sending {
		var out []sending
		free := make([]int64, workers) // when each worker is next free
		for seq := range 1000 {
			due := t0 + int64(seq)*ms
			// the stall covers [500 ms, 530 ms)
			from, to := t0+500*ms, t0+500*ms+int64(stall)
			at := due
			if !serverStall && due >= from && due < to {
				at = to // the tool resumes and sends its backlog
			}
			w := 0
			for i := range free {
				if free[i] < free[w] {
					w = i
				}
			}
			at = max(at, free[w])
			lat := 100 * time.Microsecond
			if serverStall && at < to && at+int64(lat) > from {
				lat = time.Duration(to - at) // held until the server wakes
			}
			free[w] = at + int64(lat)
			out = append(out, sending{seq: uint64(seq), at: at, latency: lat})
		}
		return out
	}
	held := func(sent []sending, workers int) LateSending { return heldBack(sent, lateness(sent, rate), workers) }
	server := held(attack(true), workers)
	t.Logf("server %+v", server)
	client := held(attack(false), workers)
	t.Logf("client %+v", client)
	if server.Late < 20 || server.Held != server.Late || server.HeldWait != server.Wait || server.Wait < 300*time.Millisecond {
		t.Errorf("server stall: %+v, want 20 or more late, every one held", server)
	}
	if client.Late < 20 || client.Held != 0 || client.HeldWait != 0 || client.Wait < 300*time.Millisecond {
		t.Errorf("client stall: %+v, want 20 or more late, none held", client)
	}
	if l := held(attack(true), 0); l != (LateSending{}) {
		t.Errorf("workers unknown: %+v, want nothing counted", l)
	}
	if back := lateSending(LateRecord(server)); back != server {
		t.Errorf("run.json round trip: %+v, want %+v", back, server)
	}

	res := behindResults(t)
	if l := HeldBack(res, 500, 4); l.Late < 100 || float64(l.Held) < 0.95*float64(l.Late) || float64(l.HeldWait) < 0.95*float64(l.Wait) {
		t.Errorf("behind fixture: %+v, want nearly every late request held", l)
	}
	// the one pass the collector makes gives what the three give apart
	sched := ScheduleOf(res, 500, 4)
	if sched.Behind != Behind(res, 500) || !reflect.DeepEqual(sched.FromSchedule, FromSchedule(res, 500)) || sched.Late != HeldBack(res, 500, 4) || sched.Behind <= 0 {
		t.Errorf("ScheduleOf on the behind fixture: %+v, want Behind, FromSchedule and HeldBack of it", sched)
	}
}

// behindResults is the recorded fixture of four workers sending 500 req/s
// to a server that answers 100 a second, read as vegeta's CSV results.
func behindResults(t *testing.T) []VegetaResult {
	t.Helper()
	f, err := os.Open(vegetaPrefix + "behind_results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ReadVegetaCSV(f, "behind")
	if err != nil {
		t.Fatal(err)
	}
	return res
}
