package parse

import (
	"fmt"
	"time"
)

// A tool's measured window is the time its result says it measured over:
// wrk's and wrk2's "requests in 2.02s" (from the threads' start, so with
// their connections' setup, to the stop: answers in flight are not waited
// for), bombardier's timeTakenSeconds and autocannon's duration (from the
// first connection to the end of the run). Each runs a little longer than
// asked in every real dump: a fixed start-up and teardown, and with many
// connections or pipelining a part in proportion. Measured in the
// committed runs of site/results and the tool fixtures of
// shared/fixtures/tools (measured ÷ asked):
//
//	bombardier -d 1s (warm-ups)  n=4792  max 1.139
//	bombardier -d 2s             n=4168  max 1.055
//	bombardier -d 4s             n= 624  max 1.006
//	autocannon -d 1 (warm-ups)   n=  80  max 1.100
//	autocannon -d 10 -p 10       n=  80  max 1.107
//	wrk -d 2s                    n=  13  max 1.065 (2.13 s, a server closing connections)
//	wrk2 -d 3s -R1000            n=   4  max 1.340 (4.02 s, the same server)
//
// So a window may run over by windowSlack of the asked time plus the
// tool's fixed overrun (windowOverrun), and may not fall short by more
// than windowSlack: 2× the asked window is refused for every window of
// 1 s and more (wrk2: of 1.7 s and more), a window cut short by a tenth
// too.

// windowOverrun is the fixed time a tool runs past its window in a real
// dump, beyond windowSlack of it: twice the most seen (above), wrk2's
// reconnecting threads taking the longest.
func windowOverrun(tool string) time.Duration {
	if tool == ToolWrk2 {
		return 1500 * time.Millisecond
	}
	return 500 * time.Millisecond
}

// windowProblem says what is wrong when a run of tool measured for a window
// far from the one asked, "" when nothing is or nothing was asked. Short
// by more than windowSlack: its counts cover a part of the window, or its
// duration was edited, and its rate would be read as the window's. Long
// by more than windowSlack and the tool's overrun: the run stalled (the
// tool waited on a hung server past its window) or its duration was
// edited. Only an exact ask is checked: bombardier's spec, the argv
// run.json recorded; a wrk header ("Running 2m test") rounds it.
func windowProblem(tool string, measured, asked time.Duration) string {
	if asked <= 0 {
		return ""
	}
	if float64(measured) < (1-windowSlack)*float64(asked) {
		return fmt.Sprintf("measured %s, more than %.0f%% short of the %s window asked for: the run was cut short or its dump changed; run it again",
			measured, windowSlack*100, asked)
	}
	if longest := time.Duration((1+windowSlack)*float64(asked)) + windowOverrun(tool); measured > longest {
		return fmt.Sprintf("measured %s, over the %s a %s window of %s may take (%.0f%% and %s more): the run stalled past its window or its dump changed; run it again",
			measured, longest, tool, asked, windowSlack*100, windowOverrun(tool))
	}
	return ""
}
