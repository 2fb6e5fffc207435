package audit

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleTailSamples = "percentile-samples" // a percentile with fewer than MinTailSamples beyond it

// latencyFindings runs the latency rules on one cell.
func latencyFindings(c *verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	thin := map[float64]int64{} // percentile → fewest samples behind it
	var thinDumps []string
	for _, m := range c.Reps {
		samples := m.Latency.Samples
		if samples <= 0 {
			samples = m.Requests - m.Errors.Timeout
		}
		for _, p := range m.Latency.Percentiles {
			// beyond is rounded to 1e-6 of a sample: 10,000 × (1 − 0.999) is
			// 9.9999…, which is 10 samples, not fewer.
			beyond := math.Round(float64(samples)*(100-p.P)/100*1e6) / 1e6
			if samples <= 0 || beyond >= float64(th.MinTailSamples) {
				continue
			}
			if old, ok := thin[p.P]; !ok || samples < old {
				thin[p.P] = samples
			}
			thinDumps = append(thinDumps, m.Source.File)
		}
	}
	if len(thin) > 0 {
		var parts []string
		for _, p := range slices.Sorted(maps.Keys(thin)) {
			parts = append(parts, fmt.Sprintf("p%s of %s samples", strconv.FormatFloat(p, 'f', -1, 64), parse.FormatCount(float64(thin[p]))))
		}
		fs = append(fs, cellFinding(c, RuleTailSamples, LevelWarning, fmt.Sprintf(
			"%s: fewer than %d samples lie beyond each, so the value is one or two slow requests, not a percentile; drop it or run longer",
			strings.Join(parts, ", "), th.MinTailSamples), uniqueSorted(thinDumps)))
	}
	return fs
}
