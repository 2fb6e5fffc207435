package runjson_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestDecodeLabels: rep 0, a rate_fraction outside [0, 1] and reps that go
// down with order refuse run.json naming the measurement; a retake, a turn
// taken by -resume and a failed measurement may come out of their round.
func TestDecodeLabels(t *testing.T) {
	const head = `{"schema": 1, "id": "r", `
	m := func(rep, order int, extra string) string {
		return `{"target": "gin", "scenario": "ping", "rep": ` + strconv.Itoa(rep) + `, "order": ` + strconv.Itoa(order) + extra + `}`
	}
	for _, tt := range []struct{ name, body, say string }{
		{"rep 0", `"measurements": [` + m(0, 1, "") + `]}`, "measurements[0] (gin/ping rep 0): rep 0: reps count from 1"},
		{"fraction 1e300", `"measurements": [` + m(1, 1, `, "phase": "latency", "rate_fraction": 1e300`) + `]}`, "rate_fraction 1e+300 is not a share of capacity in [0, 1]"},
		{"fraction -0.5", `"measurements": [` + m(1, 1, `, "rate_fraction": -0.5`) + `]}`, "rate_fraction -0.5 is not"},
		{"not offered", `"not_offered": [{"target": "gin", "scenario": "ping", "rate_fraction": 2}]}`, "not_offered[0] (gin/ping): rate_fraction 2"},
		{"swapped reps", `"measurements": [` + m(2, 1, "") + `, ` + m(1, 2, "") + `]}`, "measurements[1] (gin/ping rep 1, order 2) comes after measurements[0] (rep 2, order 1)"},
		{"swapped, listed in order", `"measurements": [` + m(1, 5, "") + `, ` + m(2, 3, "") + `]}`, "measurements[0] (gin/ping rep 1, order 5) comes after measurements[1] (rep 2, order 3)"},
	} {
		_, err := runjson.Decode([]byte(head + tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.say) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.say)
		}
	}
	for _, tt := range []struct{ name, body string }{
		{"in order", `"measurements": [` + m(1, 1, "") + `, ` + m(2, 2, "") + `, ` + m(1, 3, `, "warmup": true`) + `]}`},
		{"retake", `"measurements": [` + m(1, 1, `, "error": "slow"`) + `, ` + m(2, 2, "") + `, ` + m(1, 3, `, "host_speed": {"retake": true}`) + `]}`},
		{"resumed", `"resumed": ["2026-12-01T01:00:00Z"], "measurements": [` + m(2, 2, `, "start": "2026-12-01T00:00:00Z"`) + `, ` + m(1, 3, `, "start": "2026-12-01T02:00:00Z"`) + `]}`},
		{"failed", `"measurements": [` + m(2, 1, "") + `, ` + m(1, 2, `, "error": "crashed"`) + `]}`},
		{"other cells", `"measurements": [` + m(2, 1, "") + `, ` + m(1, 2, `, "phase": "latency", "rate_fraction": 1`) + `]}`},
	} {
		if _, err := runjson.Decode([]byte(head + tt.body)); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
