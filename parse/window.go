package parse

import (
	"fmt"
	"strings"
	"time"
)

// A tool's measured window is the time its result says it measured over:
// wrk's and wrk2's "requests in 2.02s" (from the threads' start, so with
// their connections' setup, to the stop: answers in flight are not waited
// for), bombardier's timeTakenSeconds and autocannon's duration (to the
// end of the run: answers in flight at the window's end are waited for,
// each up to the request timeout). Each runs a little longer than asked in
// every real dump: a fixed start-up and teardown, and with many
// connections or pipelining a part in proportion; bombardier and
// autocannon up to a timeout more. Measured in the committed runs of
// site/results, parse/testdata and render/testdata and the tool fixtures
// of shared/fixtures/tools (measured ÷ asked):
//
//	bombardier -d 1s -t 2s (warm-ups)   n=5402  max 1.139
//	bombardier -d 1s -t 2s (sweep, c1)          1.747 (a request in flight waited for)
//	bombardier -d 1s -t 2s (sweep)      n=  22  max 1.580
//	bombardier -d 2s -t 2s              n=4705  max 1.055
//	bombardier -d 4s -t 2s              n= 660  max 1.006
//	autocannon -d 1 -t 10 (warm-ups)    n= 160  max 1.100
//	autocannon -d 10 -t 10 -p 10        n= 160  max 1.107
//	wrk -d 2s                           n=  13  max 1.065 (2.13 s, a server closing connections)
//	wrk2 -d 3s -R1000                   n=   4  max 1.340 (4.02 s, the same server)
//
// So a window may run over by windowSlack of the asked time plus the
// tool's fixed overrun plus, for a tool that waits for answers in flight,
// one request timeout (windowOverrun), and may not fall short by more than
// windowSlack. 2× the asked window is refused for every wrk window of 1 s
// and more (wrk2: 1.7 s), for bombardier's with its default 2 s timeout
// from 4 s on; shorter windows and longer timeouts leave a run's own
// cross-checks (its rate against its count over its time) to catch an
// edited time. A window cut short by a tenth is refused for every tool.

// windowOverrun is the most time a real run of tool goes past its window
// beyond windowSlack: start-up and teardown (500 ms, twice the most seen;
// wrk2's reconnecting threads 1.5 s), and for bombardier and autocannon,
// which wait for the answers in flight, one request timeout (timeout, or
// the tool's default when 0: bombardier 2 s, autocannon 10 s).
func windowOverrun(tool string, timeout time.Duration) time.Duration {
	switch tool {
	case ToolWrk2:
		return 1500 * time.Millisecond
	case ToolBombardier:
		return 500*time.Millisecond + cmpOrDuration(timeout, 2*time.Second)
	case ToolAutocannon:
		return 500*time.Millisecond + cmpOrDuration(timeout, 10*time.Second)
	}
	return 500 * time.Millisecond
}

func cmpOrDuration(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// windowProblem says what is wrong when a run of tool measured for a window
// far from the one asked, "" when nothing is or nothing was asked. Short
// by more than windowSlack: its counts cover a part of the window, or its
// duration was edited, and its rate would be read as the window's. Long
// by more than windowSlack and the tool's overrun (timeout is its request
// timeout, 0 when unknown): the run stalled past its window or its
// duration was edited. Only an exact ask is checked: bombardier's spec,
// the argv run.json recorded; a wrk header ("Running 2m test") rounds it.
func windowProblem(tool string, measured, asked, timeout time.Duration) string {
	if asked <= 0 {
		return ""
	}
	if float64(measured) < (1-windowSlack)*float64(asked) {
		return fmt.Sprintf("measured %s, more than %.0f%% short of the %s window asked for: the run was cut short or its dump changed; run it again",
			measured, windowSlack*100, asked)
	}
	over := windowOverrun(tool, timeout)
	if longest := time.Duration((1+windowSlack)*float64(asked)) + over; measured > longest {
		return fmt.Sprintf("measured %s, over the %s a %s window of %s may take (%.0f%% and %s more): the run stalled past its window or its dump changed; run it again",
			measured, longest, tool, asked, windowSlack*100, over)
	}
	return ""
}

// checkWindow is windowProblem for m, read from file at line: why m is
// refused, "" when it is not. A bombardier or autocannon run past its
// window whose requests timed out is what the tools write: they wait for
// the requests in flight at the window's end, each up to the timeout and
// (bombardier's client) tried again, so a target that stalls then holds
// the run past any fixed overrun. It is read; its stall is a warning on m,
// said once, which the audit reports: its req/s are over the whole time.
// Past its window with no request timed out, nothing was waited for.
func checkWindow(m *Measurement, file string, line int, asked, timeout time.Duration) string {
	msg := windowProblem(m.Tool, m.Duration, asked, timeout)
	if msg == "" || m.Duration < asked || m.Errors.Timeout == 0 || (m.Tool != ToolBombardier && m.Tool != ToolAutocannon) {
		return msg
	}
	note := fmt.Sprintf("measured %s, %.1f× its %s window: %d requests timed out and %s waited for those in flight, so the run stalled past its window; its req/s are over the whole %s, the stall included",
		m.Duration, m.Duration.Seconds()/asked.Seconds(), asked, m.Errors.Timeout, m.Tool, m.Duration)
	for _, w := range m.Warnings {
		if strings.HasSuffix(w, note) {
			return ""
		}
	}
	m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: %s", file, line, note))
	return ""
}
