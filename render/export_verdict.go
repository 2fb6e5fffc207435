package render

import (
	"encoding/json"

	"github.com/fairbench/fairbench/parse/verdict"
)

// verdictRecord is a verdict of the decided model as results.json keeps
// it: the record's shape belongs to the one writer of results.json, not to
// the decision layer.
type verdictRecord verdict.Verdict

// MarshalJSON writes the record as results.json keeps it, in the order of
// Verdict's fields, with null for the numbers an untested pair does not
// have (NaN) or an interval does not bound (±Inf).
func (v verdictRecord) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Run      string         `json:"run"`
		Scenario string         `json:"scenario"`
		Metric   verdict.Metric `json:"metric"`
		A        string         `json:"a"`
		B        string         `json:"b"`
		Ratio    *float64       `json:"ratio"`
		Lo       *float64       `json:"lo"`
		Hi       *float64       `json:"hi"`
		Level    *float64       `json:"level"`
		P        *float64       `json:"p"`
		PAdj     *float64       `json:"p_adj"`
		Family   int            `json:"family"`
		Floor    float64        `json:"floor"`
		Margin   float64        `json:"margin"`
		PEq      *float64       `json:"p_equivalent"`
		Verdict  string         `json:"verdict"`
		Reason   string         `json:"reason"`
		Method   string         `json:"method"`
	}{v.Run, v.Scenario, v.Metric, v.A, v.B, finite(v.Ratio), finite(v.Lo), finite(v.Hi), finite(v.Level), finite(v.P), finite(v.PAdj),
		v.Family, v.Floor, v.Margin, finite(v.PEq), v.Verdict, v.Reason, v.Method})
}

// verdictRecords are vs as results.json's records, in order.
func verdictRecords(vs []verdict.Verdict) []verdictRecord {
	out := make([]verdictRecord, len(vs))
	for i, v := range vs {
		out[i] = verdictRecord(v)
	}
	return out
}
