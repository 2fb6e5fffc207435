package collect

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Two collects measuring on one host at once would each measure the other
// (their load windows overlap, and only a later cpu-interference warning
// would show it). So a collect that runs targets or load tools on this
// machine holds the host lock (Options.HostLock, rundir.WaitLock) from
// before its first build until its last window: a second collect waits
// its turn, saying who holds the host, since when and for which run, and
// Ctrl-C stops the wait. The lock is the user's (it lives in the user's
// cache folder): collects of two users on one host do not see each other.

// hostRemind is how often a collect waiting for the host says so again.
const hostRemind = time.Minute

// lockHost takes the host lock, waiting for it, when the collect measures
// on this machine; the returned func lets it go.
func (c *collector) lockHost(ctx context.Context) (func(), error) {
	if c.opt.HostLock == "" || (c.server != c.here && c.client != c.here) {
		return func() {}, nil
	}
	m := c.dir.Manifest()
	note := fmt.Sprintf("collect of %s, run %s", c.dir.Path, m.ID)
	l, err := rundir.WaitLock(ctx, c.opt.HostLock, note, hostRemind, func(h rundir.Holder, waited time.Duration) {
		c.opt.Progress.Note(hostWaitNote(h, waited, c.opt.Now()))
	})
	if ctx.Err() != nil {
		uerr := c.dir.Update(func(m *runjson.Manifest) { m.Status = runjson.StatusInterrupted })
		return func() {}, errors.Join(fmt.Errorf("interrupted while waiting for this host: finish with -resume %s", c.dir.Path), uerr)
	}
	if err != nil {
		return func() {}, fmt.Errorf("host lock %s: %w", c.opt.HostLock, err)
	}
	return l.Unlock, nil
}

// hostWaitNote says who holds the host, for a collect waiting for it.
func hostWaitNote(h rundir.Holder, waited time.Duration, now time.Time) string {
	what := h.Note
	if what == "" {
		what = "another collect"
	}
	since := ""
	if !h.Since.IsZero() {
		since = fmt.Sprintf(" since %s (%s)", h.Since.UTC().Format("15:04:05Z"), now.Sub(h.Since).Round(time.Second))
	}
	msg := fmt.Sprintf("waiting for this host: %s (%s) measures on it%s; this collect starts when it ends (Ctrl-C stops waiting)", h, what, since)
	if waited >= time.Second {
		msg += fmt.Sprintf(", waited %s so far", waited.Round(time.Second))
	}
	return msg
}
