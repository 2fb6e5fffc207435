package render

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// realRunsSite renders the three real runs under parse/testdata/runs (Go
// routers, JS frameworks, NestJS) with site/site.toml's cards and tables,
// the way the project's own site is built, into a temporary folder.
func realRunsSite(t testing.TB) string {
	t.Helper()
	site, err := LoadSite(filepath.Join("..", "site"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join("..", "parse", "testdata", "runs", "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no runs under parse/testdata/runs: %v", err)
	}
	set, errs := parse.ReadAll(paths)
	for _, err := range errs {
		t.Errorf("reading the real runs: %v", err)
	}
	return build(t, set, site)
}

var (
	claimRe = regexp.MustCompile(`data-claim`)
	crRe    = regexp.MustCompile(`class="(?:change )?cr[^"]*"[^>]*>([^<]*)<`)
	stRe    = regexp.MustCompile(`<span class="st( bound)?">(.*?)</span>\s*(?:req/s|req per CPU s|good req/s)(; ([0-9.]+)× before the host speed probe[^<]*)?</span>`)
	svRe    = regexp.MustCompile(`<span class="sv">([^<]*)</span>`)
)

// claim is one printed ratio and the statistic printed beside it.
type claim struct {
	page, text   string
	ratio        float64 // as printed: "1.23×" is 1.23, "+23.0%" is 1.23
	base, other  float64 // as printed
	bound, isPct bool
	// speed: the ratio is the geometric means' with the host speed
	// probe's share taken out (verdict.MethodBlockedSpeed), and says so
	// beside the geometric means' own ratio, own.
	speed bool
	own   float64
}

// claimsOf finds every card row, escape figure and comparison cell of an
// HTML page: each starts at a data-claim attribute and holds its ratio
// (class "cr") and the statistic it divides (class "st", base → other).
func claimsOf(t *testing.T, page, html string) []claim {
	t.Helper()
	var out []claim
	at := claimRe.FindAllStringIndex(html, -1)
	for i, a := range at {
		end := len(html)
		if i+1 < len(at) {
			end = at[i+1][0]
		}
		chunk := html[a[0]:end]
		cr := crRe.FindStringSubmatch(chunk)
		st := stRe.FindStringSubmatch(chunk)
		if cr == nil || st == nil {
			t.Errorf("%s: a claim without its ratio or statistic: %.300s", page, chunk)
			continue
		}
		sv := svRe.FindAllStringSubmatch(st[0], -1)
		if len(sv) != 2 {
			t.Errorf("%s: a statistic without two numbers: %s", page, st[0])
			continue
		}
		c := claim{page: page, text: strings.TrimSpace(cr[1]), bound: st[1] != "", speed: st[3] != "", base: number(t, sv[0][1]), other: number(t, sv[1][1])}
		if c.speed {
			c.own, _ = strconv.ParseFloat(st[4], 64)
		}
		r := strings.TrimSpace(strings.NewReplacer("~", "", "=", "", "≥", "", "≤", "", "&#43;", "+").Replace(c.text))
		if p, ok := strings.CutSuffix(r, "%"); ok {
			c.isPct = true
			v, err := strconv.ParseFloat(p, 64)
			if err != nil {
				t.Fatalf("%s: ratio %q: %v", page, c.text, err)
			}
			c.ratio = 1 + v/100
		} else {
			v, err := strconv.ParseFloat(strings.TrimSuffix(r, "×"), 64)
			if err != nil {
				t.Fatalf("%s: ratio %q: %v", page, c.text, err)
			}
			c.ratio = v
		}
		out = append(out, c)
	}
	return out
}

// number reads a Count: "45,918", "1.20M".
func number(t *testing.T, s string) float64 {
	t.Helper()
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "M"):
		s, mult = strings.TrimSuffix(s, "M"), 1e6
	case strings.HasSuffix(s, "G"):
		s, mult = strings.TrimSuffix(s, "G"), 1e9
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v * mult
}

// TestNumbersAgreeWithNeighbours: over the site built from the real runs,
// every ratio a card or comparison table prints is within 1% of the two
// numbers printed beside it (other ÷ base), except a "≥"/"≤" cell, which
// prints its interval's end and must say so, and a cell whose ratio has
// the host speed probe's share taken out, which says so and prints the
// geometric means' own ratio, within 1% of them (its ratio stays within
// 25% of theirs: the probe moves a ratio by a few percent, not a quarter). (Before this test, 160 of 367
// such cells of the project's site printed a ratio of geometric means
// beside two medians, some pointing the other way.)
func TestNumbersAgreeWithNeighbours(t *testing.T) {
	sites := map[string]func(*testing.T) string{"parse/testdata/runs": func(t *testing.T) string { return realRunsSite(t) }}
	if !testing.Short() {
		// The project's own site, every committed run, as Netlify builds it.
		sites["site/"] = func(t *testing.T) string { return buildProjectSite(t, filepath.Join(t.TempDir(), "project")) }
	}
	for name, site := range sites {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) { checkNeighbours(t, site(t)) })
	}
}

// checkNeighbours checks the claims of the index and results pages of the
// site built in out.
func checkNeighbours(t *testing.T, out string) {
	var all []claim
	for _, page := range []string{"index.html", "results.html"} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, claimsOf(t, page, string(b))...)
	}
	// The floor only proves the patterns still find the cells: the real
	// runs' card rows and comparison cells are 78 (the cards' escapes are
	// the scenario pages' pairs, no longer printed on the index).
	if len(all) < 60 {
		t.Fatalf("%d claims found on the index and results pages; the real runs' cards and tables have over 60", len(all))
	}
	far, bounds, speeds := 0, 0, 0
	for _, c := range all {
		bounded := strings.ContainsAny(c.text, "≥≤")
		if bounded != c.bound {
			t.Errorf("%s: %q: a bound cell must say it prints the interval's end, and only a bound cell may (said: %v)", c.page, c.text, c.bound)
		}
		if bounded {
			bounds++
			continue
		}
		want := c.other / c.base
		if c.speed {
			speeds++
			if d := math.Abs(c.own/want - 1); d > 0.01 {
				far++
				t.Errorf("%s: printed %.3f× before the speed probe but the numbers beside it give %.4f (%.1f%% away)", c.page, c.own, want, d*100)
			}
			if d := math.Abs(c.ratio/want - 1); d > 0.25 {
				t.Errorf("%s: printed %q with the speed probe taken out, but the numbers beside it give %.4f (%.1f%% away)", c.page, c.text, want, d*100)
			}
			continue
		}
		// The printed ratio has 3 significant digits (a percent, 0.1%), the
		// printed numbers are rounded to units: 1% is far beyond both.
		if d := math.Abs(c.ratio/want - 1); d > 0.01 {
			far++
			t.Errorf("%s: printed %q but the numbers beside it give %.4f (%.1f%% away)", c.page, c.text, want, d*100)
		}
	}
	t.Logf("%d claims checked (%d interval bounds aside; %d speed-adjusted, checked by the own ratio they print), %d more than 1%% away from their neighbours", len(all), bounds, speeds, far)
}

// TestBoundCellSaysSo: a claim whose faster side saturated its load
// generator prints its interval's end nearer 1 with "≥" (or "≤" the other
// way round), says which end it is, and keeps the point ratio and the
// geometric means it divides beside it.
func TestBoundCellSaysSo(t *testing.T) {
	base := &verdict.Cell{Name: "slow", RPS: verdict.Stat{GeoMean: 1000}}
	other := &verdict.Cell{Name: "fast", RPS: verdict.Stat{GeoMean: 4000}}
	v := verdict.Verdict{A: "fast", B: "slow", CellA: other, CellB: base, Verdict: verdict.VerdictA, Reason: verdict.ReasonAtLeast,
		Ratio: 4, Lo: 2.5, Hi: 6, Level: 0.99, Method: verdict.MethodWelchLog}
	for _, tc := range []struct {
		c          verdict.Comparison
		other      string
		ratio, end string
		point      string
	}{
		{verdict.Comparison{Base: base.RPS, Other: other.RPS, Ratio: 4, Lo: 2.5, Hi: 6, Verdict: v}, "fast", "≥ 2.50×", "lower", "4.00×"},
		{verdict.Comparison{Base: other.RPS, Other: base.RPS, Ratio: 0.25, Lo: 1.0 / 6, Hi: 0.4, Verdict: v}, "slow", "≤ 0.400×", "upper", "0.250×"},
	} {
		j := judgementOf(tc.c, tc.other, "x")
		if j.Ratio != tc.ratio || !strings.Contains(j.Bound, tc.end) || j.Stat.Point != tc.point {
			t.Errorf("%s: ratio %q, bound %q, point %q; want %q, the %s end, %q", tc.other, j.Ratio, j.Bound, j.Stat.Point, tc.ratio, tc.end, tc.point)
		}
		if got := j.Stat.OtherV / j.Stat.BaseV; math.Abs(got-tc.c.Ratio) > 1e-9 {
			t.Errorf("%s: the statistic beside it divides to %g, the point ratio is %g", tc.other, got, tc.c.Ratio)
		}
	}
}
