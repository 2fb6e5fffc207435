package parse

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// vegeta (github.com/tsenart/vegeta, v12) prints one summary of an attack
// in two report dialects, text and JSON, and fairbench computes the same
// summary from its encoded results. vegetaSummary holds it in base units;
// measurement turns it into a Measurement alike for all three.
//
// What the fields mean in vegeta's terms (lib/metrics.go):
//   - requests: every result, answered or not; a request that got no
//     response (refused, reset, timed out) has status code 0.
//   - rate: requests ÷ the attack (earliest to latest request sent), the
//     rate requests went out at (OpenModel.SendRate).
//   - throughput: requests with a status of 200 to 399 ÷ (attack + wait)
//     (Measurement.ToolRPS).
//   - wait: from the latest request sent to the latest response.
//   - success: requests with a status of 200 to 399 ÷ requests.
//
// fairbench's own RPS is completed requests (those with a status, any
// status) ÷ Duration, and Duration is attack + wait: the time from the
// first request sent to the last response, the window the requests were
// completed in.

// vegetaSummary is one attack's summary in base units.
type vegetaSummary struct {
	requests   int64
	rate       float64 // requests sent per second
	throughput float64 // successful requests per second, as vegeta defines it
	success    float64 // 0 to 1
	attack     time.Duration
	wait       time.Duration
	latency    Latency // Min, Mean, Max and the percentiles as printed
	bytesIn    int64
	codes      []vegetaCode // ascending by code
	errors     []string     // distinct, in vegeta's order
	// counts gives each error's count where known (encoded results); nil
	// for a report, which gives the distinct errors only.
	counts []int64
	// noResponse counts the requests without a response among each error
	// (code 0), where known; nil for a report.
	noResponse []int64
}

// vegetaCode is one status code of a summary and its count; 0 is "no response".
type vegetaCode struct {
	code  int
	count int64
}

// parseVegetaCodes turns vegeta's status_codes (code as text → count) into
// ascending codes. A code that is not a number is an error.
func parseVegetaCodes(codes map[string]int64) ([]vegetaCode, error) {
	out := make([]vegetaCode, 0, len(codes))
	for k, n := range codes {
		c, err := strconv.Atoi(k)
		if err != nil || c < 0 || c > 65535 {
			return nil, fmt.Errorf("status code %q is not a number from 0 to 65535", k)
		}
		out = append(out, vegetaCode{c, n})
	}
	slices.SortFunc(out, func(a, b vegetaCode) int { return cmp.Compare(a.code, b.code) })
	return out, nil
}

// measurement builds the Measurement of a summary read from lines first to last.
func (s *vegetaSummary) measurement(first, last int) *Measurement {
	m := &Measurement{
		Tool:         ToolVegeta,
		Phase:        PhaseLatency,
		Requests:     s.requests,
		RequestsSent: s.requests,
		Duration:     s.attack + s.wait,
		ToolRPS:      s.throughput,
		BytesRead:    s.bytesIn,
		Latency:      s.latency,
		Open:         OpenModel{SendRate: s.rate, Wait: s.wait, Success: s.success, SuccessKnown: true},
		Source:       Source{LineStart: first, LineEnd: last},
	}
	m.Latency.Samples = s.requests
	var noResponse int64
	m.Status.Known = true
	for _, c := range s.codes {
		switch {
		case c.code == 0:
			noResponse += c.count
		case c.code >= 100 && c.code < 200:
			m.Status.C1xx += c.count
		case c.code >= 200 && c.code < 300:
			m.Status.C2xx += c.count
		case c.code >= 300 && c.code < 400:
			m.Status.C3xx += c.count
		case c.code >= 400 && c.code < 500:
			m.Status.C4xx += c.count
		case c.code >= 500 && c.code < 600:
			m.Status.C5xx += c.count
		default:
			m.Status.Other += c.count
		}
	}
	if s.counts != nil {
		s.countedErrors(m)
	} else {
		s.reportedErrors(m, noResponse)
	}
	return m
}

// countedErrors sets the errors of a summary that counts each one: the
// messages with their counts, and the kinds of those that came without a
// response.
func (s *vegetaSummary) countedErrors(m *Measurement) {
	for i, text := range s.errors {
		m.Errors.Messages = append(m.Errors.Messages, ErrorMessage{Text: text, Count: s.counts[i]})
		if n := s.noResponse[i]; n > 0 {
			addBombardierError(&m.Errors, text, n)
		}
	}
}

// reportedErrors sets the errors of a report, which names each distinct
// error once and counts only status codes. An error that is a status
// ("404 Not Found") takes its code's count. The requests without a
// response (code 0) are sorted by kind when a single other error explains
// them all; among several, they count as Other, with a warning.
func (s *vegetaSummary) reportedErrors(m *Measurement, noResponse int64) {
	var transport []int // errors that are not a status
	for _, text := range s.errors {
		msg := ErrorMessage{Text: text}
		if code, ok := vegetaStatusError(text); ok {
			for _, c := range s.codes {
				if c.code == code {
					msg.Count = c.count
				}
			}
		} else {
			transport = append(transport, len(m.Errors.Messages))
		}
		m.Errors.Messages = append(m.Errors.Messages, msg)
	}
	switch {
	case noResponse == 0:
	case len(transport) == 1:
		msg := &m.Errors.Messages[transport[0]]
		msg.Count = noResponse
		addBombardierError(&m.Errors, msg.Text, noResponse)
	default:
		m.Errors.Other += noResponse
		m.Warnings = append(m.Warnings, fmt.Sprintf(
			"%d requests got no response, among %d distinct errors the report does not count: all counted as other errors (parse the encoded results, vegeta encode -to csv, for counts by error)",
			noResponse, len(transport)))
	}
}

// vegetaStatusError reports whether an error is vegeta's text for a
// response status it counts as a failure ("500 Internal Server Error"), and
// its code.
func vegetaStatusError(text string) (int, bool) {
	head, _, _ := strings.Cut(text, " ")
	if len(head) != 3 {
		return 0, false
	}
	code, err := strconv.Atoi(head)
	return code, err == nil && code >= 100
}

// vegetaPercentiles are the percentiles vegeta's reports print.
var vegetaPercentiles = [4]float64{50, 90, 95, 99}
