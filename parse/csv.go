package parse

import (
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"strings"
)

// CSV output (`fairbench parse -format csv`): one header row, then one row
// per record, with the scalar fields of the JSON Lines schema (jsonl.go)
// under the same names. Maps are spread into columns (errors_connect,
// status_2xx, …); latency_percentiles is one cell, "50=0.000308;99=0.00791"
// (seconds). Target rows use the kind, run, target, runtime, source and
// target columns; measurement rows leave the target columns empty.
var csvHeader = []string{
	"kind", "tool", "tool_version", "run", "target", "runtime", "scenario", "rep", "warmup", "order",
	"method", "url", "connections", "threads", "pipelining", "window_s", "duration_s",
	"requests", "rps", "rps_basis", "tool_rps", "good_rps", "good_basis", "bytes_read", "bytes_per_s",
	"latency_mean_s", "latency_stdev_s", "latency_max_s", "latency_percentiles", "latency_corrected",
	"errors", "errors_connect", "errors_read", "errors_write", "errors_timeout", "errors_other",
	"status_1xx", "status_2xx", "status_3xx", "status_4xx", "status_5xx", "status_other", "status_non2xx",
	"server_cpu_s", "client_cpu_s",
	"build_s", "startup_s", "rss_before_bytes", "rss_after_bytes", "rss_peak_bytes", "artifact_bytes", "conformance",
	"source_file", "source_line_start", "source_line_end", "source_sha256", "warnings",
	"server_host", "client_host", "shard",
	"phase", "rate", "send_rate", "behind_s", "wait_s", "success",
	"from_schedule_p99_s", "build_cached",
}

// CSVWriter writes records as CSV rows in the columns above.
type CSVWriter struct {
	w      *csv.Writer
	header bool
}

// NewCSVWriter returns a CSVWriter writing to w. Call Flush when done.
func NewCSVWriter(w io.Writer) *CSVWriter {
	return &CSVWriter{w: csv.NewWriter(w)}
}

// Write writes one record (and the header before the first); a *Run is skipped.
func (c *CSVWriter) Write(r Record) error {
	var row map[string]string
	switch r := r.(type) {
	case *Measurement:
		row = measurementRow(measurementJSON(r))
	case *Target:
		row = targetRow(targetJSON(r))
	default:
		return nil
	}
	if !c.header {
		c.header = true
		if err := c.w.Write(csvHeader); err != nil {
			return err
		}
	}
	out := make([]string, len(csvHeader))
	for i, k := range csvHeader {
		out[i] = csvField(row[k])
	}
	return c.w.Write(out)
}

// Flush writes any buffered rows and reports a write error.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// csvField is a field as written: a number as it is, text through CSVText.
func csvField(s string) string {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return CSVText(s)
}

func csvFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func csvInt(v int64) string     { return strconv.FormatInt(v, 10) }

func sourceRow(row map[string]string, s jsonSource) {
	row["source_file"], row["source_sha256"] = s.File, s.SHA256
	row["source_line_start"], row["source_line_end"] = strconv.Itoa(s.LineStart), strconv.Itoa(s.LineEnd)
}

func measurementRow(j jsonMeasurement) map[string]string {
	row := map[string]string{
		"kind": j.Kind, "tool": j.Tool, "tool_version": j.ToolVersion, "run": j.Run, "target": j.Target,
		"runtime": j.Runtime, "scenario": j.Scenario, "rep": strconv.Itoa(j.Rep),
		"warmup": strconv.FormatBool(j.Warmup), "order": strconv.Itoa(j.Order),
		"method": j.Method, "url": j.URL, "connections": strconv.Itoa(j.Connections),
		"threads": strconv.Itoa(j.Threads), "pipelining": strconv.Itoa(j.Pipelining),
		"window_s": csvFloat(j.WindowS), "duration_s": csvFloat(j.DurationS),
		"requests": csvInt(j.Requests), "rps": csvFloat(j.RPS), "rps_basis": j.RPSBasis, "tool_rps": csvFloat(j.ToolRPS),
		"good_rps": csvFloat(j.GoodRPS), "good_basis": j.GoodBasis, "bytes_read": csvInt(j.BytesRead), "bytes_per_s": csvFloat(j.BytesPerS),
		"latency_mean_s": csvFloat(j.LatMeanS), "latency_stdev_s": csvFloat(j.LatStdevS),
		"latency_max_s": csvFloat(j.LatMaxS), "latency_corrected": strconv.FormatBool(j.LatCorr),
		"errors": csvInt(j.Errors), "server_cpu_s": csvFloat(j.ServerCPUSeconds), "client_cpu_s": csvFloat(j.ClientCPUSeconds),
		"warnings":    strings.Join(j.Warnings, "\n"),
		"server_host": j.ServerHost, "client_host": j.ClientHost, "shard": j.Shard,
	}
	row["phase"], row["rate"] = j.Phase, csvFloat(j.Rate)
	if o := j.Open; o != nil {
		row["send_rate"], row["behind_s"], row["wait_s"] = csvFloat(o.SendRate), csvFloat(o.BehindS), csvFloat(o.WaitS)
		if f := o.FromSchedule; f != nil {
			row["from_schedule_p99_s"] = csvFloat(f.P99S)
		}
		if o.Success != nil {
			row["success"] = csvFloat(*o.Success)
		}
	}
	for k, v := range j.ErrorsBy {
		row["errors_"+k] = csvInt(v)
	}
	for k, v := range j.Status {
		row["status_"+k] = csvInt(v)
	}
	var ps []string
	for p, v := range j.LatPcts {
		ps = append(ps, p+"="+csvFloat(v))
	}
	sort.Slice(ps, func(a, b int) bool {
		x, _ := strconv.ParseFloat(ps[a][:strings.IndexByte(ps[a], '=')], 64)
		y, _ := strconv.ParseFloat(ps[b][:strings.IndexByte(ps[b], '=')], 64)
		return x < y
	})
	row["latency_percentiles"] = strings.Join(ps, ";")
	sourceRow(row, j.Source)
	return row
}

func targetRow(j jsonTarget) map[string]string {
	row := map[string]string{
		"kind": j.Kind, "run": j.Run, "target": j.Target, "runtime": j.Runtime,
		"build_s": csvFloat(j.BuildS), "startup_s": csvFloat(j.StartupS),
		"rss_before_bytes": csvInt(j.RSSBefore), "rss_after_bytes": csvInt(j.RSSAfter),
		"rss_peak_bytes": csvInt(j.RSSPeak), "artifact_bytes": csvInt(j.ArtifactBytes),
		"conformance": j.Conformance,
	}
	if j.BuildCached {
		row["build_cached"] = "true"
	}
	sourceRow(row, j.Source)
	return row
}
