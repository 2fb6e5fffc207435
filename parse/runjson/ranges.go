package runjson

import (
	"fmt"
	"math"
	"time"
)

// A run.json is input anyone may have edited. Its values are range-checked
// when it is read (Ranges), one of two ways by what a value does:
//
//   - a value that says what was measured (a measurement's rep, order,
//     connections, offered rate) decides which cell a number lands in; one
//     out of range is refused with its key, and the run is not read;
//   - a value that is a fact shown beside the numbers (build, start-up and
//     CPU seconds, sizes, how far sending fell behind, a run's or a
//     measurement's end) is set to unknown (0, or no end) with a warning
//     naming its key: the rest of the run is sound, and a page saying
//     "took -2m9s" or "built in 9.22e+09 s" is worse than one saying
//     nothing.
//
// The bounds are far beyond any real run: a week of seconds for anything
// timed, a pebibyte for anything sized, a billion requests a second.
const (
	maxSeconds = 7 * 24 * 3600
	maxBytes   = 1 << 50
	maxRate    = 1e9
	maxCount   = 1 << 30 // a rep, an order, connections
)

// Ranges checks m's values: it returns the warnings of values set to
// unknown, and an *Error naming the first value that refuses the run.
func (m *Manifest) Ranges() ([]string, error) {
	c := &ranges{}
	if m.End != nil && m.End.Before(m.Start) {
		c.warnf("end %s is before start %s: the run's length is unknown", m.End.Format(time.RFC3339), m.Start.Format(time.RFC3339))
		m.End = nil
	}
	c.bytes("host.memory_bytes", &m.Facts.MemoryBytes)
	for i := range m.Services {
		s := &m.Services[i]
		c.seconds(fmt.Sprintf("services[%d].startup_s", i), &s.StartupS)
		c.seconds(fmt.Sprintf("services[%d].seed_s", i), &s.SeedS)
	}
	for i := range m.Targets {
		t := &m.Targets[i]
		at := fmt.Sprintf("targets[%d] (%s).", i, t.Name)
		c.seconds(at+"build_s", &t.BuildS)
		c.seconds(at+"startup_s", &t.StartupS)
		c.bytes(at+"artifact_bytes", &t.ArtifactBytes)
		c.rss(at, &t.RSSBefore, &t.RSSAfter, &t.RSSPeak)
	}
	for i := range m.Measurements {
		mr := &m.Measurements[i]
		at := fmt.Sprintf("measurements[%d] (%s/%s rep %d).", i, mr.Target, mr.Scenario, mr.Rep)
		c.refuseCount(at+"rep", mr.Rep)
		c.refuseCount(at+"order", mr.Order)
		c.refuseCount(at+"connections", mr.Connections)
		c.refuseRate(at+"rate", mr.Rate)
		c.refuseRate(at+"capacity", mr.Capacity)
		if !mr.End.IsZero() && mr.End.Before(mr.Start) {
			c.warnf("%send %s is before its start %s: its end is unknown", at, mr.End.Format(time.RFC3339Nano), mr.Start.Format(time.RFC3339Nano))
			mr.End = time.Time{}
		}
		c.seconds(at+"server_cpu_s", &mr.ServerCPUSeconds)
		c.seconds(at+"client_cpu_s", &mr.ClientCPUSeconds)
		c.seconds(at+"startup_s", &mr.StartupS)
		c.seconds(at+"behind_s", &mr.BehindS)
		c.rate(at+"send_rate", &mr.SendRate)
		c.rss(at, &mr.RSSBefore, &mr.RSSAfter, &mr.RSSPeak)
	}
	return c.warnings, c.err
}

// ranges gathers the warnings and the first refusal of one check.
type ranges struct {
	warnings []string
	err      error
}

func (c *ranges) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// seconds sets a time in seconds outside 0..maxSeconds to unknown (0).
func (c *ranges) seconds(key string, v *float64) {
	if bad(*v, maxSeconds) {
		c.warnf("%s %g is out of range (0 to %d s): shown as unknown", key, *v, maxSeconds)
		*v = 0
	}
}

// rate sets a rate outside 0..maxRate to unknown (0).
func (c *ranges) rate(key string, v *float64) {
	if bad(*v, maxRate) {
		c.warnf("%s %g is out of range (0 to %g req/s): shown as unknown", key, *v, maxRate)
		*v = 0
	}
}

// bytes sets a size outside 0..maxBytes to unknown (0).
func (c *ranges) bytes(key string, v *int64) {
	if *v < 0 || *v > maxBytes {
		c.warnf("%s %d is out of range (0 to %d): shown as unknown", key, *v, int64(maxBytes))
		*v = 0
	}
}

// rss checks the resident sizes of a server, before, after and at peak.
func (c *ranges) rss(at string, before, after, peak *int64) {
	c.bytes(at+"rss_before_bytes", before)
	c.bytes(at+"rss_after_bytes", after)
	c.bytes(at+"rss_peak_bytes", peak)
}

func (c *ranges) refuseCount(key string, n int) {
	if c.err == nil && (n < 0 || n > maxCount) {
		c.err = &Error{Msg: fmt.Sprintf("%s %d is out of range (0 to %d): it says which cell a dump counts in; correct it", key, n, maxCount)}
	}
}

func (c *ranges) refuseRate(key string, r float64) {
	if c.err == nil && bad(r, maxRate) {
		c.err = &Error{Msg: fmt.Sprintf("%s %g is out of range (0 to %g req/s): it says what was measured; correct it", key, r, maxRate)}
	}
}

func bad(x, hi float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > hi }
