package parse

import (
	"os"
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

	f, err := os.Open(vegetaPrefix + "behind_results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ReadVegetaCSV(f, "behind")
	if err != nil {
		t.Fatal(err)
	}
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
