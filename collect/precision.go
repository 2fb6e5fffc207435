package collect

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// A collect to a precision (suite.Precision): after each round from the
// suite's repetitions on, each scenario whose planned rounds are done is
// checked: the family of its targets' smallest difference claimable with
// 80% power at the noise of its rounds so far (verdict.PrecisionProbed:
// with the host speed probe's share taken out, as the verdicts test) is
// compared with resolve, and while it is above and the budget holds one
// more round, the scenario gets another. The rule reads the rounds'
// noise, never their differences, so it leaves each verdict's false-claim
// rate where a fixed count would. run.json's precision keeps what was
// planned, spent and resolved, so a resumed run goes on where it stopped.

// maxRounds bounds the rounds of one scenario, whatever the budget: past
// it, more rounds of this host's noise are not what a run lacks.
const maxRounds = 200

// budgetFloor is the fewest rounds a suite's budget can stop a run at:
// the budget is the most wall time the rounds may take, so on a day too
// slow for the suite's repetitions it ends the rounds before them, but
// never before a scenario has rounds enough for a variance on a few
// degrees of freedom. The stop reads the clock, never the data, so each
// verdict keeps its α.
const budgetFloor = 3

// roundsOf is the rounds planned for scenario sc: its repetitions, or
// more where run.json's precision has added some, or fewer where the
// budget stopped the run before its repetitions.
func (c *collector) roundsOf(sc suite.Scenario) int {
	rec := c.dir.Manifest().Precision
	if n := rec.RoundsOf(sc.Name); n > 0 && rec.Stop == runjson.StopBudget {
		return n
	}
	return max(c.suite.LoadFor(sc).Repetitions, rec.RoundsOf(sc.Name))
}

// startPrecision records the suite's precision in run.json before the
// first round (a resumed run keeps its record).
func (c *collector) startPrecision() error {
	p := c.suite.Precision()
	if p.Resolve == 0 || c.dir.Manifest().Precision != nil {
		return nil
	}
	return c.dir.Update(func(m *runjson.Manifest) {
		m.Precision = &runjson.Precision{Resolve: p.Resolve, BudgetS: p.Budget.Seconds(), MinRounds: p.MinRounds}
	})
}

// afterRound checks, once round rep of ready took took, each scenario at
// its last planned round, and plans another round for those that do not
// resolve yet while the budget holds it; where the budget holds no more of
// the rounds planned, every scenario stops here. It reports whether any
// scenario was given a round.
func (c *collector) afterRound(ready []suite.Target, rep int, took time.Duration) (bool, error) {
	rec := c.dir.Manifest().Precision
	if rec == nil {
		return false, nil
	}
	next := *rec
	next.Scenarios = slices.Clone(rec.Scenarios)
	next.MeasuredS = roundS(next.MeasuredS + took.Seconds())
	if rep == next.MinRounds && c.suite.Precision().Budget == 0 {
		// The default budget: a multiple of what the fewest rounds took.
		next.BudgetS = roundS(suite.DefaultBudgetFactor * next.MeasuredS)
	}
	perTurn := next.MeasuredS / float64(max(1, c.turnsTaken(rep)))
	th := verdict.DefaultThresholds
	var more, short []string
	looked := false
	stop := runjson.StopResolved
	// Rounds the pilot planned stop where the budget holds no more of them:
	// its plan was made from an estimate of a round's time, not a round's.
	planned := 0
	for _, sc := range c.suite.Scenarios {
		if c.roundsOf(sc) > rep {
			planned++
		}
	}
	// A budget the suite sets binds the repetitions too (budgetFloor); the
	// default one is only known once they are done.
	overBudget := rep >= min(next.MinRounds, budgetFloor) && next.BudgetS > 0 && next.MeasuredS+perTurn*float64(len(ready)*planned) > next.BudgetS
	for _, sc := range c.suite.Scenarios {
		atLook := c.roundsOf(sc) == rep || overBudget && c.roundsOf(sc) > rep
		if rep < next.MinRounds && !overBudget || !atLook {
			continue
		}
		looked = true
		if c.roundsOf(sc) > rep {
			stop = runjson.StopBudget
			short = append(short, sc.Name)
		}
		logs, speeds := c.roundLogs(ready, sc.Name, rep)
		fp := verdict.PrecisionProbed(logs, speeds, th)
		sp := runjson.ScenarioPrecision{Scenario: sc.Name, Rounds: rep, Sigma: round4(fp.Sigma)}
		if !math.IsInf(fp.Resolves, 1) {
			sp.Resolves = round4(fp.Resolves)
		}
		if fp.Targets >= 2 && !(fp.Resolves <= next.Resolve) && !slices.Contains(short, sc.Name) {
			switch {
			case rep >= maxRounds:
				stop = runjson.StopMaxRounds
			case next.BudgetS > 0 && next.MeasuredS+perTurn*float64(len(ready)*(len(more)+1)) > next.BudgetS:
				stop = runjson.StopBudget
				short = append(short, sc.Name)
			default:
				sp.Rounds = rep + 1
				more = append(more, sc.Name)
			}
		}
		setScenarioPrecision(&next, sp)
	}
	if len(more) == 0 && (overBudget || c.pendingRounds(rep) == 0) {
		next.Stop = stop
	}
	if err := c.dir.Update(func(m *runjson.Manifest) { m.Precision = &next }); err != nil {
		return false, err
	}
	if overBudget && rep < next.MinRounds {
		c.opt.Progress.Note(fmt.Sprintf("round %d of the suite's %d repetitions, and the budget (%v) holds no more: the rounds stop here", rep, next.MinRounds, seconds(next.BudgetS)))
	}
	c.sayPrecision(next, rep, looked, more, short)
	return len(more) > 0, nil
}

// pendingRounds counts the scenarios with rounds planned after rep.
func (c *collector) pendingRounds(rep int) int {
	n := 0
	for _, sc := range c.suite.Scenarios {
		if c.roundsOf(sc) > rep {
			n++
		}
	}
	return n
}

// sayPrecision tells progress where the rounds stand after round rep:
// what the scenarios looked at resolve, or, before their first look, the
// rounds planned.
func (c *collector) sayPrecision(p runjson.Precision, rep int, looked bool, more, short []string) {
	left := time.Duration(max(0, p.BudgetS-p.MeasuredS) * float64(time.Second)).Round(time.Second)
	if !looked {
		c.opt.Progress.Note(fmt.Sprintf("round %d of %d planned; %v of the budget left", rep, c.reps(), left))
		return
	}
	worst := 0.0
	for _, s := range p.Scenarios {
		if s.Resolves == 0 {
			worst = math.Inf(1)
		}
		worst = max(worst, s.Resolves)
	}
	msg := fmt.Sprintf("round %d: the least precise scenario tells apart %s (aim %s); %v of the budget left", rep, percent(worst), percent(p.Resolve), left)
	if len(more) > 0 {
		msg += fmt.Sprintf("; another round for %d scenarios", len(more))
	}
	if len(short) > 0 {
		msg += fmt.Sprintf("; the budget holds no more rounds for %d that do not reach the aim yet (the run states what it reached)", len(short))
	}
	c.opt.Progress.Note(msg)
}

// percent is a relative difference for progress: "12.3%", or "nothing
// yet" for +Inf.
func percent(f float64) string {
	if math.IsInf(f, 1) || f == 0 {
		return "nothing yet"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

// setScenarioPrecision puts sp in p, replacing the scenario's record.
func setScenarioPrecision(p *runjson.Precision, sp runjson.ScenarioPrecision) {
	i := slices.IndexFunc(p.Scenarios, func(s runjson.ScenarioPrecision) bool { return s.Scenario == sp.Scenario })
	if i < 0 {
		p.Scenarios = append(p.Scenarios, sp)
		return
	}
	p.Scenarios[i] = sp
}

// roundLogs is the log req/s of each of ready in rounds 1 to rep of
// scenario, from the counted closed-loop measurements, and the log time
// of the host speed probe on the server's CPUs around each (the geometric
// mean of its before and after; NaN where it was not probed), as the
// verdicts read them; a target missing a round is left out.
func (c *collector) roundLogs(ready []suite.Target, scenario string, rep int) (logs, speeds [][]float64) {
	byTarget, speedOf := map[string][]float64{}, map[string][]float64{}
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Phase != "" || mr.Warmup || mr.Error != "" || mr.SHA256 == "" || mr.Scenario != scenario || mr.Rep < 1 || mr.Rep > rep {
			continue
		}
		rps := c.measuredRPS(mr)
		if byTarget[mr.Target] == nil {
			byTarget[mr.Target], speedOf[mr.Target] = make([]float64, rep), make([]float64, rep)
		}
		if rps > 0 {
			byTarget[mr.Target][mr.Rep-1] = math.Log(rps)
		}
		speedOf[mr.Target][mr.Rep-1] = math.NaN()
		if s := mr.HostSpeed.ServerTurn(); s > 0 {
			speedOf[mr.Target][mr.Rep-1] = math.Log(s)
		}
	}
	for _, t := range ready {
		if l := byTarget[t.Name]; l != nil && !slices.Contains(l, 0) {
			logs, speeds = append(logs, l), append(speeds, speedOf[t.Name])
		}
	}
	return logs, speeds
}

// turnsTaken counts the closed-loop turns of rounds 1 to rep in run.json:
// each target's counted measurements of a round and scenario.
func (c *collector) turnsTaken(rep int) int {
	n := 0
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Phase == "" && !mr.Warmup && mr.Error == "" && mr.Rep >= 1 && mr.Rep <= rep {
			n++
		}
	}
	return n
}

// roundS and round4 keep run.json's figures short.
func roundS(s float64) float64 { return math.Round(s*1000) / 1000 }
func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }
