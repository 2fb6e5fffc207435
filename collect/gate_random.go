package collect

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

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

// drawRandom is one RandomPlaceholder value.
func drawRandom() string { return strconv.Itoa(1 + rand.IntN(RandomMax)) }

// withRandom returns checks with every RandomPlaceholder replaced by r.
func withRandom(checks []Variant, r string) []Variant {
	out := make([]Variant, len(checks))
	sub := func(s string) string { return strings.ReplaceAll(s, RandomPlaceholder, r) }
	subMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		n := make(map[string]string, len(m))
		for k, v := range m {
			n[k] = sub(v)
		}
		return n
	}
	subPtr := func(p *string) *string {
		if p == nil {
			return nil
		}
		v := sub(*p)
		return &v
	}
	for i, c := range checks {
		c.Request.Path, c.Request.Body = sub(c.Request.Path), sub(c.Request.Body)
		c.Request.Headers = subMap(c.Request.Headers)
		c.Expect.Body, c.Expect.BodyJSON = subPtr(c.Expect.Body), subPtr(c.Expect.BodyJSON)
		c.Expect.Headers, c.Expect.HeadersMatch, c.Expect.HeadersEqual = subMap(c.Expect.Headers), subMap(c.Expect.HeadersMatch), subMap(c.Expect.HeadersEqual)
		out[i] = c
	}
	return out
}

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
