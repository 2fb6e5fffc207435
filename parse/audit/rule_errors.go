package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about failed requests.
const (
	RuleNon2xx       = "non-2xx"       // responses other than 2xx/3xx
	RuleSocketErrors = "socket-errors" // connect, read, write or other socket errors
	RuleTimeouts     = "timeouts"      // timed-out requests, which censor latency
)

// badResponses is verdict.BadResponses: the responses of m whose status
// was not 2xx or 3xx, as the verdicts count them.
var badResponses = verdict.BadResponses

// errorTally sums one kind of failure over a cell's repetitions.
type errorTally struct {
	count, requests int64
	dumps           []string
}

func (t *errorTally) add(m *parse.Measurement, n int64) {
	t.requests += max(m.Requests, 0)
	if n > 0 {
		t.count += n
		t.dumps = append(t.dumps, m.Source.File)
	}
}

// level is LevelError when the failures are more than th.MaxErrorShare of
// the requests (or the share is unknown), LevelWarning otherwise.
func (t *errorTally) level(th verdict.Thresholds) Level {
	if t.requests <= 0 || float64(t.count)/float64(t.requests) > th.MaxErrorShare {
		return LevelError
	}
	return LevelWarning
}

// share is "12 of 40,000 requests (0.03%)", or "12 requests" when the
// total is not known.
func (t *errorTally) share() string {
	if t.requests <= 0 {
		return parse.Plural(int(t.count), "request")
	}
	return fmt.Sprintf("%s of %s requests (%.2g%%)", parse.GroupDigits(fmt.Sprint(t.count)), parse.GroupDigits(fmt.Sprint(t.requests)),
		100*float64(t.count)/float64(t.requests))
}

// errorFindings runs the failed-request rules on one cell.
func errorFindings(c *verdict.Cell, th verdict.Thresholds) []Finding {
	var bad, sock, tmo errorTally
	messages := map[string]int64{}
	for _, m := range c.Reps {
		bad.add(m, badResponses(m))
		sock.add(m, m.Errors.Total()-m.Errors.Timeout)
		tmo.add(m, m.Errors.Timeout)
		for _, e := range m.Errors.Messages {
			messages[e.Text] += e.Count
		}
	}
	var fs []Finding
	if bad.count > 0 {
		fs = append(fs, cellFinding(c, RuleNon2xx, bad.level(th), fmt.Sprintf(
			"%s got a response other than 2xx or 3xx: the target failed under load or answers a different request than its peers; check the gate transcript and the server's log, and fix the target",
			bad.share()), uniqueSorted(bad.dumps)))
	}
	if sock.count > 0 {
		fs = append(fs, cellFinding(c, RuleSocketErrors, sock.level(th), fmt.Sprintf(
			"%s failed at the socket (connect, read or write)%s: connections were refused or reset, so the server or the host ran out of something; raise the file-descriptor and backlog limits or lower the connections",
			sock.share(), topMessage(messages)), uniqueSorted(sock.dumps)))
	}
	if tmo.count > 0 {
		fs = append(fs, cellFinding(c, RuleTimeouts, tmo.level(th), fmt.Sprintf(
			"%s timed out: their latency is missing from the percentiles (censored), so the tail looks better than it was; lower the load or raise the tool's timeout and report the timeouts beside the latency",
			tmo.share()), uniqueSorted(tmo.dumps)))
	}
	return fs
}

// topMessage is the most frequent error message, as ` (most often "…", 12×)`.
func topMessage(counts map[string]int64) string {
	best, n := "", int64(0)
	for text, c := range counts {
		if c > n || c == n && text < best {
			best, n = text, c
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (most often %q, %d×)", best, n)
}
