package verdict

import "github.com/fairbench/fairbench/parse"

// ReasonErrors: a side answered more than Thresholds.RankErrorShare of
// its requests with a status other than 2xx or 3xx. Its req/s counts
// those answers, so it is neither tested nor ranked: an error answered
// fast is not throughput.
const ReasonErrors = "errors"

// BadResponses counts the responses of m whose status was not 2xx or 3xx.
// Requests that failed at the socket or timed out are not responses:
// bombardier counts them among its "others", and they are left out here.
func BadResponses(m *parse.Measurement) int64 {
	s := m.Status
	switch {
	case s.Known:
		return s.C1xx + s.C4xx + s.C5xx + max(s.Other-m.Errors.Total(), 0)
	case s.Non2xx > 0:
		return s.Non2xx
	case m.Requests > 0:
		return max(m.Requests-m.GoodRequests(), 0)
	}
	return 0
}

// ErrorShare is the share of c's requests, over its repetitions, answered
// with a status other than 2xx or 3xx (BadResponses ÷ requests); 0 when
// its repetitions requested nothing.
func (c *Cell) ErrorShare() float64 {
	var bad, requests int64
	for _, m := range c.Reps {
		bad += BadResponses(m)
		requests += max(m.Requests, 0)
	}
	switch {
	case bad == 0:
		return 0
	case requests < bad:
		return 1
	}
	return float64(bad) / float64(requests)
}
