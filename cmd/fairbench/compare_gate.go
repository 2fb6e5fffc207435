package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/history"
)

// gateFlags are compare's flags of its gate mode.
type gateFlags struct {
	threshold float64
	alpha     float64
	json      bool
	anyKey    bool
}

// parseShare reads a threshold as "5%" or "0.05".
func parseShare(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a share (5%% or 0.05)", s)
	}
	if pct {
		v /= 100
	}
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("%q is not between 0 and 100%%", s)
	}
	return v, nil
}

// gateReport is the gate's decision with the runs it read, as -json
// writes it.
type gateReport struct {
	Baselines  []string `json:"baselines"`
	Run        string   `json:"run"`
	KeyChanges []string `json:"key_changes,omitempty"`
	*history.Gate
}

// runGate gates the last path's run against the runs of the other paths.
func runGate(e *env, paths []string, gf gateFlags) error {
	var base []*history.Run
	var inErr error
	var keys []history.Key
	var ids []string
	var next *history.Run
	var nextKey history.Key
	for i, p := range paths {
		set, err := readSide(e, p)
		if set == nil {
			return err
		}
		inErr = worse(inErr, err)
		runs := history.RunsOf(set)
		last := i == len(paths)-1
		if last && len(runs) != 1 {
			return usageErr("compare: the new side %s holds %d runs: give it one", p, len(runs))
		}
		for j, r := range runs {
			k := keyOf(set, r.ID)
			if last {
				next, nextKey = runs[j], k
				continue
			}
			base, keys, ids = append(base, r), append(keys, k), append(ids, r.ID)
		}
	}
	rep := gateReport{Baselines: ids, Run: next.ID}
	for i, k := range keys {
		if ids[i] == next.ID {
			return usageErr("compare: run %s is both a baseline and the new run", next.ID)
		}
		for _, d := range k.Diff(nextKey) {
			rep.KeyChanges = append(rep.KeyChanges, fmt.Sprintf("run %s → %s: %s", ids[i], next.ID, d))
		}
	}
	// The baselines must be comparable among themselves too: a field such
	// as the speed probe's class compares within a ratio, so a baseline can
	// match the new run and still differ from another baseline.
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			for _, d := range keys[i].Diff(keys[j]) {
				rep.KeyChanges = append(rep.KeyChanges, fmt.Sprintf("run %s → %s: %s", ids[i], ids[j], d))
			}
		}
	}
	if len(rep.KeyChanges) > 0 && !gf.anyKey {
		return usageErr("compare: the runs are not comparable (give -any-key to gate anyway):\n  %s", strings.Join(rep.KeyChanges, "\n  "))
	}
	g, err := history.Decide(base, next, history.GateOptions{Threshold: gf.threshold, Alpha: gf.alpha})
	if err != nil {
		return usageErr("compare: %v", err)
	}
	rep.Gate = g
	if gf.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		writeGate(e.stdout, rep)
	}
	if g.Failed {
		return worse(failure(fmt.Errorf("compare: gate failed: run %s is slower than its baseline by ≥ %g%%", next.ID, gf.threshold*100)), inErr)
	}
	return inErr
}

// keyOf is the comparability key of run id in set; empty for dumps read
// without a run dir.
func keyOf(set *parse.Set, id string) history.Key {
	for _, r := range set.Runs {
		if r.ID == id {
			return history.KeyOf(r, set)
		}
	}
	return nil
}

// writeGate writes the gate's decision as a table and a verdict line.
func writeGate(w io.Writer, rep gateReport) {
	g := rep.Gate
	fmt.Fprintf(w, "gate: run %s against %d baseline run(s) %s: slower by ≥ %g%% at α %g, Holm over the gated places\n",
		rep.Run, len(rep.Baselines), strings.Join(rep.Baselines, ", "), g.Threshold*100, g.Alpha)
	fmt.Fprintf(w, "run-to-run sd of a target %.2f%% from %d A/A twin pairs, %.2f%% from the runs' own scatter (%d df); each row counts the larger\n",
		g.Tau*100, g.TauPairs, g.Spread*100, g.SpreadDF)
	for _, n := range append(rep.KeyChanges, g.Notes...) {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\ttarget\tratio\tinterval\tp (Holm)\tverdict")
	for _, r := range g.Rows {
		name := r.Target
		if r.Runtime != "" {
			name += " (" + r.Runtime + ")"
		}
		verdict := "ok"
		switch {
		case r.Twin:
			verdict = "twin, not gated"
		case r.Slower:
			verdict = "SLOWER"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t[%.3f, %.3f]\t%.3g\t%s\n", r.Scenario, name, r.Ratio, r.Low, r.High, r.PAdjusted, verdict)
	}
	tw.Flush()
	if g.Failed {
		fmt.Fprintln(w, "FAIL: a target is slower than its baseline by at least the threshold")
	} else {
		fmt.Fprintln(w, "PASS: no target claimed slower by the threshold")
	}
}
