package collect

import (
	"context"
	"fmt"
	"slices"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/parse/runjson"
)

// The collector keeps every process group it starts on an SSH host in
// run.json (Manifest.Leftovers) until it has seen it end. A group that could
// not be ended (its host out of reach), or whose collector died, is ended
// over a fresh connection when the host is reached again, in this run or
// on -resume; the boot id and start time recorded with it keep a reboot or
// a reused number from ending something else.

// Started records a process group fairbench started on a host.
func (c *collector) Started(l runjson.Leftover) {
	c.live = append(c.live, l)
	c.saveLive()
}

// Ended forgets a process group seen to end.
func (c *collector) Ended(l runjson.Leftover) {
	c.live = slices.DeleteFunc(c.live, func(x runjson.Leftover) bool { return x.Host == l.Host && x.Group == l.Group })
	c.saveLive()
}

// Unended keeps a process group that could not be ended, and says so.
func (c *collector) Unended(l runjson.Leftover, err error) {
	if !slices.ContainsFunc(c.live, func(x runjson.Leftover) bool { return x.Host == l.Host && x.Group == l.Group }) {
		c.live = append(c.live, l)
		c.saveLive()
	}
	c.note("host %s: %s (process group %d) could not be ended (%v): it is ended when the host is reached again, or by -resume", l.Host, l.What, l.Group, err)
}

func (c *collector) saveLive() {
	if c.dir != nil {
		c.dir.Update(func(m *runjson.Manifest) { m.Leftovers = slices.Clone(c.live) })
	}
}

// endLeftovers ends, over a fresh connection, the groups still recorded
// on h (every host when h is nil).
func (c *collector) endLeftovers(ctx context.Context, h *machine.SSHHost) {
	for _, l := range slices.Clone(c.live) {
		host := c.hostNamed(l.Host)
		if host == nil || (h != nil && host != h) {
			continue
		}
		c.opt.Progress.Step(fmt.Sprintf("host %s: ending %s (process group %d) left running", l.Host, l.What, l.Group), 0)
		if host.EndLeftover(ctx, l) == nil {
			c.Ended(l)
		}
	}
}
