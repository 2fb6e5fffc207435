package parse

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
)

// bombardier and autocannon print their JSON whole: every count below is
// in every result the released versions write, even when it is 0. A key
// missing from a result was deleted, and would read as 0 (a run of 0 req/s
// that looks measured), so it is refused. Where a result states one figure
// twice over (autocannon's total beside its per-second samples, its
// duration beside its start and finish stamps; bombardier's time taken
// beside the duration it was asked to run), the two must agree within
// windowSlack: a window cut or a count multiplied by hand does not.

// windowSlack is how far a measured window or a count may stray from the
// figure it is checked against: a tenth. A real run stays within a few
// per cent (its last sample, its start-up); an edit by a factor does not.
const windowSlack = 0.10

// The keys a result of each tool always holds.
var (
	bombardierAlways = []string{"bytesRead", "bytesWritten", "timeTakenSeconds",
		"req1xx", "req2xx", "req3xx", "req4xx", "req5xx", "others", "rps"}
	autocannonAlways = []string{"duration", "errors", "timeouts", "non2xx", "throughput"}
)

// missingKeys returns the keys of want that doc holds nowhere as an
// object key.
func missingKeys(doc []byte, want []string) []string {
	var missing []string
	for _, k := range want {
		if !hasJSONKey(doc, k) {
			missing = append(missing, k)
		}
	}
	return missing
}

// hasJSONKey reports whether "key" appears in doc followed by a colon.
func hasJSONKey(doc []byte, key string) bool {
	quoted := `"` + key + `"`
	for rest := doc; ; {
		i := bytes.Index(rest, []byte(quoted))
		if i < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[i+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return true
		}
	}
}

// missingMessage says which counts a result lacks.
func missingMessage(tool string, keys []string) string {
	return fmt.Sprintf("result without %q, which %s always prints: the dump was cut or edited; use the tool's whole output", strings.Join(keys, `", "`), tool)
}

// far reports whether got is more than windowSlack away from want.
func far(got, want float64) bool {
	return math.Abs(got-want) > windowSlack*math.Abs(want)
}

// check is what is wrong with a bombardier result, "" when nothing is.
func (j *bombardierJSON) check(doc []byte) string {
	if miss := missingKeys(doc, bombardierAlways); len(miss) > 0 {
		return missingMessage("bombardier", miss)
	}
	return ""
}

// checkWindow checks the measured window of m, read from j, against its
// spec's (checkWindow of window.go); "" when it is not refused.
func (j *bombardierJSON) checkWindow(m *Measurement, file string, line int) string {
	if asked := j.Spec.TestDurationSeconds; j.Spec.TestType == "timed" && asked > 0 {
		if msg := checkWindow(m, file, line, seconds(asked), seconds(j.Spec.TimeoutSeconds)); msg != "" {
			return "timeTakenSeconds: " + msg + " (spec.testDurationSeconds)"
		}
	}
	return ""
}

// check is what is wrong with an autocannon result, "" when nothing is.
func (j *autocannonJSON) check(doc []byte) string {
	if miss := missingKeys(doc, autocannonAlways); len(miss) > 0 {
		return missingMessage("autocannon", miss)
	}
	total := j.Requests.total
	if j.C1xx != nil {
		// requests.total counts the responses, each in one status class.
		if byClass := float64(*j.C1xx + j.C2xx + j.C3xx + j.C4xx + j.C5xx); total != byClass && far(total, byClass) {
			return fmt.Sprintf("requests.total %g is not the %g responses its 1xx-5xx counts add up to: the dump was changed", total, byClass)
		}
	}
	start, err1 := time.Parse(time.RFC3339Nano, j.Start)
	finish, err2 := time.Parse(time.RFC3339Nano, j.Finish)
	if err1 == nil && err2 == nil && finish.After(start) {
		// Stamped to the millisecond; duration is rounded to 10 ms.
		if wall := finish.Sub(start).Seconds(); far(j.Duration, wall) && math.Abs(j.Duration-wall) > 0.02 {
			return fmt.Sprintf("duration %gs is more than %.0f%% away from the %gs between its start and finish: the dump was changed", j.Duration, windowSlack*100, wall)
		}
	}
	if j.Duration > 0 && j.Requests.mean > 0 {
		// The per-second samples' mean times the seconds run is the total,
		// but for a part-second: autocannon's "samples" may count a last
		// part-second its statistics leave out, so the duration is the
		// measure of time here.
		if bySecond := j.Requests.mean * j.Duration; far(total, bySecond) && math.Abs(total-bySecond) > j.Requests.max {
			return fmt.Sprintf("requests.total %g disagrees with its per-second mean %g over %gs (%g): the dump was changed", total, j.Requests.mean, j.Duration, bySecond)
		}
	}
	return ""
}
