package suite

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A suite is collected to a precision, not to a count: [load] resolve is
// the smallest relative difference the run sets out to tell apart, budget
// the most wall time its closed-loop rounds may take, and repetitions the
// fewest rounds. Collect adds rounds to a scenario while its targets'
// family cannot yet claim a difference of resolve with 80% power at the
// noise its rounds show, until the budget is spent (`fairbench help
// suite` says why stopping on the noise keeps the false-claim rate).

// DefaultResolve is [load] resolve where a suite leaves it out: 10%.
const DefaultResolve = 0.10

// DefaultBudgetFactor sets [load] budget where a suite leaves it out: that
// many times what the suite's fewest rounds take, so a quiet day pays for
// the rounds it needs and a bad one at most this many times over.
const DefaultBudgetFactor = 3

// Resolve is [load] resolve: a relative difference written as a
// percentage ("10%"), or "off" for a run of exactly repetitions rounds.
// The zero Resolve is unset (DefaultResolve); off is below zero.
type Resolve float64

// UnmarshalTOML reads "10%", "2.5%" or "off".
func (r *Resolve) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%v is not a percentage: write it as a string like \"10%%\", or \"off\"", v)
	}
	if s == "off" {
		*r = -1
		return nil
	}
	num, ok := strings.CutSuffix(s, "%")
	f, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil {
		return fmt.Errorf("%q is not a percentage like \"10%%\", nor \"off\"", s)
	}
	*r = Resolve(f / 100)
	return nil
}

// Off reports whether the suite asks for a fixed count of rounds.
func (r Resolve) Off() bool { return r < 0 }

// Precision is what a suite asks of its closed-loop rounds.
type Precision struct {
	// Resolve is the relative difference to tell apart (0.1 = 10%); 0:
	// none, the run takes MinRounds rounds and no more.
	Resolve float64
	// Budget bounds the closed-loop rounds' wall time; 0: the default,
	// DefaultBudgetFactor times what MinRounds rounds take.
	Budget time.Duration
	// MinRounds is the fewest rounds of every scenario (repetitions)
	// within Budget: a budget set ends the rounds before them on a day
	// too slow for them (never before 3 rounds).
	MinRounds int
}

// Precision is the suite's [load] resolve, budget and repetitions. A
// suite of fewer than 3 repetitions is a smoke run, collected to its
// count: no pair can be tested below 3 rounds, so it asks for no verdict.
func (s *Suite) Precision() Precision {
	l := DefaultLoad.merge(s.Load, s.setter("load"))
	p := Precision{Resolve: DefaultResolve, Budget: s.Load.Budget.Std(), MinRounds: l.Repetitions}
	switch {
	case s.Load.Resolve.Off() || l.Repetitions < 3:
		p.Resolve = 0
	case s.Load.Resolve > 0:
		p.Resolve = float64(s.Load.Resolve)
	}
	return p
}

// checkPrecision checks resolve and budget where the table at path sets
// them: in the suite's [load] only, resolve in [0.5%, 100%], budget from
// a second to the window limit times the repetitions limit.
func (s *Suite) checkPrecision(e *suiteErrors, path string, raw Load) {
	set := s.setter(path)
	bad := func(key, format string, args ...any) {
		e.errs = append(e.errs, s.errorAt(join(path, key), keyName(path, key), fmt.Sprintf(format, args...)))
	}
	if path != "load" {
		for _, key := range []string{"resolve", "budget"} {
			if set(key) {
				bad(key, "is the run's, not a scenario's: set it in the suite's [load]")
			}
		}
		return
	}
	if r := raw.Resolve; set("resolve") && !r.Off() && (r < 0.005 || r > 1) {
		bad("resolve", "%s: give a difference from 0.5%% to 100%%, or \"off\"", strconv.FormatFloat(float64(r)*100, 'g', 6, 64)+"%")
	}
	if b := raw.Budget.Std(); set("budget") {
		switch most := DefaultLimits.Window * time.Duration(DefaultLimits.Repetitions); {
		case b < time.Second:
			bad("budget", "%v: give the wall time the rounds may take, at least 1s, or leave it out for %d times what the fewest rounds take", b, DefaultBudgetFactor)
		case b > most:
			bad("budget", "%v is over the limit of %v", b, most)
		}
	}
}
