package main

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSchedulesSmoke runs the command briefly, as its users would, on two
// planted Go targets under the noisy neighbour, in each order, and checks
// that it prints what it promises. It collects for about two minutes, so
// it runs behind FAIRBENCH_SOAK=1 with the soak (.ci/run).
func TestSchedulesSmoke(t *testing.T) {
	if os.Getenv("FAIRBENCH_SOAK") != "1" {
		t.Skip("set FAIRBENCH_SOAK=1: collects a suite twice, about two minutes")
	}
	t.Chdir("../../..")
	var out strings.Builder
	o := options{suite: "site/suites/planted.toml", noisy: "on", order: "both", resolve: "off", reps: 3, scenarios: 2,
		collects: 1, maxDuty: 0.7, retake: 0, only: "go-base,go-plus10"}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if err := run(ctx, o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"noisy neighbour, scenario order", "noisy neighbour, target order"} {
		if !strings.Contains(out.String(), want+", collect 1: 3 rounds") {
			t.Errorf("no line for %q with its 3 rounds", want)
		}
	}
	if n := len(regexp.MustCompile(`ping2? go-plus10 vs go-base: cost`).FindAllString(out.String(), -1)); n != 4 {
		t.Errorf("%d planted pair lines, want 4 (2 scenarios × 2 collects)", n)
	}
}

// TestSchedulesSoak is the long check behind FAIRBENCH_SOAK=1: the
// planted suite's node targets collected to a precision of 10% within
// 5 minutes each, quiet and under the noisy neighbour, without waiting
// for the host (retake_slow 0), so that it stays within CI's time. No
// planted copy may be claimed faster than its base (a wrong-way claim,
// at most α/2 per pair); whether the twins were claimed apart is printed
// with what each collect resolved, its noise and load average: in two
// collects a calibrated test still claims them apart now and then, and
// the verdict package's simulations hold that rate to α.
func TestSchedulesSoak(t *testing.T) {
	if os.Getenv("FAIRBENCH_SOAK") != "1" {
		t.Skip("set FAIRBENCH_SOAK=1: collects the planted suite for up to 15 minutes")
	}
	t.Chdir("../../..")
	var out strings.Builder
	o := options{suite: "site/suites/planted.toml", noisy: "both", order: "scenario", resolve: "10%", budget: "5m", scenarios: 1,
		collects: 1, maxDuty: 0.7, retake: 0, only: "node-base,node-base-aa,node-plus10,node-plus25"}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	if err := run(ctx, o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	if strings.Contains(out.String(), "WRONG WAY") {
		t.Error("a planted copy was claimed faster than its base")
	}
	t.Logf("the twins unclaimed in %d of 2 collects", strings.Count(out.String(), "twins claimed apart in 0 of"))
}
