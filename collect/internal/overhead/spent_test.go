package main

import (
	"testing"
	"time"
)

// TestBuildSpan: the time spent building is the wall time while a build
// ran, whether targets build one after another or side by side.
func TestBuildSpan(t *testing.T) {
	at := func(s float64, line string) stamped {
		return stamped{time.Unix(0, 0).Add(time.Duration(s * float64(time.Second))), line}
	}
	for _, c := range []struct {
		name  string
		lines []stamped
		want  float64
	}{
		{"one after another", []stamped{
			at(0, "a: building"), at(1, "a: gate"), at(1.2, "b: building"), at(3.2, "b: gate"), at(4, "[1/2] a ping warm-up 1/1 (1s)"),
		}, 3},
		{"side by side", []stamped{
			at(0, "a: building (2 at a time)"), at(0.01, "b: building (2 at a time)"), at(1, "c: building (2 at a time)"), at(2.5, "a: gate"), at(2.6, "b: gate"),
		}, 2.5},
		{"no builds", []stamped{at(0, "a: gate"), at(1, "[1/2] a ping warm-up 1/1 (1s)")}, 0},
	} {
		if got := buildSpan(c.lines).Seconds(); got != c.want {
			t.Errorf("%s: %.2f s, want %.2f", c.name, got, c.want)
		}
	}
}
