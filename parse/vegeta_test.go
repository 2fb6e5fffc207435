package parse

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The vegeta captures under testdata come in sets made from one attack's
// results each (testdata/vegeta-README.md): the reports and the encoded
// results of a set must tell the same story, within the rounding of what
// each prints.

const vegetaPrefix = "testdata/vegeta-12.13.0__"

// readVegeta reads one capture, which must hold one measurement and no error.
func readVegeta(t *testing.T, name string) *Measurement {
	t.Helper()
	ms, _, errs := readRecords(t, vegetaPrefix+name)
	if len(errs) > 0 || len(ms) != 1 {
		t.Fatalf("%s: %d measurements, errors %v", name, len(ms), errs)
	}
	return ms[0]
}

// nearDuration reports whether two durations agree within rel of want plus abs.
func nearDuration(got, want time.Duration, rel float64, abs time.Duration) bool {
	return math.Abs(float64(got-want)) <= rel*float64(want)+float64(abs)
}

func TestVegetaReportsAgree(t *testing.T) {
	for _, c := range []string{"ok", "refused", "timeout", "non2xx", "behind"} {
		js, text, dump := readVegeta(t, c+"_json.json"), readVegeta(t, c+"_text.txt"), readVegeta(t, c+"_rundir.txt")
		if js.Requests != text.Requests || js.Status != text.Status || js.Errors.Total() != text.Errors.Total() ||
			len(js.Errors.Messages) != len(text.Errors.Messages) {
			t.Errorf("%s: JSON %d requests %+v %+v, text %d %+v %+v", c, js.Requests, js.Status, js.Errors,
				text.Requests, text.Status, text.Errors)
		}
		// The text prints rates to 0.01 and durations to four figures or 1µs.
		if math.Abs(js.Open.SendRate-text.Open.SendRate) > 0.005 || math.Abs(js.ToolRPS-text.ToolRPS) > 0.005 ||
			math.Abs(js.Open.Success-text.Open.Success) > 0.00005 {
			t.Errorf("%s: JSON rate %g throughput %g success %g, text %g %g %g", c, js.Open.SendRate, js.ToolRPS,
				js.Open.Success, text.Open.SendRate, text.ToolRPS, text.Open.Success)
		}
		for i, p := range js.Latency.Percentiles {
			if q := text.Latency.Percentiles[i]; q.P != p.P || !nearDuration(q.Value, p.Value, 0.0005, time.Microsecond) {
				t.Errorf("%s: JSON p%g %s, text p%g %s", c, p.P, p.Value, q.P, q.Value)
			}
		}
		if !nearDuration(text.Duration, js.Duration, 0.0005, time.Microsecond) || !nearDuration(text.Latency.Max, js.Latency.Max, 0.0005, time.Microsecond) {
			t.Errorf("%s: JSON duration %s max %s, text %s %s", c, js.Duration, js.Latency.Max, text.Duration, text.Latency.Max)
		}
		// The run-dir dump is the JSON report and the histogram.
		if len(dump.Latency.Buckets) != 6 || dump.Source.LineEnd != 8 || dump.Requests != js.Requests {
			t.Errorf("%s: run-dir dump: %d buckets, lines to %d, %d requests", c, len(dump.Latency.Buckets), dump.Source.LineEnd, dump.Requests)
		}
	}
}

// TestVegetaResultsAgree sums the encoded results and compares them with
// vegeta's JSON report of the same results: vegeta computes rate,
// throughput, success and durations from the same nanoseconds, so they
// agree exactly; its percentiles are t-digest estimates.
func TestVegetaResultsAgree(t *testing.T) {
	for _, c := range []string{"ok", "refused", "non2xx", "behind"} {
		res, js := readVegeta(t, c+"_results.csv"), readVegeta(t, c+"_json.json")
		if res.Requests != js.Requests || res.Status != js.Status || !reflect.DeepEqual(res.Open, js.Open) || res.ToolRPS != js.ToolRPS ||
			res.Duration != js.Duration || res.Latency.Min != js.Latency.Min || res.Latency.Max != js.Latency.Max ||
			res.Latency.Mean != js.Latency.Mean || res.RPS != js.RPS {
			t.Errorf("%s: results %d %+v %+v tput %g dur %s lat %s/%s/%s, JSON %d %+v %+v %g %s %s/%s/%s", c,
				res.Requests, res.Status, res.Open, res.ToolRPS, res.Duration, res.Latency.Min, res.Latency.Mean, res.Latency.Max,
				js.Requests, js.Status, js.Open, js.ToolRPS, js.Duration, js.Latency.Min, js.Latency.Mean, js.Latency.Max)
		}
		for i, p := range js.Latency.Percentiles {
			if q := res.Latency.Percentiles[i]; !nearDuration(q.Value, p.Value, 0.25, 0) {
				t.Errorf("%s: exact p%g %s, vegeta's estimate %s", c, p.P, q.Value, p.Value)
			}
		}
		var counted int64
		for _, e := range res.Errors.Messages {
			counted += e.Count
		}
		if noStatus := res.Requests - (res.Status.C2xx + res.Status.C3xx + res.Status.C4xx + res.Status.C5xx); res.Errors.Total() != noStatus ||
			counted != noStatus+res.Status.C4xx+res.Status.C5xx {
			t.Errorf("%s: %d errors by kind, %d by message, %d requests without a status", c, res.Errors.Total(), counted, noStatus)
		}
	}
	jsonl := readVegeta(t, "non2xx_results.json")
	csv := readVegeta(t, "non2xx_results.csv")
	jsonl.Source, csv.Source = Source{}, Source{}
	checkMeasurement(t, "non2xx results, JSON against CSV", jsonl, csv)
}

// TestVegetaJSONBuckets: the JSON report's histogram (-buckets) is the
// histogram report's.
func TestVegetaJSONBuckets(t *testing.T) {
	js, hist := readVegeta(t, "ok_json_buckets.json"), readVegeta(t, "ok_hist.txt")
	if len(js.Latency.Buckets) != 6 || !reflect.DeepEqual(js.Latency.Buckets, hist.Latency.Buckets) {
		t.Errorf("JSON buckets %v, histogram %v", js.Latency.Buckets, hist.Latency.Buckets)
	}
}

// TestVegetaHistogram counts the latencies of the encoded results into the
// histogram report's buckets.
func TestVegetaHistogram(t *testing.T) {
	for _, c := range []string{"ok", "refused", "behind"} {
		hist := readVegeta(t, c+"_hist.txt")
		f, err := os.Open(vegetaPrefix + c + "_results.csv")
		if err != nil {
			t.Fatal(err)
		}
		results, err := ReadVegetaCSV(f, c)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int64, len(hist.Latency.Buckets))
		for _, r := range results {
			for i, b := range hist.Latency.Buckets {
				if r.Latency >= b.Low && (b.High == 0 || r.Latency < b.High) {
					counts[i]++
				}
			}
		}
		for i, b := range hist.Latency.Buckets {
			if b.Count != counts[i] {
				t.Errorf("%s: bucket [%s, %s] counts %d, the results %d", c, b.Low, b.High, b.Count, counts[i])
			}
		}
		if hist.Requests != int64(len(results)) || hist.Latency.Samples != hist.Requests {
			t.Errorf("%s: histogram of %d requests (%d samples), %d results", c, hist.Requests, hist.Latency.Samples, len(results))
		}
	}
}

func TestVegetaHDRPlot(t *testing.T) {
	plot, text := readVegeta(t, "timeout_hdrplot.txt"), readVegeta(t, "timeout_text.txt")
	if plot.Requests != text.Requests || !nearDuration(plot.Latency.Max, text.Latency.Max, 0.0005, 0) || !nearDuration(plot.Latency.Min, text.Latency.Min, 0.0005, 0) {
		t.Errorf("hdrplot %d requests, %s to %s; text %d, %s to %s", plot.Requests, plot.Latency.Min, plot.Latency.Max,
			text.Requests, text.Latency.Min, text.Latency.Max)
	}
	for _, p := range plot.Latency.Percentiles {
		for _, q := range text.Latency.Percentiles {
			if p.P == q.P && !nearDuration(p.Value, q.Value, 0.0005, 0) {
				t.Errorf("hdrplot p%g %s, text %s", p.P, p.Value, q.Value)
			}
		}
	}
}

// TestVegetaBehind measures how far a client with four workers fell behind
// 500 req/s against a server that answers 100 a second, and that a client
// that kept up did not.
func TestVegetaBehind(t *testing.T) {
	read := func(c string) []VegetaResult {
		f, err := os.Open(vegetaPrefix + c + "_results.csv")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		res, err := ReadVegetaCSV(f, c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// 156 requests sent over 2 s where 1000 were due: the last went out
	// about 2 s - 155/500 s late.
	if b := Behind(read("behind"), 500); b < 1500*time.Millisecond || b > 2*time.Second {
		t.Errorf("behind: %s, want about 1.7s", b)
	}
	if b := Behind(read("ok"), 500); b > 100*time.Millisecond {
		t.Errorf("ok: %s behind, want little", b)
	}
	t0 := time.Unix(1e9, 0)
	at := func(seq uint64, ms int) VegetaResult {
		return VegetaResult{Seq: seq, Timestamp: t0.Add(time.Duration(ms) * time.Millisecond)}
	}
	for _, c := range []struct {
		results []VegetaResult
		rate    float64
		want    time.Duration
	}{
		{[]VegetaResult{at(0, 0), at(1, 10), at(2, 20)}, 100, 0},
		{[]VegetaResult{at(2, 35), at(0, 0), at(1, 10)}, 100, 15 * time.Millisecond},
		{[]VegetaResult{at(0, 0), at(1, 5)}, 100, 0}, // early is not behind
		{[]VegetaResult{at(0, 0), at(1, 50)}, 0, 0},  // rate unknown
		{nil, 100, 0},
	} {
		if got := Behind(c.results, c.rate); got != c.want {
			t.Errorf("Behind(%v, %g) = %s, want %s", c.results, c.rate, got, c.want)
		}
	}
}

// TestVegetaHostile: cut, huge, NaN and mismatched inputs give a
// *SyntaxError naming the file and line, and no measurement made of them.
func TestVegetaHostile(t *testing.T) {
	text := string(readFixture(t, vegetaPrefix+"ok_text.txt"))
	js := string(readFixture(t, vegetaPrefix+"ok_json.json"))
	hist := string(readFixture(t, vegetaPrefix+"ok_hist.txt"))
	csv := string(readFixture(t, vegetaPrefix+"small_results.csv"))
	otherHist := string(readFixture(t, vegetaPrefix+"behind_hist.txt"))
	for _, c := range []struct {
		name, in string
		line     int
		want     string
		kept     int // measurements still read
	}{
		{"JSON cut", js[:len(js)/2], 1, "cut short", 0},
		{"JSON huge count", strings.Replace(js, `"requests":1000`, `"requests":1e400`, 1), 1, "vegeta JSON report", 0},
		{"JSON count over int64", strings.Replace(js, `"requests":1000`, `"requests":99999999999999999999`, 1), 1, "vegeta JSON report", 0},
		{"JSON NaN", strings.Replace(js, `"rate":500.51938696577685`, `"rate":NaN`, 1), 1, "vegeta JSON report", 0},
		{"JSON rate edited", strings.Replace(js, `"rate":500.51938696577685`, `"rate":900`, 1), 1, "send rate", 0},
		{"JSON no latencies", `{"latencies":null,"requests":1}`, 1, `no "latencies"`, 0},
		{"JSON bad code", strings.Replace(js, `"200":1000`, `"2x0":1000`, 1), 1, "status code", 0},
		{"text cut", text[:strings.Index(text, "Latencies")], 2, "no Latencies line", 0},
		{"text NaN", strings.Replace(text, "500.52", "NaN", 1), 1, `"NaN" is not a number`, 0},
		{"text huge", strings.Replace(text, "1000, 500.52", "99999999999999999999, 500.52", 1), 1, "not a count", 0},
		{"text success", strings.Replace(text, "100.00%", "500.00%", 1), 1, "success ratio", 0},
		{"text bad duration", strings.Replace(text, "1.998s", "1.998q", 1), 2, "not a duration", 0},
		{"hist count edited", strings.Replace(hist, "885 ", "886 ", 1), 1, "cut or changed", 0},
		{"hist cut", hist[:strings.Index(hist, "[50ms")], 1, "cut short", 0},
		{"hist bad row", strings.Replace(hist, "[1ms,", "[1ms;", 1), 3, "vegeta histogram", 0},
		{"run dir of other results", js + otherHist, 2, "not the same results", 1},
		{"results cut", csv[:strings.LastIndex(strings.TrimSuffix(csv, "\n"), "\n")+41], 10, "vegeta results", 1},
		{"results huge latency", strings.Replace(csv, ",200,", ",200,99999999999999999999,", 1), 1, "latency", 1},
	} {
		ms, _, errs := readString("v.txt", c.in)
		var se *SyntaxError
		if len(errs) == 0 || !errors.As(errs[0], &se) || se.File != "v.txt" || se.Line != c.line || !strings.Contains(se.Msg, c.want) {
			t.Errorf("%s: errors %v, want v.txt:%d: …%s…", c.name, errs, c.line, c.want)
		}
		if len(ms) != c.kept {
			t.Errorf("%s: %d measurements, want %d", c.name, len(ms), c.kept)
		}
	}
}

// TestVegetaReportErrors: a report names each error once and counts only
// status codes; with one error besides statuses, the requests without a
// response are its; with two, they are other errors, and a warning says so.
func TestVegetaReportErrors(t *testing.T) {
	text := string(readFixture(t, vegetaPrefix+"timeout_text.txt"))
	ms, _, errs := readString("v.txt", text+"read: connection reset by peer\n")
	if len(errs) > 0 || len(ms) != 1 {
		t.Fatalf("%d measurements, errors %v", len(ms), errs)
	}
	m := ms[0]
	if m.Errors.Other != 98 || m.Errors.Timeout != 0 || len(m.Warnings) != 1 || m.Errors.Messages[0].Count != 0 {
		t.Errorf("two errors: %+v, warnings %q", m.Errors, m.Warnings)
	}
	one := readVegeta(t, "timeout_text.txt")
	if one.Errors.Timeout != 98 || one.Errors.Messages[0].Count != 98 || len(one.Warnings) != 0 {
		t.Errorf("one error: %+v, warnings %q", one.Errors, one.Warnings)
	}
}

func TestReadVegetaCSVErrors(t *testing.T) {
	csv := string(readFixture(t, vegetaPrefix+"small_results.csv"))
	lines := strings.SplitAfter(csv, "\n")
	in := strings.Join(lines[:3], "") + `1796127356923360168,200,"unclosed` + "\n"
	res, err := ReadVegetaCSV(strings.NewReader(in), "r.csv")
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != "r.csv" || se.Line != 4 || len(res) != 3 {
		t.Errorf("got %d results, error %v; want 3 and r.csv:4", len(res), err)
	}
}

// TestVegetaFolder walks a folder of vegeta captures as `fairbench parse
// DIR` does: every report and CSV of results is read, the gob results are
// refused with the command that converts them, another CSV is left alone.
func TestVegetaFolder(t *testing.T) {
	dir := t.TempDir()
	names, _ := filepath.Glob(vegetaPrefix + "*")
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), readFixture(t, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "results.csv"), []byte("target,rps\ngin,1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var n int
	errs := Walk([]string{dir}, func(r Record) error {
		if m, ok := r.(*Measurement); ok && m.Tool == ToolVegeta && m.Phase == PhaseLatency {
			n++
		}
		return nil
	})
	if want := len(names) - 1; n != want || len(errs) != 1 || !strings.Contains(errs[0].Error(), "small_results.gob:1: vegeta's binary (gob) results, not read: convert them with `vegeta encode -to csv") {
		t.Errorf("%d vegeta measurements of %d files, errors %v; want %d and the gob's", n, len(names), errs, want)
	}
}

func TestVegetaRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"500/s", 500, true}, {"500/1s", 500, true}, {"1000/2s", 500, true}, {"500", 500, true},
		{"50/100ms", 500, true}, {"3/m", 0.05, true},
		{"0", 0, false}, {"-5/s", 0, false}, {"NaN/s", 0, false}, {"Inf", 0, false}, {"500/x", 0, false},
		{"500/0s", 0, false}, {"", 0, false},
	} {
		got, ok := vegetaRate(c.in)
		if ok != c.ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("vegetaRate(%q) = %g, %v; want %g, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestVegetaCommandLine: the command line before vegeta's output gives the
// offered rate and the window, which its reports do not print, and with
// the results, how far the client fell behind its schedule.
func TestVegetaCommandLine(t *testing.T) {
	const cmd = "$ vegeta attack --rate 500/1s -duration=2s -max-workers=4 -max-body 0 < targets | vegeta encode -to csv\n"
	results := string(readFixture(t, vegetaPrefix+"behind_results.csv"))
	ms, _, errs := readString("v.txt", cmd+results)
	if len(errs) > 0 || len(ms) != 1 {
		t.Fatalf("%d measurements, errors %v", len(ms), errs)
	}
	m := ms[0]
	if m.Rate != 500 || m.Window != 2*time.Second || m.Method != "GET" || m.Source.LineStart != 1 ||
		m.Open.Behind < 1500*time.Millisecond || m.Open.Behind > 2*time.Second {
		t.Errorf("rate %g, window %s, method %q, from line %d, behind %s", m.Rate, m.Window, m.Method, m.Source.LineStart, m.Open.Behind)
	}
	text := string(readFixture(t, vegetaPrefix+"ok_text.txt"))
	ms, _, _ = readString("v.txt", "vegeta attack -rate=250 -duration 3s | vegeta report\n"+text)
	if len(ms) != 1 || ms[0].Rate != 250 || ms[0].Window != 3*time.Second || ms[0].Open.Behind != 0 || ms[0].Method != "" {
		t.Errorf("text report after a command line: %+v", ms)
	}
}

// TestVegetaRunDir reads a vegeta measurement of a run dir: its dump (the
// JSON report, then the histogram) and what run.json says of it (the
// offered rate, its share of capacity, how far sending fell behind; the
// window from its argv).
func TestVegetaRunDir(t *testing.T) {
	dir := t.TempDir()
	dump := readFixture(t, vegetaPrefix+"behind_rundir.txt")
	if err := os.MkdirAll(filepath.Join(dir, "dumps/a/ping"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dumps/a/ping/L500-1.txt"), dump, 0o644); err != nil {
		t.Fatal(err)
	}
	run := `{"schema":1,"id":"r1","status":"complete","targets":[{"name":"a","runtime":"go"}],
"measurements":[{"target":"a","scenario":"ping","rep":1,"order":1,"tool":"vegeta","tool_version":"v12.13.0",
"phase":"latency","rate":500,"rate_fraction":0.5,"capacity":1000,"behind_s":1.6877,
"argv":["/home/x/.cache/fairbench/vegeta-v12.13.0/vegeta","attack","-rate=500/s","-duration=2s","-max-body","0","-max-workers=4"],
"dump":"dumps/a/ping/L500-1.txt"}]}`
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	var ms []*Measurement
	errs := Walk([]string{dir}, func(r Record) error {
		if m, ok := r.(*Measurement); ok {
			ms = append(ms, m)
		}
		return nil
	})
	if len(errs) > 0 || len(ms) != 1 {
		t.Fatalf("%d measurements, errors %v", len(ms), errs)
	}
	m := ms[0]
	if m.Tool != ToolVegeta || m.Phase != PhaseLatency || m.Rate != 500 || m.Open.Fraction != 0.5 || m.Open.Capacity != 1000 ||
		m.Open.Behind != 1687700*time.Microsecond || m.Window != 2*time.Second || m.Requests != 156 ||
		len(m.Latency.Buckets) != 6 || m.Open.SendRate < 78 || m.Open.SendRate > 78.1 || m.Source.LineEnd != 8 {
		t.Errorf("run dir measurement:%s", dumpFields(m))
	}
}
