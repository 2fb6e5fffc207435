package verdict

import (
	"fmt"
	"math"
	"strings"
)

// What a calibration run resolved, in words: the clauses the methodology
// page and the audit both say, lower case and without a period, so that
// each can put them in its own sentence.

// CostSummary says what the run's verdicts resolved of the planted costs
// it measured, and what that bounds; "" when no planted pair was measured.
// A threshold ("differences below about S% are not told apart") is stated
// only when every missed cost is below the smallest resolved one.
func (r Resolving) CostSummary() string {
	if len(r.Planted) == 0 {
		return ""
	}
	again := "add repetitions, or quiet the host, to resolve them"
	switch {
	case !r.Monotone():
		return fmt.Sprintf("resolved +%.1f%% but missed +%.1f%% CPU per request: this run's verdicts are not monotone in the cost, so they show no size above which differences are resolved; collect it again with more repetitions, or on a quieter host",
			100*r.Smallest, 100*r.Missed)
	case !math.IsNaN(r.Smallest) && !math.IsNaN(r.Missed):
		return fmt.Sprintf("a planted +%.1f%% CPU per request was resolved and +%.1f%% was not: on this host at these settings, differences below about %.0f%% are not told apart (\"~\" or \"=\"); %s",
			100*r.Smallest, 100*r.Missed, 100*r.Smallest, again)
	case !math.IsNaN(r.Smallest):
		return fmt.Sprintf("every planted cost was resolved, the smallest +%.1f%% CPU per request; smaller differences may read \"~\" at these settings", 100*r.Smallest)
	case !math.IsNaN(r.Missed):
		return fmt.Sprintf("none of the planted costs was resolved, up to +%.1f%% CPU per request: on this host at these settings, differences that size are not told apart (\"~\" or \"=\"); %s",
			100*r.Missed, again)
	}
	most := math.NaN()
	for _, p := range r.Planted {
		if !(p.Cost <= most) {
			most = p.Cost
		}
	}
	if math.IsNaN(most) {
		return "no planted cost was measured: the run recorded no server CPU"
	}
	return fmt.Sprintf("no planted copy measured more server CPU per request than its base (at most %+.1f%%): the run shows no planted cost to resolve", 100*most)
}

// UnmeasuredSummary names the planted copies not measured against their
// base, and where; "" when every one was.
func (r Resolving) UnmeasuredSummary() string {
	if len(r.Unmeasured) == 0 {
		return ""
	}
	names := make([]string, len(r.Unmeasured))
	for i, u := range r.Unmeasured {
		names[i] = fmt.Sprintf("%s (on %s)", u.Target, u.Base)
		if len(u.Scenarios) > 0 {
			names[i] += " in " + strings.Join(u.Scenarios, ", ")
		}
	}
	return "planted copies not measured against their base: " + strings.Join(names, "; ")
}
