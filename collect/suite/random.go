package suite

import "strings"

// RandomPlaceholder, in a variant's request (path, header values, body) and
// its expectation (body, body_json, header values), is replaced by one
// integer from 1 to RandomMax drawn afresh for each scenario in each gate
// run: the same number in every variant of that scenario. A server that
// answers with stored bytes cannot pass a variant that echoes it, such as
// an insert of {random} read back by id and in the paged list.
//
// A scenario's own request is measured, and the load generators send it as
// written, so it may not hold the placeholder (the suite check refuses it).
const RandomPlaceholder = "{random}"

// RandomMax is the largest number RandomPlaceholder stands for.
const RandomMax = 10000

// checkRandom refuses RandomPlaceholder in a scenario's own request, which
// is measured as written.
func (s *Suite) checkRandom(e *suiteErrors) {
	for i, sc := range s.Scenarios {
		r := sc.Request
		in := strings.Contains(r.Path, RandomPlaceholder) || strings.Contains(r.Body, RandomPlaceholder)
		for _, v := range r.Headers {
			in = in || strings.Contains(v, RandomPlaceholder)
		}
		if in {
			e.add(at("scenario", i), "request", "%s: the load generator sends the measured request as written: put the placeholder in a [[scenario.variant]]", RandomPlaceholder)
		}
	}
}
