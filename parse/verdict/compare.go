package verdict

import "fmt"

// MethodNone marks a Comparison without a test: a side had too few
// repetitions, no data, a saturated client, or the cells are of different
// runs. Its Verdict says which.
const MethodNone = "none"

// Comparison is a Verdict seen from one side: Other against Base, for
// pages that show many targets against one (a card's subject against its
// baseline, every target against the leader). Make it with
// Verdicts.Versus; it decides nothing itself.
type Comparison struct {
	Base, Other Stat
	// Ratio is Other's geometric mean ÷ Base's; Lo and Hi bound it at
	// Confidence (the verdict's Level).
	Ratio      float64
	Lo, Hi     float64
	Confidence float64
	Method     string  // MethodWelchLog, or MethodNone without a test
	P          float64 // the test's p; NaN without a test
	PAdjusted  float64 // P after Holm over the scenario's family
	// Differs reports that a difference is claimed.
	Differs bool
	// Reason says in words why a difference is or is not claimed.
	Reason string
	// Verdict is the decision this comparison shows.
	Verdict Verdict
}

// Delta is the change from Base to Other as a table shows it: "+12.34%",
// "~" when no difference is claimed, "?" when untested for too few
// repetitions or no data.
func (c Comparison) Delta() string {
	switch {
	case c.Verdict.Reason == ReasonTooFewReps || c.Verdict.Reason == ReasonNoData:
		return "?"
	case !c.Differs:
		return "~"
	}
	return fmt.Sprintf("%+.2f%%", (c.Ratio-1)*100)
}
