package audit

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

func TestWriteCompare(t *testing.T) {
	a := setOf(
		series("ra", "gin", "ping", 0, 0, 100000, 101000, 102000, 103000, 104000),
		series("ra", "echo", "ping", 0, 0, 50000, 50500, 51000, 49500, 50200),
		series("ra", "koa", "ping", 0, 0, 20000, 20100, 20200),
		series("ra", "old", "ping", 0, 0, 1000),
	)
	a.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "ra"}}}
	b := setOf(
		series("rb", "gin", "ping", 0, 0, 110000, 111000, 112000, 113000, 114000),
		series("rb", "echo", "ping", 0, 0, 50100, 50400, 50900, 49600, 50300),
		series("rb", "koa", "ping", 0, 0, 19000, 19100, 19200),
	)
	b.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "rb"}}}
	for _, m := range cellOf(b, "echo") {
		m.Connections = 128
	}
	var out bytes.Buffer
	// The connections differ: an ERROR note, and the error that says so.
	if err := WriteCompare(&out, a, b, CompareOptions{}); !errors.Is(err, ErrCompareVoid) {
		t.Errorf("WriteCompare with an ERROR note: %v, want ErrCompareVoid", err)
	}
	want := `req/s      ra                       rb                       vs base                p         n
           median (interval)        median (interval)        B ÷ A, geomean         Holm
echo/ping  50.20k (49.50k–51.00k)*  50.30k (49.60k–50.90k)*  ~ +0.0%                0.951     5+5
gin/ping   102.0k (100.0k–104.0k)*  112.0k (110.0k–114.0k)*  +9.8% [+6.7%, +13.0%]  2.76e-05  5+5
koa/ping   20.10k (20.00k–20.20k)*  19.10k (19.00k–19.20k)*  -5.0% [-6.4%, -3.6%]   0.00052   3+3
old/ping   1.000k (1.000k–1.000k)*  —
geomean    46.86k                   47.56k                   +1.49%

note: interval: the 95% confidence interval of the median; * marks the min–max of the repetitions where too few exist for one
note: vs base: B ÷ A of the geometric means, with its interval at the Holm step's level; Welch's t-test on log req/s, Holm-adjusted p over each scenario's rows; a change is claimed only when p < 0.05 and the interval clears the 2% noise threshold; "~": no change claimed; "?": n < 3; "≠ request": the two cells were sent different requests, not compared
note: margin: the 2% threshold alone, where the site's pages use the larger of it and the run's systematic A/A difference: two runs share no twins; a row whose load generator was saturated (its CPUs 90% busy, its server's not) is decided on requests per server CPU second where both runs recorded it, else as at least or "~", as the site decides
note: ERROR in ping: connections differ within one comparison: 128 (echo); 64 (echo, gin, koa, old); compare like with like: measure every target with the same settings
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestWriteCompareGoodRPS(t *testing.T) {
	a := setOf(series("ra", "gin", "ping", 0, 0, 1000, 1001, 1002, 1003, 1004))
	b := setOf(series("rb", "gin", "ping", 0, 0, 1000, 1001, 1002, 1003, 1004))
	for _, m := range b.Measurements {
		m.Status.C2xx, m.Status.C5xx = m.Status.C2xx/2, m.Status.C2xx-m.Status.C2xx/2
	}
	var out bytes.Buffer
	if err := WriteCompare(&out, a, b, CompareOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("\ngood req/s  A")) || !bytes.Contains(out.Bytes(), []byte("-50.0% [")) {
		t.Errorf("no good req/s table halving gin:\n%s", out.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("gin/ping  1.002k (1.000k–1.004k)*  1.002k (1.000k–1.004k)*  ~")) {
		t.Errorf("the req/s table should show no change:\n%s", out.String())
	}
}

// TestWriteCompareNoErrorsOneTable: without error responses good req/s is
// req/s, so no second table, even where the tool's own req/s (bombardier's
// mean of rate samples) differs from requests ÷ window.
func TestWriteCompareNoErrorsOneTable(t *testing.T) {
	a := setOf(series("ra", "gin", "ping", 0, 0, 1000, 1001, 1002, 1003, 1004))
	b := setOf(series("rb", "gin", "ping", 0, 0, 1000, 1001, 1002, 1003, 1004))
	for _, m := range append(a.Measurements, b.Measurements...) {
		m.Tool, m.RPS = parse.ToolBombardier, m.RPS*1.03
	}
	var out bytes.Buffer
	if err := WriteCompare(&out, a, b, CompareOptions{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte("good req/s")) || bytes.Contains(out.Bytes(), []byte("∞")) {
		t.Errorf("a second table or an infinite interval without errors:\n%s", out.String())
	}
}

// TestWriteCompareClientBound: where the load generator held both runs'
// cells at one req/s, the change is read from requests per server CPU
// second: 10% more CPU per request in B is a 9.1% loss.
func TestWriteCompareClientBound(t *testing.T) {
	run := func(id string, cpu float64) *parse.Set {
		ms := series(id, "gin", "ping", 0, 0, 1000, 1002, 998, 1001, 999, 1000)
		for i, m := range ms {
			m.ClientCPU, m.ServerCPU = 9.95, cpu*(1+0.004*float64(i%3-1))
		}
		s := setOf(ms)
		s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: id, Facts: runjson.Facts{Threads: 2}}}}
		s.Runs[0].Isolation.ServerCPUs, s.Runs[0].Isolation.ClientCPUs = "0", "1"
		return s
	}
	var out bytes.Buffer
	if err := WriteCompare(&out, run("ra", 5), run("rb", 5.5), CompareOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "-9.1% [") || !strings.Contains(out.String(), "] per CPU s") {
		t.Errorf("compare of client-bound runs:\n%s\nwant the change in requests per CPU second, -9.1%%", out.String())
	}
}
