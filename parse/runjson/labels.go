package runjson

import (
	"fmt"
	"slices"
	"time"
)

// A measurement's labels say which cell its dump counts in and which
// round it is paired in: its rep, its rate_fraction, and its order beside
// the others'. Collect writes them one way only, so Decode refuses a
// run.json whose labels no collect writes (checkLabels), naming the
// measurement: it was edited, and read as it stands it would count a dump
// where it does not belong.
//
//   - rep counts from 1 (round 1 is every target's first turn);
//   - rate_fraction is a share of capacity in [0, 1] (0: a fixed rate), as
//     the suite's fractions are;
//   - reps go up with order: a target's rep r of a scenario is measured
//     after its rep r-1, as rounds run one after another. A turn taken
//     again (HostSpeed.Retake) or taken by a -resume (started after the
//     first resume) comes later than its round, a failed measurement
//     counts nowhere, and one listed twice is counted once by package
//     parse (with a warning): those are not checked.

// checkLabels checks m's labels (see above); the *Error names the first
// measurement that breaks them.
func (m *Manifest) checkLabels() error {
	for i, mr := range m.Measurements {
		at := fmt.Sprintf("measurements[%d] (%s/%s rep %d)", i, mr.Target, mr.Scenario, mr.Rep)
		if mr.Rep < 1 {
			return &Error{Msg: fmt.Sprintf("%s: rep %d: reps count from 1; correct it", at, mr.Rep)}
		}
		if badFraction(mr.RateFraction) {
			return &Error{Msg: fmt.Sprintf("%s: rate_fraction %g is not a share of capacity in [0, 1]; correct it", at, mr.RateFraction)}
		}
	}
	for i, n := range m.NotOffered {
		if badFraction(n.RateFraction) {
			return &Error{Msg: fmt.Sprintf("not_offered[%d] (%s/%s): rate_fraction %g is not a share of capacity in [0, 1]; correct it", i, n.Target, n.Scenario, n.RateFraction)}
		}
	}
	return m.checkRepOrder()
}

func badFraction(f float64) bool { return !(f >= 0 && f <= 1) }

// cellKey is what a measurement is a repetition of.
type cellKey struct {
	target, scenario, phase, shard string
	warmup                         bool
	connections                    int
	rate                           float64
}

// checkRepOrder refuses a measurement whose rep is below that of one of
// its cell measured before it (by order), unless it was taken out of its
// round on purpose.
func (m *Manifest) checkRepOrder() error {
	var resumed time.Time
	if len(m.Resumed) > 0 {
		resumed = slices.MinFunc(m.Resumed, time.Time.Compare)
	}
	byOrder := make([]int, 0, len(m.Measurements))
	for i, mr := range m.Measurements {
		if mr.Error == "" {
			byOrder = append(byOrder, i)
		}
	}
	slices.SortStableFunc(byOrder, func(a, b int) int { return m.Measurements[a].Order - m.Measurements[b].Order })
	highest := map[cellKey]int{} // the measurement of the cell's highest rep so far
	// A measurement listed twice (its dump, or its cell and rep) is
	// counted once, with a warning, by package parse: not checked here.
	type cellRep struct {
		cellKey
		rep int
	}
	listed, dumps := map[cellRep]bool{}, map[string]bool{}
	for _, i := range byOrder {
		mr := &m.Measurements[i]
		k := cellKey{mr.Target, mr.Scenario, mr.Phase, mr.Shard, mr.Warmup, mr.Connections, mr.Rate}
		if listed[cellRep{k, mr.Rep}] || mr.Dump != "" && dumps[mr.Dump] {
			continue
		}
		listed[cellRep{k, mr.Rep}], dumps[mr.Dump] = true, true
		j, seen := highest[k]
		if !seen || mr.Rep >= m.Measurements[j].Rep {
			highest[k] = i
			continue
		}
		retake := mr.HostSpeed != nil && mr.HostSpeed.Retake
		if retake || !resumed.IsZero() && !mr.Start.Before(resumed) {
			continue
		}
		hi := m.Measurements[j]
		return &Error{Msg: fmt.Sprintf("measurements[%d] (%s/%s rep %d, order %d) comes after measurements[%d] (rep %d, order %d): reps go up with order, as rounds follow each other; correct the rep or the order",
			i, mr.Target, mr.Scenario, mr.Rep, mr.Order, j, hi.Rep, hi.Order)}
	}
	return nil
}
