package audit

import (
	"fmt"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleResponseSize = "response-size" // bytes per response differ across repetitions

// bytesPerResponse is what one response cost on the wire, 0 if unknown.
func bytesPerResponse(m *parse.Measurement) float64 {
	switch {
	case m.BytesRead > 0 && m.Requests > 0:
		return float64(m.BytesRead) / float64(m.Requests)
	case m.BytesPerSec > 0 && verdict.ReqPerSec(m) > 0:
		return m.BytesPerSec / verdict.ReqPerSec(m)
	}
	return 0
}

// responseSize fires when bytes per response differ across repetitions.
func responseSize(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	var sizes []float64
	for _, m := range c.Reps {
		if b := bytesPerResponse(m); b > 0 {
			sizes = append(sizes, b)
		}
	}
	if len(sizes) < 2 {
		return Finding{}, false
	}
	sorted := slices.Clone(sizes)
	sort.Float64s(sorted)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if !((hi-lo)/verdict.MedianSorted(sorted) > th.SizeSpread) {
		return Finding{}, false
	}
	return cellFinding(c, RuleResponseSize, LevelWarning, fmt.Sprintf(
		"bytes per response went from %.0f to %.0f across repetitions: the target did not send the same response every time (errors, caching, a changed body); check the responses with the gate and fix the target",
		lo, hi), nil), true
}
