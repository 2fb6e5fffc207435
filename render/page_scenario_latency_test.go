package render

import (
	"encoding/json"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// shownCell is one cell of a scenario page's latency table.
type shownCell struct {
	sort, text, href, title string
}

var (
	latencyTableRE = regexp.MustCompile(`(?s)<table class="sortable" id="latency-table">(.*?)</table>`)
	latencyHeadRE  = regexp.MustCompile(`<th scope="col"[^>]*>([^<]*)</th>`)
	latencyRowRE   = regexp.MustCompile(`<tr><td><a href="[^"]*">([^<]*)</a>(?: <small><a href="([^"]*)">rep \d+</a></small>)?</td>(.*)</tr>`)
	latencyCellRE  = regexp.MustCompile(`<td class="num"(?: data-v="([^"]*)")?>(?:<a href="([^"]*)" title="([^"]*)">([^<]*)</a>|<span title="([^"]*)">([^<]*)</span>|([^<]*))</td>`)
)

// readLatencyTable reads a scenario page's latency table: per target, its cells
// by column heading.
func readLatencyTable(t *testing.T, page string) map[string]map[string]shownCell {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	tm := latencyTableRE.FindSubmatch(b)
	if tm == nil {
		t.Fatalf("%s has no latency table", page)
	}
	var cols []string
	for _, h := range latencyHeadRE.FindAllStringSubmatch(string(tm[1]), -1) {
		cols = append(cols, html.UnescapeString(h[1]))
	}
	rows := map[string]map[string]shownCell{}
	for _, r := range latencyRowRE.FindAllStringSubmatch(string(tm[1]), -1) {
		cells := latencyCellRE.FindAllStringSubmatch(r[3], -1)
		if len(cells) != len(cols)-1 {
			t.Fatalf("%s: row %s has %d cells under %d headings %v", page, r[1], len(cells), len(cols)-1, cols[1:])
		}
		row := map[string]shownCell{}
		for i, c := range cells {
			cell := shownCell{sort: html.UnescapeString(c[1]), href: html.UnescapeString(c[2]), title: html.UnescapeString(c[3] + c[5]), text: html.UnescapeString(c[4] + c[6] + c[7])}
			// A figure the row's repetition printed is from the dump the
			// row links once, beside the target.
			if cell.href == "" && cell.sort != "" {
				cell.href = html.UnescapeString(r[2])
			}
			row[cols[i+1]] = cell
		}
		rows[r[1]] = row
	}
	return rows
}

// dumpSummary is what a dump printed of latency avg, stdev, max and bytes/s,
// read here from its text apart from package parse; ok is false where it
// printed no latency row.
type dumpSummary struct {
	avg, stdev, max time.Duration
	bps             float64
	writes, ok      bool
}

// readSummary reads a wrk, bombardier or autocannon text dump's latency
// row and transfer rate.
func readSummary(t *testing.T, dump string) dumpSummary {
	t.Helper()
	var s dumpSummary
	dur := func(x string) time.Duration {
		d, err := time.ParseDuration(strings.ReplaceAll(x, " ", ""))
		if err != nil {
			t.Fatalf("%q in the dump: %v", x, err)
		}
		return d
	}
	size := func(x string, base float64) float64 {
		x = strings.ReplaceAll(strings.TrimSuffix(x, "/s"), " ", "")
		units := []string{"KB", "MB", "GB"}
		if base == 1000 {
			units = []string{"kB", "MB", "GB"}
		}
		for i, u := range units {
			if v, ok := strings.CutSuffix(x, u); ok {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				return f * math.Pow(base, float64(i+1))
			}
		}
		t.Fatalf("size %q in the dump", x)
		return 0
	}
	var head []string
	for _, l := range strings.Split(dump, "\n") {
		f := strings.Fields(l)
		cells := strings.Split(strings.Trim(l, "│ "), "│")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		col := func(name string) string {
			for i, h := range head {
				if h == name && i < len(cells) {
					return cells[i]
				}
			}
			t.Fatalf("no %s column in %q", name, head)
			return ""
		}
		switch {
		case len(cells) > 1 && cells[0] == "Stat":
			head = cells
		case len(cells) > 1 && cells[0] == "Latency": // autocannon
			s.avg, s.stdev, s.max, s.ok = dur(col("Avg")), dur(col("Stdev")), dur(col("Max")), true
		case len(cells) > 1 && cells[0] == "Bytes/Sec":
			s.bps = size(col("Avg"), 1000)
		case len(f) >= 4 && f[0] == "Latency": // wrk, bombardier
			s.avg, s.stdev, s.max, s.ok = dur(f[1]), dur(f[2]), dur(f[3]), true
		case len(f) == 2 && f[0] == "Transfer/sec:":
			s.bps = size(f[1], 1024)
		case len(f) == 2 && f[0] == "Throughput:":
			s.bps, s.writes = size(f[1], 1024), true
		}
	}
	return s
}

// checkSummary checks a row's avg, stdev, max and bytes/s cells against
// what the dump printed: the same value to the nanosecond (the sort key),
// scaled for the cell, every digit in the title; "—" where it printed none.
func checkSummary(t *testing.T, where string, row map[string]shownCell, want dumpSummary) {
	t.Helper()
	for _, c := range []struct {
		col string
		d   time.Duration
	}{{"avg", want.avg}, {"stdev", want.stdev}, {"max", want.max}} {
		got := row[c.col]
		if !want.ok {
			if got.text != "—" || got.sort != "" || got.href != "" {
				t.Errorf("%s: %s is %q (sort %q), but the dump printed none: want —", where, c.col, got.text, got.sort)
			}
			continue
		}
		v, err := strconv.ParseFloat(got.sort, 64)
		if err != nil || time.Duration(math.Round(v*1e9)) != c.d {
			t.Errorf("%s: %s sorts by %q, the dump printed %v", where, c.col, got.sort, c.d)
		}
		if wantText := latencySeconds(c.d.Seconds()); got.text != wantText {
			t.Errorf("%s: %s reads %q, want %q", where, c.col, got.text, wantText)
		}
		if exact := msCell(c.d); !strings.Contains(got.title, exact) {
			t.Errorf("%s: %s's title %q lacks the printed %s", where, c.col, got.title, exact)
		}
	}
	got := row["bytes/s"]
	if want.bps == 0 {
		if got.text != "—" || got.sort != "" {
			t.Errorf("%s: bytes/s is %q, but the dump printed none: want —", where, got.text)
		}
		return
	}
	v, err := strconv.ParseFloat(got.sort, 64)
	if err != nil || math.Abs(v-want.bps) > 1e-6*want.bps {
		t.Errorf("%s: bytes/s sorts by %q, the dump printed %g", where, got.sort, want.bps)
	}
	wantText := Bytes(int64(math.Round(want.bps))) + "/s"
	if want.writes {
		wantText += "*"
	}
	if got.text != wantText {
		t.Errorf("%s: bytes/s reads %q, want %q", where, got.text, wantText)
	}
}

// TestScenarioLatencySummary renders one scenario of wrk, bombardier and
// autocannon dumps and an autocannon dump that printed no latency at all
// (--verbose false), and finds each target's avg, stdev, max and bytes/s
// as its dump printed them, "—" where it printed none.
func TestScenarioLatencySummary(t *testing.T) {
	dumps := map[string]string{}
	var paths []string
	for _, f := range []string{"wrk-4.1.0__latency", "bombardier-1.2.6__default", "autocannon-9.0.0__default", "autocannon-9.0.0__verbose_false"} {
		p := filepath.Join("..", "parse", "testdata", f+".txt")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dumps[f], paths = string(b), append(paths, p)
	}
	set, errs := parse.ReadAll(paths)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	pages, _ := filepath.Glob(filepath.Join(out, "scenario", "*.html"))
	if len(pages) != 1 {
		t.Fatalf("scenario pages %v, want one", pages)
	}
	rows := readLatencyTable(t, pages[0])
	printedNone := 0
	for target, dump := range dumps {
		row, ok := rows[target]
		if !ok {
			t.Fatalf("no latency row for %s in %v", target, rows)
		}
		want := readSummary(t, dump)
		if !want.ok {
			printedNone++
		}
		checkSummary(t, target, row, want)
	}
	if printedNone != 1 {
		t.Errorf("%d dumps printed no latency, want the one (the fixture changed?)", printedNone)
	}
	if p := rows["autocannon-9.0.0__default"]["p50"]; p.text != "0 ms" {
		t.Errorf("autocannon printed p50 \"0 ms\", the page shows %q", p.text)
	}
}

// TestScenarioLatencyMedianRep checks on the fixture run (five repetitions
// a target, bombardier JSON) that every avg, stdev, max and bytes/s is the
// lower-median repetition's: its dump, as the p50 beside it, and the
// figures that dump's JSON holds.
func TestScenarioLatencyMedianRep(t *testing.T) {
	set, site := fixture(t)
	out := build(t, set, site)
	pick := map[string]*parse.Measurement{} // by "scenario/target"
	for _, c := range verdict.Cells(set, verdict.DefaultThresholds) {
		pick[c.Scenario+"/"+c.Name] = c.MedianRep(verdict.MetricRPS)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "scenario", "*.html"))
	checked := 0
	for _, page := range pages {
		scenario := strings.TrimSuffix(filepath.Base(page), ".html")
		for target, row := range readLatencyTable(t, page) {
			where := scenario + "/" + target
			rep := pick[where]
			if rep == nil {
				t.Fatalf("%s: no cell", where)
			}
			if !strings.HasSuffix(row["avg"].href, filepath.ToSlash(filepath.Base(filepath.Dir(rep.Source.File)))+"/"+filepath.Base(rep.Source.File)) {
				t.Errorf("%s: avg links to %s, the lower-median repetition is %s", where, row["avg"].href, rep.Source.File)
			}
			for _, col := range []string{"stdev", "max", "bytes/s"} {
				if row[col].href != row["p50"].href || row[col].href != row["avg"].href {
					t.Errorf("%s: %s links to %s, p50 to %s: not one repetition", where, col, row[col].href, row["p50"].href)
				}
			}
			b, err := os.ReadFile(rep.Source.File)
			if err != nil {
				t.Fatal(err)
			}
			var j struct {
				Result struct {
					BytesRead, BytesWritten int64
					TimeTakenSeconds        float64
					Latency                 struct{ Mean, Stddev, Max float64 } // µs
				}
			}
			if err := json.Unmarshal(b, &j); err != nil {
				t.Fatalf("%s: %v", rep.Source.File, err)
			}
			us := func(v float64) time.Duration { return time.Duration(math.Round(v * 1e3)) }
			r := j.Result
			checkSummary(t, where, row, dumpSummary{
				avg: us(r.Latency.Mean), stdev: us(r.Latency.Stddev), max: us(r.Latency.Max),
				bps: float64(r.BytesRead+r.BytesWritten) / r.TimeTakenSeconds, writes: true, ok: true,
			})
			checked++
		}
	}
	if checked < 6 {
		t.Errorf("checked %d rows, want every target of every scenario", checked)
	}
}
