package verdict

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

var update = flag.Bool("update", false, "rewrite testdata/residuals.txt from the runs under ../../site/results")

// residualsFile holds the A/A residuals the null simulations resample:
// real run-to-run noise, frozen so that the simulations do not depend on
// which runs the site publishes. parse/audit's tests read it too.
const residualsFile = "testdata/residuals.txt"

// minResiduals is the fewest residuals a resampled simulation accepts.
const minResiduals = 100

// aaResiduals reads residualsFile: one residual of log throughput a line,
// '#' lines are comments.
func aaResiduals(t *testing.T) []float64 {
	t.Helper()
	res, err := readResiduals(residualsFile)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readResiduals reads a residuals file written by TestResiduals.
func readResiduals(name string) ([]float64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var res []float64
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s:%d: %q is not a residual", name, line, s)
		}
		res = append(res, x)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(res) < minResiduals {
		return nil, fmt.Errorf("%s: %d residuals, want at least %d", name, len(res), minResiduals)
	}
	return res, nil
}

// residualsOf are the deviations of every repetition from its cell's mean
// log throughput in set, each scaled by sqrt(n/(n−1)) so that resampled
// residuals keep the cell's variance. Cells with fewer than 3 repetitions
// or a repetition without throughput are left out.
func residualsOf(set *parse.Set) []float64 {
	var res []float64
	for _, c := range Cells(set, DefaultThresholds) {
		v := c.RPS.Values
		if len(v) < 3 || !(c.RPS.Min > 0) {
			continue
		}
		mean, _ := LogMeanVar(v)
		scale := math.Sqrt(float64(len(v)) / float64(len(v)-1))
		for _, x := range v {
			res = append(res, (math.Log(x)-mean)*scale)
		}
	}
	return res
}

// TestResiduals checks residualsFile; with -update it first rewrites it
// from the runs under ../../site/results.
func TestResiduals(t *testing.T) {
	if *update {
		runs, _ := filepath.Glob("../../site/results/*")
		if len(runs) == 0 {
			t.Fatal("-update: no runs under ../../site/results")
		}
		set, errs := parse.ReadAll(runs)
		if len(errs) > 0 {
			t.Fatalf("-update: %v", errs)
		}
		res := residualsOf(set)
		var b strings.Builder
		fmt.Fprintf(&b, "# Residuals of log throughput for the A/A simulations: each repetition's\n")
		fmt.Fprintf(&b, "# deviation from its cell's mean log req/s, scaled by sqrt(n/(n-1)), over\n")
		fmt.Fprintf(&b, "# every cell of 3 or more repetitions in %d runs:\n", len(runs))
		for _, r := range runs {
			fmt.Fprintf(&b, "#   %s\n", filepath.Base(r))
		}
		fmt.Fprintf(&b, "# Written by: go test ./parse/verdict -run TestResiduals -update\n")
		for _, x := range res {
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64) + "\n")
		}
		if err := os.MkdirAll(filepath.Dir(residualsFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(residualsFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := aaResiduals(t)
	// Residuals of one cell sum to zero, so the whole file's mean is
	// zero up to rounding; a file that is not residuals is caught here.
	var sum, sq float64
	for _, x := range res {
		sum += x
		sq += x * x
	}
	if mean := sum / float64(len(res)); math.Abs(mean) > 1e-9 {
		t.Errorf("%d residuals average %g, want 0", len(res), mean)
	}
	if sd := math.Sqrt(sq / float64(len(res))); !(sd > 0.001 && sd < 1) {
		t.Errorf("%d residuals have a standard deviation of %g: not run-to-run noise of log throughput", len(res), sd)
	}
}
