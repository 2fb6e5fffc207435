package parse

import (
	"regexp"
	"strings"
	"testing"
)

// TestJSONCrossChecks: a bombardier or autocannon result with a count
// deleted, emptied, or a window or count changed by a factor is refused at
// its file:line, instead of read as a run of 0 req/s or of millions.
func TestJSONCrossChecks(t *testing.T) {
	bombardier := string(readFixture(t, "testdata/bombardier-1.2.6__json_latencies.json"))
	autocannon := string(readFixture(t, "testdata/autocannon-9.0.0__json.json"))
	durationRE := regexp.MustCompile(`"duration":[0-9.]+`)
	for _, c := range []struct {
		name, dump, what string
	}{
		{"bombardier req2xx deleted", strings.Replace(bombardier, `"req2xx":57132,`, ``, 1), `"req2xx"`},
		{"bombardier empty result", regexp.MustCompile(`"result":\{.*\}\}`).ReplaceAllString(bombardier, `"result":{}}`), "always prints"},
		{"bombardier time taken 0.001", strings.Replace(bombardier, `"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":0.001`, 1), "window asked for"},
		{"bombardier time taken 1.5", strings.Replace(bombardier, `"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":1.5`, 1), "window asked for"},
		{"autocannon duration / 100", durationRE.ReplaceAllString(autocannon, `"duration":0.0201`), "between its start and finish"},
		{"autocannon requests.total x 10", strings.Replace(autocannon, `"total":35376`, `"total":353760`, 1), "requests.total"},
		{"autocannon duration deleted", strings.Replace(autocannon, `"duration":2.01,`, ``, 1), `"duration"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.dump == bombardier || c.dump == autocannon {
				t.Fatalf("the replacement did not apply")
			}
			ms, _, errs := readString("x.txt", c.dump)
			if len(ms) > 0 {
				t.Errorf("read %d runs:%s", len(ms), dumpFields(ms[0]))
			}
			if !hasSyntaxError(errs, "x.txt", c.what) {
				t.Errorf("errors %v, want a *SyntaxError at x.txt:line saying %q", errs, c.what)
			}
		})
	}
}
