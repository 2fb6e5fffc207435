package collect

import (
	"testing"
	"time"
)

// TestQuietClock: a wait for quiet counts the pilots taken while waiting
// as well as the sleeps between them, and ends before another sleep and
// pilot would pass its bound; with a clock that stands still it still
// counts the sleeps, so a wait always ends.
func TestQuietClock(t *testing.T) {
	at := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	now := func() time.Time { return at }
	q := quietClock{now: now}
	const pilot, every, bound = 40 * time.Second, 30 * time.Second, 10 * time.Minute
	pilots := 0
	for {
		began := at
		at = at.Add(pilot)
		pilots++
		waited := q.ended(began)
		if q.over(waited, every, bound) {
			if waited > bound {
				t.Errorf("waited %v, past the %v bound", waited, bound)
			}
			break
		}
		at = at.Add(every)
		q.slept(every)
	}
	// From the first pilot's end: (30 + 40) s a further pilot, 8 of them
	// in 560 s, a ninth would end at 630 s.
	if pilots != 9 {
		t.Errorf("%d pilots in a 10-minute wait of 40 s pilots and 30 s sleeps, want 9", pilots)
	}

	still := quietClock{now: func() time.Time { return at }, prior: time.Minute}
	n := 0
	for waited := still.ended(at); !still.over(waited, every, bound); waited = still.ended(at) {
		still.slept(every)
		if n++; n > 100 {
			t.Fatal("a clock that stands still never ends the wait")
		}
	}
	if n != 18 {
		t.Errorf("%d sleeps on a still clock after a minute's prior wait, want 18 (the other 9 minutes in 30 s sleeps)", n)
	}
}
