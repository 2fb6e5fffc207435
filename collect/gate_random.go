package collect

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/collect/suite"
)

// drawRandom is one RandomPlaceholder value.
func drawRandom() string { return strconv.Itoa(1 + rand.IntN(suite.RandomMax)) }

// withRandom returns checks with every RandomPlaceholder replaced by r.
func withRandom(checks []suite.Variant, r string) []suite.Variant {
	out := make([]suite.Variant, len(checks))
	sub := func(s string) string { return strings.ReplaceAll(s, suite.RandomPlaceholder, r) }
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
