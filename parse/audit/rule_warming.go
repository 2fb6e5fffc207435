package audit

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleStillWarming: a fresh process's first window ran below its later ones.
const RuleStillWarming = "still-warming" // the noise pilots' first windows well below their later ones: every number is of a server still warming

// A collect takes each repetition on a fresh server process after the
// suite's warm-up, so every window it counts is a process's first. Only
// the noise pilots keep processes alive for several windows (two servers
// of one program, in alternation): their first two windows are each
// process's first, their windows from the fifth on each process's third or
// later. Where the first ran well below the later ones, beyond what the
// pilots' own scatter allows, the warm-up ended before the program was
// warm, and every number of the run is of a server still warming; programs
// that warm at different speeds (a JIT against compiled code) are then
// compared unequally. The pilots run one program only (the twins), so the
// finding speaks for it and warns of the rest.

// warmingLater is the first window of a pilot counted as warm: each
// process's third.
const warmingLater = 4

// warmingFindings: per run with at least two pilots, the log ratio of each
// first window to the median of its pilot's warm windows; a warning when
// their mean lies below 1 − SlowFirst and a one-sided t-test over them
// says below at α.
func warmingFindings(set *parse.Set, th verdict.Thresholds) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		if r.Precision == nil {
			continue
		}
		gaps, pilots := firstWindowGaps(r.Precision.Pilots)
		if len(gaps) < 4 {
			continue
		}
		mean, variance := verdict.MeanVar(gaps)
		t := mean / math.Sqrt(variance/float64(len(gaps)))
		if !(math.Exp(mean) < 1-th.SlowFirst) || verdict.StudentTwoSided(t, float64(len(gaps)-1))/2 >= th.Alpha {
			continue
		}
		program := "the twins' program"
		if ts := r.Precision.Pilots[0].Targets; len(ts) > 0 {
			program = ts[0]
		}
		warm := "its"
		if w := runAdvice(r).warmup; w != "" {
			warm = "the " + w
		}
		fs = append(fs, Finding{Rule: RuleStillWarming, Level: LevelWarning, Run: r.ID, Target: program,
			Dumps: pilotFirstDumps(r, pilots), Message: fmt.Sprintf(
				"%s's first window after %s warm-up ran %.0f%% below the same processes' windows from their third on (the run's %d noise pilots: %d first windows, t = %.1f): every window this run counts is a fresh process's first, so its numbers are of servers still warming, and programs that warm at different speeds are compared unequally; lengthen [load] warmup until a first window reaches the later ones",
				program, warm, 100*(1-math.Exp(mean)), pilots, len(gaps), t)})
	}
	return fs
}

// firstWindowGaps are the log ratios of each pilot's first two windows to
// the median of its windows from warmingLater on, and how many pilots gave
// them (a pilot with an empty window gives none).
func firstWindowGaps(ps []runjson.Pilot) (gaps []float64, pilots int) {
	for _, p := range ps {
		if len(p.RPS) < warmingLater+4 || slices.ContainsFunc(p.RPS, func(v float64) bool { return !(v > 0) }) {
			continue
		}
		later := slices.Clone(p.RPS[warmingLater:])
		slices.Sort(later)
		warm := verdict.MedianSorted(later)
		gaps = append(gaps, math.Log(p.RPS[0]/warm), math.Log(p.RPS[1]/warm))
		pilots++
	}
	return gaps, pilots
}

// pilotFirstDumps is run.json, then the dump of each pilot's first two
// windows. A pilot's windows are numbered on from the last pilot's (12 a
// pilot), so pilot k's first windows are reps 12k+1 and 12k+2.
func pilotFirstDumps(r *parse.Run, pilots int) []string {
	out := []string{filepath.Join(r.Path, "run.json")}
	per := 0
	if len(r.Precision.Pilots) > 0 {
		per = len(r.Precision.Pilots[0].RPS)
	}
	for _, m := range r.Measurements {
		if m.Phase != parse.PhasePilot || m.Dump == "" || per == 0 {
			continue
		}
		if w := (m.Rep-1)%per + 1; w <= 2 && (m.Rep-1)/per < len(r.Precision.Pilots) {
			out = append(out, filepath.Join(r.Path, filepath.FromSlash(m.Dump)))
		}
	}
	return out
}
