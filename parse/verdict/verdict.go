package verdict

import "fmt"

// What a Verdict says.
const (
	VerdictA   = "a" // A is faster
	VerdictB   = "b" // B is faster
	VerdictTie = "~" // no difference is claimed; Reason says why
	// VerdictEquivalent: no difference is claimed and none as large as the
	// run's resolve (Floor.Resolve) is left: the two are within ±resolve
	// of each other (ReasonEquivalent).
	VerdictEquivalent = "="
)

// Why a Verdict says what it says (Verdict.Reason).
const (
	// ReasonDiffers: the test rejects at α after Holm's correction over the
	// family and the ratio's interval lies wholly beyond the noise floor.
	ReasonDiffers = "differs"
	// ReasonNotSignificant: the Holm-adjusted p is not below α.
	ReasonNotSignificant = "not-significant"
	// ReasonWithinFloor: significant, but the interval reaches into the
	// noise floor, so the difference may be no bigger than the run's noise.
	ReasonWithinFloor = "within-floor"
	// ReasonTooFewReps: a side has fewer than Thresholds.MinReps
	// repetitions; the pair was not tested.
	ReasonTooFewReps = "too-few-reps"
	// ReasonNoData: a side has no positive throughput; not tested.
	ReasonNoData = "no-data"
	// ReasonClientBound: a side's load generator was saturated (the
	// client-saturated rule), so its number measures the client: both
	// sides saturated, or the test would favour the side that was not (a
	// saturated side's true capacity may be anywhere above its number).
	ReasonClientBound = "client-bound"
	// ReasonAtLeast: a claim in favour of a side whose load generator was
	// saturated. Its number is a lower bound of its capacity, so the claim
	// holds and the ratio understates the difference: "at least" this.
	ReasonAtLeast = "at-least"
	// ReasonEfficiency: a claim decided on requests per server CPU second
	// (MetricEfficiency) because a side's load generator was saturated:
	// its req/s measures the client, what the target serves per CPU
	// second of its server does not.
	ReasonEfficiency = "efficiency"
	// ReasonOtherRun: the cells are from different runs, which are ranked
	// each on its own; no verdict across runs exists.
	ReasonOtherRun = "other-run"
	// ReasonEquivalent: no difference is claimed and two one-sided tests on
	// the same model, Holm-corrected over the family, put the ratio within
	// ±Margin (the run's resolve): the pair is equivalent at that margin.
	ReasonEquivalent = "equivalent"
)

// Verdict is the one decision on a pair of cells of one scenario of one
// run. Every page, export and command that says "faster", "~", a rank or a
// group reads it; none decides again.
type Verdict struct {
	Run      string `json:"run"`
	Scenario string `json:"scenario"`
	Metric   Metric `json:"metric"`
	// A and B are the cells' names, A < B bytewise.
	A string `json:"a"`
	B string `json:"b"`
	// Ratio is the geometric mean of A's repetitions ÷ that of B's (the
	// estimator the test is about), with the host speed probe's share
	// taken out where Method is MethodBlockedSpeed; Lo and Hi bound it at
	// Level.
	Ratio float64 `json:"ratio"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// Level is the interval's confidence: 1 − α/(m−j) for the pair's step j
	// in Holm's order over a family of m, so the interval excludes 1 exactly
	// when the pair's own test passes its Holm step.
	Level float64 `json:"level"`
	// P is the test's two-sided p; PAdj is P after Holm over the family.
	P    float64 `json:"p"`
	PAdj float64 `json:"p_adj"`
	// Family is the number of pairs tested in this scenario of this run (m).
	Family int `json:"family"`
	// Floor is the noise floor as a relative difference (0.02 = 2%): the
	// interval must clear [1/(1+Floor), 1+Floor] for a claim.
	Floor float64 `json:"floor"`
	// Margin is the equivalence margin as a relative difference (0.1 =
	// ±10%): the run's resolve.
	Margin float64 `json:"margin"`
	// PEq is the equivalence test's p (the larger of its two one-sided
	// tests' p) after Holm over the family; NaN when not tested.
	PEq float64 `json:"p_equivalent"`
	// Verdict is VerdictA, VerdictB, VerdictEquivalent or VerdictTie.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"` // one of the Reason* constants
	Method  string `json:"method"` // MethodWelchLog, or "" when not tested
	// Alpha is the family-wise significance level the verdict was decided at.
	Alpha float64 `json:"-"`
	// CellA and CellB are the cells named A and B.
	CellA, CellB *Cell `json:"-"`
}

// Claimed reports whether the verdict claims a difference.
func (v Verdict) Claimed() bool { return v.Verdict == VerdictA || v.Verdict == VerdictB }

// Equivalent reports whether the verdict claims the pair within ±Margin.
func (v Verdict) Equivalent() bool { return v.Verdict == VerdictEquivalent }

// Outcomes of a pair, as Outcome names them for a reader.
const (
	OutcomeFaster     = "faster"
	OutcomeEquivalent = "equivalent"
	OutcomeUnresolved = "unresolved"
)

// Outcome is which of the three answers the verdict gives: a difference
// (OutcomeFaster, Faster says which), equivalence within ±Margin, or
// neither at this run's noise (OutcomeUnresolved).
func (v Verdict) Outcome() string {
	switch {
	case v.Claimed():
		return OutcomeFaster
	case v.Equivalent():
		return OutcomeEquivalent
	}
	return OutcomeUnresolved
}

// Tested reports whether the pair went through the test (it has a p).
func (v Verdict) Tested() bool { return v.Method != "" }

// Faster is the faster cell when a difference is claimed, else nil.
func (v Verdict) Faster() *Cell {
	switch v.Verdict {
	case VerdictA:
		return v.CellA
	case VerdictB:
		return v.CellB
	}
	return nil
}

// Explain says the verdict in words, with the numbers behind it.
func (v Verdict) Explain() string {
	pct := func(r float64) string { return fmt.Sprintf("%+.1f%%", (r-1)*100) }
	interval := fmt.Sprintf("%s ÷ %s = %.3f× [%.3f, %.3f] at %s", v.A, v.B, v.Ratio, v.Lo, v.Hi, levelLabel(v.Level))
	switch v.Reason {
	case ReasonDiffers:
		return fmt.Sprintf("%s (%s): Holm-adjusted p=%.2g < %g over %d pairs and the interval clears the %.1f%% noise floor",
			interval, pct(v.Ratio), v.PAdj, v.Alpha, v.Family, v.Floor*100)
	case ReasonNotSignificant:
		return fmt.Sprintf("~: %s; Holm-adjusted p=%.2g (raw %.2g) over %d pairs is not below %g",
			interval, v.PAdj, v.P, v.Family, v.Alpha)
	case ReasonWithinFloor:
		return fmt.Sprintf("~: %s; significant (Holm-adjusted p=%.2g) but the interval reaches into the %.1f%% noise floor",
			interval, v.PAdj, v.Floor*100)
	case ReasonTooFewReps:
		return fmt.Sprintf("~: too few repetitions to test (%s: %d, %s: %d)", v.A, repsOf(v.CellA), v.B, repsOf(v.CellB))
	case ReasonNoData:
		return "~: a side has no positive throughput"
	case ReasonErrors:
		return "~: a side answered too many requests with an error status, which its req/s counts; not tested"
	case ReasonUngated:
		return "~: a side has no gate record that passed it in its run.json; not tested"
	case ReasonClientBound:
		return "~: the load generator was saturated on a side, so its number measures the client, not the server"
	case ReasonAtLeast:
		return fmt.Sprintf("%s (%s): Holm-adjusted p=%.2g < %g over %d pairs and the interval clears the %.1f%% noise floor; the faster side's load generator was saturated, so its number is a lower bound and the difference is at least this",
			interval, pct(v.Ratio), v.PAdj, v.Alpha, v.Family, v.Floor*100)
	case ReasonEfficiency:
		return fmt.Sprintf("%s in requests per server CPU second (%s): Holm-adjusted p=%.2g < %g over %d pairs and the interval clears the %.1f%% noise floor; decided on the CPU each target burns per request because the load generator was saturated on a side, so req/s measured the client",
			interval, pct(v.Ratio), v.PAdj, v.Alpha, v.Family, v.Floor*100)
	case ReasonOtherRun:
		return "~: the cells are from different runs, ranked each within its run"
	case ReasonEquivalent:
		return fmt.Sprintf("=: %s; equivalent within ±%.0f%%: two one-sided tests, Holm-adjusted p=%.2g < %g over %d pairs, put the ratio inside [%.3f, %.3f]",
			interval, v.Margin*100, v.PEq, v.Alpha, v.Family, 1/(1+v.Margin), 1+v.Margin)
	case ReasonOtherHosts:
		return "~: the cells were measured on different server/client hosts, ranked each within its host pair"
	}
	return v.Verdict
}

func repsOf(c *Cell) int {
	if c == nil {
		return 0
	}
	return len(c.Reps)
}

// levelLabel is "95%" or "99.95%": the level to four significant digits.
func levelLabel(l float64) string {
	return fmt.Sprintf("%.4g%%", l*100)
}

// MarshalText writes the metric's name, "req/s" or "good req/s".
func (m Metric) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (m *Metric) UnmarshalText(b []byte) error {
	all := []Metric{MetricRPS, MetricGoodRPS, MetricEfficiency}
	for _, c := range all {
		if string(b) == c.String() {
			*m = c
			return nil
		}
	}
	return fmt.Errorf("metric %q: want %q, %q or %q", b, all[0], all[1], all[2])
}
