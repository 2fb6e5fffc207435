package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// RunSummary is what one run on show can say, first on the index: a
// sentence read off its verdicts, a heat map of every target against each
// scenario's reference, and one chart of that run alone (no chart mixes
// runs: no verdict crosses them).
type RunSummary struct {
	ID, Suite string
	When      string // when the run started, "2026-12-05 07:03 UTC"; the ID is a title on it
	// Hosts is the host pair the summary speaks for, when its run was
	// measured on several; HostNote says so.
	Hosts, HostNote string
	Anchor          string
	Sentence        string
	Resolving       string // what the run tells apart (RunResolving.Sentence)
	Ties            string // the pairs at the top that this host's noise cannot tell apart
	Heat            HeatMap
	Chart           *BarChart
	More            int    // targets left out of Chart
	ChartNote       string // what the chart's bars are
}

// HeatMap is targets × scenarios of one run: each cell is the target's
// ratio to the scenario's reference as the decision layer judged it,
// coloured only where a difference is claimed.
type HeatMap struct {
	Cols []HeatCol
	Rows []HeatRow
	// Ref is the reference of every column when they share one (said
	// once, above the map), "" when each column names its own.
	Ref string
	// Twins says which rows are A/A twins (site.toml's aa_pairs) and what
	// they are for; "" when the map has none.
	Twins string
}

// HeatCol is one scenario and its reference: the target with the highest
// geometric mean there, the one every ratio of the column divides by.
type HeatCol struct {
	Scenario Link
	Ref      string
	// Resolves is the smallest difference the column's family claims with
	// 80% power ("12%"), "" where it has no power to say.
	Resolves string
}

// HeatRow is one target across the run's scenarios.
type HeatRow struct {
	Target  Link
	Runtime string
	Cells   []HeatCell
}

// HeatCell is a target ÷ its column's reference. Class is "h-ref" for the
// reference, "h-same" for "~", "h-none" where unmeasured or untested, and
// "h-1" (within 10%) to "h-5" (under a quarter) or "h-up" for a claim.
type HeatCell struct {
	Text, Class, Title string
}

// heatBands are the lower bounds of the claimed ratios h-1…h-5 colour.
var heatBands = []float64{0.9, 0.75, 0.5, 0.25, 0}

// runSummaries are the runs on show: first those the index's answers
// read (first the run of the first answer: the detail follows the
// questions in their order), then the others newest first, so that a
// niche setup collected last does not push the usual answers down.
func (m *model) runSummaries(p Page, first []string) []RunSummary {
	var out []RunSummary
	for _, id := range first {
		out = append(out, m.runSummary(p, id)...)
	}
	for i := len(m.runs) - 1; i >= 0; i-- {
		if !slices.Contains(first, m.runs[i].ID) {
			out = append(out, m.runSummary(p, m.runs[i].ID)...)
		}
	}
	if m.primary[""] {
		out = append(out, m.runSummary(p, "")...)
	}
	return out
}

// runSummary is run's summary, none when it has no closed-loop family to
// speak of. A run measured on several host pairs has one summary per pair,
// each read off that pair's families alone: no verdict crosses machines.
func (m *model) runSummary(p Page, run string) []RunSummary {
	byHosts := map[string][]*verdict.ScenarioVerdicts{}
	var hosts []string
	for _, s := range m.scenarios {
		for _, sv := range m.dec.Families(run, s) {
			if len(sv.Cells) == 0 {
				continue
			}
			if byHosts[sv.Hosts] == nil {
				hosts = append(hosts, sv.Hosts)
			}
			byHosts[sv.Hosts] = append(byHosts[sv.Hosts], sv)
		}
	}
	var out []RunSummary
	for _, h := range hosts {
		svs := byHosts[h]
		rs := RunSummary{ID: run, Suite: m.suiteName(run), Anchor: "run-" + anchorOf(run)}
		if info := m.runByID(run); info != nil {
			rs.When = info.Start.UTC().Format("2006-01-02 15:04 MST")
		}
		if run == "" {
			rs.Suite, rs.Anchor = "dumps outside run dirs", "run-loose"
		}
		if len(hosts) > 1 {
			rs.Hosts, rs.Anchor = h, rs.Anchor+"-"+anchorOf(h)
			rs.HostNote = hostsNote(hosts, h)
		}
		rs.Sentence, rs.Ties = topSentence(svs)
		if note := m.setApartNote(run); note != "" {
			rs.Sentence += " " + note
		}
		if rr, ok := m.runResolving(run); ok {
			rs.Resolving = rr.Sentence
		}
		rs.Heat = m.heatMap(p, svs)
		rs.Chart, rs.More, rs.ChartNote = m.runChart(p, run, rs.Anchor, svs)
		out = append(out, rs)
	}
	return out
}

// hostsNote says that a run was measured on several host pairs and that
// the summary of pair h speaks for h alone.
func hostsNote(hosts []string, h string) string {
	return fmt.Sprintf("This run was measured on %d server→client host pairs (%s); what follows is measured on %s only and judged among its own targets. No verdict crosses host pairs: a ratio between targets measured on different machines compares the machines as well as the frameworks.",
		len(hosts), joinAnd(hosts), h)
}

// anchorOf is s with every byte outside [A-Za-z0-9-] as "-".
func anchorOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '-'
	}, s)
}

// topGroup is the cells of sv whose rank range starts at 1 (none judged
// faster), and whether they are told apart from the rest: each is judged
// faster than every target outside the group (its range ends at the
// group's size) and the group is not the whole family.
func topGroup(sv *verdict.ScenarioVerdicts) (group []*verdict.Cell, apart bool) {
	k := 0
	for _, r := range sv.Ranks {
		if r.Ranked {
			k++
			if r.Lo == 1 {
				group = append(group, r.Cell)
			}
		}
	}
	if k < 2 {
		return nil, false
	}
	apart = len(group) < k
	for _, r := range sv.Ranks {
		if r.Ranked && r.Lo == 1 && r.Hi != len(group) {
			apart = false
		}
	}
	return group, apart
}

// maxTies bounds the tied pairs the sentence names.
const maxTies = 4

// topSentence says, from the verdicts alone, which targets are faster than
// the rest on how many of the run's scenarios, and which pairs at the top
// the host's noise cannot tell apart. It decides nothing: it counts the
// rank ranges and reads the "~" verdicts.
func topSentence(svs []*verdict.ScenarioVerdicts) (sentence, ties string) {
	wins := map[string]int{}
	shared := false // some scenario's top group has more than one target
	tieIn := map[[2]string][]string{}
	var tested, blurred []string
	for _, sv := range svs {
		group, apart := topGroup(sv)
		if group == nil {
			continue
		}
		tested = append(tested, sv.Scenario)
		if !apart {
			blurred = append(blurred, sv.Scenario)
		}
		for _, c := range group {
			if apart {
				wins[c.Name]++
				shared = shared || len(group) > 1
			}
		}
		for _, v := range sv.Pairs {
			if !v.Claimed() && v.Tested() && slices.Contains(group, v.CellA) && slices.Contains(group, v.CellB) {
				k := [2]string{v.A, v.B}
				tieIn[k] = append(tieIn[k], sv.Scenario)
			}
		}
	}
	if len(tested) == 0 {
		return "This run has too few repetitions or targets to tell any target apart; the tables below show its numbers without a verdict.", ""
	}
	byCount := map[int][]string{}
	for n, w := range wins {
		byCount[w] = append(byCount[w], n)
	}
	counts := make([]int, 0, len(byCount))
	for c := range byCount {
		counts = append(counts, c)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	M := len(tested)
	var parts []string
	for i, c := range counts {
		if i == 3 {
			parts = append(parts, "others on fewer")
			break
		}
		names := slices.Sorted(slices.Values(byCount[c]))
		if len(names) > 4 {
			names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
		}
		verb := "is"
		if len(names) > 1 {
			verb = "are"
		}
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s %s faster than the rest on %d of %d scenarios", joinAnd(names), verb, c, M))
		} else {
			parts = append(parts, fmt.Sprintf("%s on %d", joinAnd(names), c))
		}
	}
	switch {
	case len(parts) == 0:
		sentence = fmt.Sprintf("On this host, no target is told apart from the rest at the top in any of the %d scenarios: the leaders' differences are within this run's noise.", M)
	default:
		sentence = "On this host, " + strings.Join(parts, ", ") + "."
		if shared {
			sentence = "On this host, " + strings.Join(parts, ", ") + " (alone, or in a top group each judged faster than every target outside it)."
		}
		if len(blurred) > 0 {
			sentence += fmt.Sprintf(" In %s no target is told apart at the top.", scenarioCount(blurred, M))
		}
	}
	keys := make([][2]string, 0, len(tieIn))
	for k := range tieIn {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := len(tieIn[keys[i]]), len(tieIn[keys[j]]); a != b {
			return a > b
		}
		return keys[i][0]+"\x00"+keys[i][1] < keys[j][0]+"\x00"+keys[j][1]
	})
	var ps []string
	for i, k := range keys {
		if i == maxTies {
			ps = append(ps, fmt.Sprintf("and %d more pairs", len(keys)-maxTies))
			break
		}
		ps = append(ps, fmt.Sprintf("%s ~ %s (%s)", k[0], k[1], scenarioCount(tieIn[k], M)))
	}
	if len(ps) > 0 {
		ties = "These pairs at the top cannot be told apart at this host's noise: " + strings.Join(ps, "; ") + "."
	}
	return sentence, ties
}

// scenarioCount names the scenarios when few ("a, b and c"), else counts
// them ("5 of 11 scenarios").
func scenarioCount(ss []string, of int) string {
	if len(ss) <= 3 {
		return joinAnd(ss)
	}
	return fmt.Sprintf("%d of %d scenarios", len(ss), of)
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(ss []string) string {
	if len(ss) < 2 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// heatMap is every target of svs against each scenario's reference (its
// family's first cell, the highest geometric mean). Rows are ordered by
// the mean log ratio to the references over the scenarios a target has,
// highest first.
func (m *model) heatMap(p Page, svs []*verdict.ScenarioVerdicts) HeatMap {
	var h HeatMap
	cells := map[string][]*verdict.Cell{} // name → its cell per column (nil where none)
	score := map[string]float64{}
	have := map[string]int{}
	var names []string
	for i, sv := range svs {
		col := HeatCol{Scenario: Link{Href: p.href(m.links.Scenario(sv.Scenario)), Text: sv.Scenario}, Ref: sv.Cells[0].Name}
		if pw, ok := m.dec.Power(sv); ok && !math.IsNaN(pw.Resolves) && !math.IsInf(pw.Resolves, 0) {
			col.Resolves = pct0(pw.Resolves)
		}
		h.Cols = append(h.Cols, col)
		for _, c := range sv.Cells {
			if cells[c.Name] == nil {
				cells[c.Name] = make([]*verdict.Cell, len(svs))
				names = append(names, c.Name)
			}
			cells[c.Name][i] = c
			if cmp, ok := m.vsLeader[c]; ok && cmp.Ratio > 0 && !math.IsInf(cmp.Ratio, 0) {
				score[c.Name] += math.Log(cmp.Ratio)
				have[c.Name]++
			} else if m.leader[c] == c {
				have[c.Name]++
			}
		}
	}
	h.Ref = h.Cols[0].Ref
	for _, c := range h.Cols {
		if c.Ref != h.Ref {
			h.Ref = ""
		}
	}
	mean := func(n string) float64 {
		if have[n] == 0 {
			return math.Inf(-1)
		}
		return score[n] / float64(have[n])
	}
	sort.SliceStable(names, func(i, j int) bool {
		if a, b := mean(names[i]), mean(names[j]); a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		row := HeatRow{Target: Link{Href: p.href(m.links.Target(n)), Text: n}}
		for i, c := range cells[n] {
			if c != nil && row.Runtime == "" {
				row.Runtime = c.Runtime
			}
			row.Cells = append(row.Cells, m.heatCell(c, svs[i]))
		}
		h.Rows = append(h.Rows, row)
	}
	var twins []string
	for _, pair := range m.site.AAPairs {
		if len(pair) == 2 && cells[pair[0]] != nil && cells[pair[1]] != nil {
			twins = append(twins, pair[1]+" is "+pair[0])
		}
	}
	if len(twins) > 0 {
		h.Twins = "A/A twins: " + joinAnd(twins) + ", the same program started under a second name. Any difference claimed between twins is the host's, not the code's: the run's noise floor comes from them."
	}
	return h
}

// heatCell is c ÷ its family's reference, as the verdict on that pair says.
func (m *model) heatCell(c *verdict.Cell, sv *verdict.ScenarioVerdicts) HeatCell {
	switch {
	case c == nil:
		return HeatCell{Text: "", Class: "h-none", Title: "not measured here"}
	case m.leader[c] == c:
		// The sentence above the map (or the column's head) names the
		// reference; a title on each of its cells would repeat it.
		return HeatCell{Text: "ref", Class: "h-ref"}
	}
	cmp, ok := m.vsLeader[c]
	if !ok {
		return HeatCell{Text: "–", Class: "h-none", Title: "no verdict"}
	}
	j := judgementOf(cmp, c.Name, m.leader[c].Name)
	// The row and column name the pair; the title gives the verdict and
	// the two numbers its ratio divides, in few bytes: a 100-target run
	// has 100 rows of these.
	title := fmt.Sprintf("%s %s: %s → %s %s", j.Word, j.Ratio, j.Stat.Base, j.Stat.Other, j.Stat.Unit)
	switch {
	case j.Mark != "":
		if j.Dir == "unknown" {
			return HeatCell{Text: "–", Class: "h-none", Title: j.Why}
		}
		if j.Verdict.Equivalent() {
			return HeatCell{Text: "=", Class: "h-same", Title: title + ", " + j.Power}
		}
		// The measured ratio beside "~": a bare "~" reads as "as fast as
		// the reference", whatever the ratio the noise hid.
		return HeatCell{Text: "~" + heatText(j.Ratio), Class: "h-same", Title: title + ", " + j.Short}
	case j.Bound != "":
		title += "; " + j.Ratio + " is " + j.Bound
	}
	cell := HeatCell{Text: heatText(j.Ratio), Title: title}
	end := cmp.Ratio
	if j.Bound != "" {
		end = math.Min(cmp.Hi, 1) // a "≤" bound: the interval's end nearer 1
		if cmp.Ratio > 1 {
			end = cmp.Lo
		}
	}
	if end > 1 {
		cell.Class = "h-up"
		return cell
	}
	for i, b := range heatBands {
		if end >= b {
			cell.Class = "h-" + strconv.Itoa(i+1)
			break
		}
	}
	return cell
}

// heatText is a ratio for a heat-map cell: "0.62", "≤ 0.41", without "×".
func heatText(ratio string) string {
	return strings.ReplaceAll(trimX(ratio), " ", "")
}

// runChartBars bounds the bars of a run's chart on the index; the targets
// of the cards are drawn whatever their place, and the results page and
// scenario pages have every target.
const runChartBars = 24

// runChart is one chart of run alone: each target's geometric mean of its
// medians over the scenarios every target of the run has, highest first
// (the order of the statistic the bars draw), coloured by runtime.
func (m *model) runChart(p Page, run, anchor string, svs []*verdict.ScenarioVerdicts) (*BarChart, int, string) {
	var cs []*verdict.Cell
	for _, sv := range svs {
		cs = append(cs, sv.Cells...)
	}
	gs := verdict.GeoMeans(cs, m.metric)
	if len(gs) == 0 || len(gs[0].Entries) < 2 {
		return nil, 0, ""
	}
	g := gs[0]
	keep := m.cardTargets()
	var bars []BarInput
	more := 0
	for i, e := range g.Entries {
		if i >= runChartBars && !keep[e.Name] {
			more++
			continue
		}
		bars = append(bars, BarInput{Label: e.Name, Href: p.href(m.links.Target(e.Name)), Median: e.Value, Unit: m.metric.String(), Group: e.Runtime,
			What: fmt.Sprintf("geometric mean over %d scenarios of the median", len(g.Scenarios))})
	}
	title := fmt.Sprintf("%s: geometric mean of median %s over %s", m.suiteName(run), m.metric, scenarioCount(g.Scenarios, len(g.Scenarios)))
	c := NewBarChart("chart-"+anchor, title, bars)
	note := fmt.Sprintf("Bars: each target's geometric mean of its medians over %s, highest first, coloured by runtime. It ranks nothing and claims no difference: the verdicts are the heat map's, per scenario.", joinAnd(g.Scenarios))
	if len(g.Dropped) > 0 {
		note += fmt.Sprintf(" Left out, as some target has no number there: %s.", joinAnd(g.Dropped))
	}
	return &c, more, note
}

// nonEmptyOr is s, or alt when s is "".
func nonEmptyOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
