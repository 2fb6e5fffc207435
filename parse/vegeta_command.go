package parse

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// A vegeta command line before its output (`vegeta attack -rate=500/s
// -duration=10s … | vegeta report`) says what the reports do not print:
// the offered rate (Measurement.Rate) and the requested duration
// (Measurement.Window). vegeta's flags are Go's: -name=value, -name value,
// one dash or two. The URL is in the targets on its stdin, not its argv.

// vegetaFlag returns the value of the flag name (without dashes) in argv.
func vegetaFlag(argv []string, name string) (string, bool) {
	for i := 1; i < len(argv); i++ {
		a := strings.TrimPrefix(strings.TrimPrefix(argv[i], "-"), "-")
		if len(a) == len(argv[i]) {
			continue // not a flag
		}
		switch {
		case a == name && i+1 < len(argv):
			return argv[i+1], true
		case strings.HasPrefix(a, name+"="):
			return a[len(name)+1:], true
		}
	}
	return "", false
}

// vegetaRate parses vegeta's -rate: requests per time unit ("500/s",
// "500/1s", "1000/2s", "500", which is per second). 0 means as fast as
// possible, which is no offered rate.
func vegetaRate(v string) (float64, bool) {
	num, per, hasPer := strings.Cut(v, "/")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || !(n > 0) || math.IsInf(n, 0) {
		return 0, false
	}
	unit := time.Second
	if hasPer {
		if per != "" && (per[0] < '0' || per[0] > '9') {
			per = "1" + per
		}
		if unit, err = time.ParseDuration(per); err != nil || unit <= 0 {
			return 0, false
		}
	}
	return n / unit.Seconds(), true
}

// applyVegeta fills the rate and window of a vegeta measurement from its
// command line.
func (c *command) applyVegeta(m *Measurement) {
	if v, ok := vegetaFlag(c.argv, "duration"); ok && m.Window == 0 {
		if w, err := time.ParseDuration(v); err == nil && w > 0 {
			m.Window = w
		}
	}
	if v, ok := vegetaFlag(c.argv, "rate"); ok && m.Rate == 0 {
		if r, ok := vegetaRate(v); ok {
			m.Rate = r
		}
	}
}
