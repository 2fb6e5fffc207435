package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleErrorsAtRate: failed requests (non-2xx, socket errors, timeouts) at
// an offered rate of the open-model (latency) phase, with the lowest rate
// where they start.
const RuleErrorsAtRate = "errors-at-rate"

// errorsAtRate reports the failed requests of c's points: non-2xx answers
// and socket errors and timeouts, with the lowest offered rate where they
// start and whether every higher rate has them too. The level is
// errorTally's: an error above Thresholds.MaxErrorShare of the requests.
func errorsAtRate(c *openCell, th verdict.Thresholds) (Finding, bool) {
	var all errorTally
	var first *parse.Measurement
	rates, failing := 0, 0
	for _, g := range byRate(c.points) {
		rates++
		n := int64(0)
		for _, m := range g {
			k := badResponses(m) + m.Errors.Total()
			all.add(m, k)
			n += k
		}
		if n > 0 {
			failing++
			if first == nil {
				first = g[0]
			}
		}
	}
	if first == nil {
		return Finding{}, false
	}
	from := fmt.Sprintf("from %s on, at %d of the %d offered rates", rateLabel(first), failing, rates)
	if failing == rates {
		from = fmt.Sprintf("at every offered rate, from %s", rateLabel(first))
	}
	return Finding{Rule: RuleErrorsAtRate, Level: all.level(th), Run: c.run, Target: c.target, Scenario: c.scenario, Dumps: uniqueSorted(all.dumps),
		Message: fmt.Sprintf("%s failed (non-2xx, socket errors or timeouts) %s: the latency there is a mix of answers and failures, and a failure's latency is not a response's; report the rate where errors start beside the latency, and fix the target or lower the rates",
			all.share(), from)}, true
}
