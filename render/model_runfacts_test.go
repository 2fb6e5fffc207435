package render

import (
	"slices"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestRunFacts checks that runs with one environment share it, that the
// load stays each run's own, and that history sees every change.
func TestRunFacts(t *testing.T) {
	base := func() *parse.Run {
		return &parse.Run{Manifest: runjson.Manifest{ID: "a", Suite: "go", SuiteSHA256: "cd", Start: time.Unix(0, 0),
			Facts: runjson.Facts{CPUModel: "Bench CPU", Threads: 2, Kernel: "6.1.0", LoadAvg: []float64{0.5}},
			Tools: map[string]runjson.Version{"wrk": {Version: "4.1.0", Path: "/usr/bin/wrk"}}}}
	}
	tests := []struct {
		name   string
		change func(*parse.Run)
		want   []string
	}{
		{"same", func(r *parse.Run) {
			r.Facts.LoadAvg = []float64{3}
			r.Tools["wrk"] = runjson.Version{Version: "4.1.0", Path: "/opt/wrk"}
		}, nil},
		{"tool", func(r *parse.Run) { r.Tools["wrk"] = runjson.Version{Version: "4.2.0"} }, []string{"wrk: 4.1.0 → 4.2.0"}},
		{"new tool", func(r *parse.Run) { r.Tools["hey"] = runjson.Version{Version: "0.1.4"} }, []string{"hey: (none) → 0.1.4"}},
		{"kernel", func(r *parse.Run) { r.Facts.Kernel = "6.2.0" }, []string{"kernel: 6.1.0 → 6.2.0"}},
		{"suite", func(r *parse.Run) { r.SuiteSHA256 = "ab" }, []string{"suite: cd → ab"}},
		{"pinned", func(r *parse.Run) { r.Isolation.ServerCPUs = "0" }, []string{"server CPUs: (none) → 0"}},
		{"hostname", func(r *parse.Run) { r.Facts.Hostname = "other" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInput(Options{}, &spool{at: map[string]span{}})
			a, b := base(), base()
			b.ID = "b"
			tt.change(b)
			fa, fb := in.factsOf(a), in.factsOf(b)
			if got := envChanges(&fa, &fb); !slices.Equal(got, tt.want) {
				t.Errorf("changes %q, want %q", got, tt.want)
			}
			if shared := fa.env == fb.env; shared != (tt.name == "same") {
				t.Errorf("environment shared: %v", shared)
			}
			if got, want := fb.host().LoadAvg, b.Facts.LoadAvg; !slices.Equal(got, want) {
				t.Errorf("load %v, want %v", got, want)
			}
		})
	}
}
