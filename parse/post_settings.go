package parse

import (
	"strconv"
	"strings"
)

// Where a load setting came from (SettingSources).
const (
	FromPrinted = "printed"      // the tool's own output
	FromCommand = "command line" // the command line before the output
	FromTitle   = "title line"   // the post's line that introduces the run
	FromUnknown = "unknown"      // nothing in the dump says; the value is empty
)

// SettingSources says, per load setting of a measurement, where its value
// came from: FromPrinted, FromCommand, FromTitle or FromUnknown. "" means
// the tool has no such setting or its output has no place for it (wrk's
// pipelining without a command line, bombardier's threads). A value is
// never guessed: an unknown setting stays at its zero value.
type SettingSources struct {
	URL, Connections, Threads, Pipelining, Duration string
}

// printedSettings notes which settings a reader filled, before a command
// line or a title adds to them.
type printedSettings struct {
	url, connections, threads, pipelining bool
	window                                int64
}

func settingsBefore(m *Measurement) printedSettings {
	return printedSettings{
		url: m.URL != "", connections: m.Connections > 0, threads: m.Threads > 0,
		pipelining: m.Pipelining > 0, window: int64(m.Window),
	}
}

// settle records where each setting came from, once the command line (cmd,
// nil if none) has been applied.
func settle(m *Measurement, before printedSettings, cmd *command) {
	s := &m.Settings
	from := func(cur *string, had, has bool) {
		switch {
		case had && *cur == "":
			*cur = FromPrinted
		case !had && has && (*cur == "" || *cur == FromUnknown):
			*cur = FromCommand
		}
	}
	from(&s.URL, before.url, m.URL != "")
	from(&s.Connections, before.connections, m.Connections > 0)
	from(&s.Threads, before.threads, m.Threads > 0)
	from(&s.Pipelining, before.pipelining, m.Pipelining > 0)
	switch w := int64(m.Window); {
	case before.window > 0 && w == before.window && s.Duration == "":
		s.Duration = FromPrinted
	case w > 0 && w != before.window:
		s.Duration = FromCommand // exact, where a header rounds ("Running 2m test" for -d 90s)
	}
	if cmd != nil {
		// A command line settles what it leaves at the default.
		switch cmd.tool() {
		case ToolAutocannon:
			setIfOpen(&s.Pipelining, FromCommand)
			setIfOpen(&s.Threads, FromCommand)
		case ToolWrk, ToolWrk2:
			if _, script := cmd.flag("-s", "--script"); !script {
				setIfOpen(&s.Pipelining, FromCommand)
			} else if m.Pipelining == 0 {
				s.Pipelining = FromUnknown // a Lua script may pipeline
			}
		}
	}
	if m.URL == "" {
		s.URL = FromUnknown
	}
	if m.Connections == 0 {
		s.Connections = FromUnknown
	}
}

// setIfOpen sets a setting's source where nothing has said it yet.
func setIfOpen(cur *string, v string) {
	if *cur == "" || *cur == FromUnknown {
		*cur = v
	}
}

// applySettings fills what command.apply leaves: pipelining (autocannon's
// -p, or the depth after "--" that wrk's pipeline scripts take) and
// autocannon's workers (-w).
func (c *command) applySettings(m *Measurement) {
	if m.Settings.Pipelining == FromPrinted || m.Settings.Threads == FromPrinted {
		return // the tool's own word stands
	}
	switch c.tool() {
	case ToolAutocannon:
		if m.Pipelining == 0 {
			m.Pipelining = c.intFlag("-p", "--pipelining")
		}
		if m.Threads == 0 {
			m.Threads = c.intFlag("-w", "--workers")
		}
	case ToolWrk, ToolWrk2:
		if m.Threads == 0 {
			m.Threads = c.intFlag("-t", "--threads")
		}
		script, ok := c.flag("-s", "--script")
		if m.Pipelining == 0 && ok && strings.Contains(script, "pipeline") {
			m.Pipelining = c.scriptDepth()
		}
	}
}

// intFlag is the value of an integer flag, 0 when absent or not a number.
func (c *command) intFlag(names ...string) int {
	v, ok := c.flag(names...)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// scriptDepth is the number after "--" on a wrk command line
// ("-s pipeline.lua http://… -- 16"), 0 if there is none.
func (c *command) scriptDepth() int {
	for i, a := range c.argv {
		if a == "--" && i+1 < len(c.argv) {
			n, err := strconv.Atoi(c.argv[i+1])
			if err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}
