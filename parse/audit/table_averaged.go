package audit

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleTableAveragedPercentile: a published latency percentile is the mean
// of the repetitions' percentiles. A mean of p99s is not the p99 of
// anything: the p99 of all the requests together lies somewhere between
// the repetitions' p99s, where depends on how many requests each one
// served, and nothing puts it at their mean.
const RuleTableAveragedPercentile = "table-averaged-percentile"

// percentileColumn is a latency percentile column of a published table,
// read from its header ("p99", "Latency p99 (ms)", "ping p99.9 [µs]",
// "99th percentile").
type percentileColumn struct {
	p        float64 // in percent, as printed
	scenario string  // the lower-case scenario the header names, "" if none
	unit     string  // the time unit the header gives ("ms"), "" if none
}

// label is the percentile as tables write it: "p99", "p99.9".
func (pc percentileColumn) label() string {
	return "p" + strconv.FormatFloat(pc.p, 'f', -1, 64)
}

var (
	pToken       = regexp.MustCompile(`^p(\d{1,3}(?:\.\d+)?)$`)      // p99, p99.9
	ordinalToken = regexp.MustCompile(`^(\d{1,3}(?:\.\d+)?)(th|%)$`) // 99th, 99.9%
)

// latencyWords may stand beside the percentile in a latency column's header.
var latencyWords = map[string]bool{"latency": true, "lat": true, "lat.": true, "percentile": true,
	"pctl": true, "response": true, "time": true, "tail": true, "in": true}

// readPercentileColumn reads a header as a latency percentile column. Every
// word of it must be the percentile, a time unit, a scenario of the set or
// one of latencyWords, so that "p99 req/s" or "99% CI" is not taken for a
// latency. A bare "99%" needs "latency" or "percentile" beside it.
func readPercentileColumn(header string, scenarios map[string]string) (percentileColumn, bool) {
	var pc percentileColumn
	found, wordy, percent := false, false, false
	words := strings.FieldsFunc(strings.ToLower(header), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".%-_", r)
	})
	for _, w := range words {
		var m []string
		switch {
		case !found && pToken.MatchString(w):
			m = pToken.FindStringSubmatch(w)
		case !found && ordinalToken.MatchString(w):
			m = ordinalToken.FindStringSubmatch(w)
			percent = m[2] == "%"
		case timeUnits[w] > 0:
			pc.unit = w
			continue
		case scenarios[w] != "" && pc.scenario == "":
			pc.scenario = w
			continue
		case latencyWords[w]:
			wordy = true
			continue
		default:
			return percentileColumn{}, false
		}
		p, err := strconv.ParseFloat(m[1], 64)
		if err != nil || p <= 0 || p > 100 {
			return percentileColumn{}, false
		}
		pc.p, found = p, true
	}
	if !found || percent && !wordy {
		return percentileColumn{}, false
	}
	return pc, true
}

// percentileScenario is the scenario a percentile cell is about: the one
// its header names, else the row's Scenario column, else the set's only
// scenario; "" when none of these says.
func (a *tableAudit) percentileScenario(pc percentileColumn, rowScenario string) string {
	switch {
	case pc.scenario != "":
		return a.scenario[pc.scenario]
	case rowScenario != "":
		if s := a.scenario[strings.ToLower(rowScenario)]; s != "" {
			return s
		}
		return rowScenario
	case len(a.scenario) == 1:
		for _, s := range a.scenario {
			return s
		}
	}
	return ""
}

// repPercentiles is the value of percentile p in each repetition of c that
// printed it, in base units, with those repetitions' dumps.
func repPercentiles(c *verdict.Cell, p float64) ([]float64, []string) {
	var values []float64
	var with []*parse.Measurement
	for _, m := range c.Reps {
		for _, q := range m.Latency.Percentiles {
			if math.Abs(q.P-p) < 1e-9 {
				values = append(values, float64(q.Value))
				with = append(with, m)
				break
			}
		}
	}
	return values, verdict.DumpsOf(with)
}

// percentileNumber checks one published latency percentile against the
// same percentile of the cell's repetitions. The number passes when it is
// their median. It is averaged when it is their mean and not their median
// (with three or more repetitions; the median of two is their mean). It is
// a mismatch when it lies outside their range, where no median, mean or
// percentile of the merged latencies can be. A number between them that is
// neither may be a percentile of the merged latencies, which the tools'
// summaries do not hold: it is left unchecked.
func (a *tableAudit) percentileNumber(k tableKey, label, rowScenario string, col int, text string, line int) {
	pc := a.pcols[col]
	scenario := a.percentileScenario(pc, rowScenario)
	num, unit := splitQuantity(text)
	if unit == "" {
		unit = pc.unit
	}
	got, decimals, ok := parseGrouped(num)
	scale := timeUnits[strings.ToLower(unit)]
	if scenario == "" || !ok || scale == 0 {
		return // no scenario to check it against, "n/a", or no known unit
	}
	c := a.cells[tableKey{k.target, k.runtime, strings.ToLower(scenario)}]
	if c == nil {
		a.add(Finding{Rule: RuleTableNumberWithoutDump, Level: LevelError, Target: label, Scenario: scenario,
			Message: fmt.Sprintf("%s:%d: %s %s %s is %s but no dump holds that measurement; publish its dump, or drop the number", a.name, line, label, scenario, pc.label(), text)})
		return
	}
	values, dumps := repPercentiles(c, pc.p)
	if len(values) == 0 {
		return // no repetition printed this percentile
	}
	f := latencyFormat{unit: unit, scale: scale, decimals: decimals}
	st := verdict.NewStat(values, verdict.DefaultThresholds)
	mean := meanOf(values)
	where := fmt.Sprintf("%s:%d: %s %s says %s", a.name, line, label, a.table.header[col], strings.TrimSpace(text))
	switch {
	case roundsTo(st.Median, got, decimals, scale):
		a.checked[col] = true
	case len(values) > 2 && roundsTo(mean, got, decimals, scale):
		a.checked[col] = true
		p := pc.label()
		a.add(Finding{Rule: RuleTableAveragedPercentile, Level: LevelWarning, Target: label, Scenario: scenario, Dumps: dumps,
			Message: fmt.Sprintf("%s, the mean of the %d repetitions' %ss (%s → mean %s): a mean of percentiles is not a percentile; the %s of all the requests together lies somewhere between the repetitions' %ss, where depends on how many requests each served; publish the median of the repetitions' %ss, %s, or the %s of the merged latency histogram where the tool keeps one (wrk2's detailed percentile spectrum, an HdrHistogram log)",
				where, len(values), p, f.list(values), f.format(mean), p, p, p, f.median(st), p)})
	case !roundsTo(min(max(got*scale, st.Min), st.Max), got, decimals, scale):
		a.checked[col] = true
		a.add(Finding{Rule: RuleTableMismatch, Level: LevelError, Target: label, Scenario: scenario, Dumps: dumps,
			Message: fmt.Sprintf("%s but the %ss of its %s run from %s to %s (median %s): no median, mean or merged percentile of them can be %s; regenerate the table from the dumps",
				where, pc.label(), parse.Plural(len(values), "repetition"), f.format(st.Min), f.format(st.Max), f.format(st.Median), strings.TrimSpace(text))})
	}
}

// meanOf is the arithmetic mean of v, NaN for none.
func meanOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

// latencyFormat writes latencies (base units) as the table printed its own:
// in its unit, at its precision.
type latencyFormat struct {
	unit     string
	scale    float64
	decimals int
}

func (f latencyFormat) number(v float64) string {
	return strconv.FormatFloat(v/f.scale, 'f', f.decimals, 64)
}

// format is "3.13 ms".
func (f latencyFormat) format(v float64) string { return f.number(v) + " " + f.unit }

// list is "2.28, 2.30, 3.38, 4.55 ms".
func (f latencyFormat) list(values []float64) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = f.number(v)
	}
	return strings.Join(parts, ", ") + " " + f.unit
}

// median is "2.84 ms (95% interval 2.30–3.38 ms)", or with the range when
// there are too few repetitions for an interval.
func (f latencyFormat) median(st verdict.Stat) string {
	if math.IsInf(st.Lo, 0) || math.IsInf(st.Hi, 0) {
		return fmt.Sprintf("%s (range %s–%s; %s are too few for a %.0f%% interval, run more)",
			f.format(st.Median), f.number(st.Min), f.format(st.Max), parse.Plural(st.N, "repetition"), verdict.DefaultThresholds.Confidence*100)
	}
	return fmt.Sprintf("%s (%.0f%% interval %s–%s)", f.format(st.Median), st.Confidence*100, f.number(st.Lo), f.format(st.Hi))
}
