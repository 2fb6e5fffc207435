package history

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestKeyOfRealRun: a real run dir's key names its load tool and host,
// matches itself, and a kernel change shows as one line saying both.
func TestKeyOfRealRun(t *testing.T) {
	set, errs := parse.ReadAll([]string{"../../render/testdata/runs/20261129T192304Z-vm"})
	if len(errs) > 0 || len(set.Runs) != 1 {
		t.Fatalf("read: %v, %d runs", errs, len(set.Runs))
	}
	run := set.Runs[0]
	k := KeyOf(run, set)
	got := map[string]string{}
	for _, f := range k {
		got[f.Name] = f.Value
	}
	for _, name := range []string{"load tool", "connections", "window", "cpu", "kernel"} {
		if got[name] == "" {
			t.Errorf("key has no %s: %v", name, k)
		}
	}
	if d := k.Diff(KeyOf(run, set)); len(d) != 0 {
		t.Errorf("a key differs from itself: %v", d)
	}
	other := *run
	other.Facts.Kernel = "9.9.9-test"
	d := k.Diff(KeyOf(&other, set))
	if len(d) != 1 || !strings.HasPrefix(d[0], "kernel: "+run.Facts.Kernel+" → 9.9.9-test") {
		t.Errorf("diff after a kernel change: %q", d)
	}
}

// TestKeepAlive: each tool's way to turn keep-alive off is read from its
// command line; the default is on.
func TestKeepAlive(t *testing.T) {
	for _, c := range []struct {
		tool string
		argv []string
		want string
	}{
		{"bombardier", []string{"bombardier", "-c", "64", "-d", "2s", "http://127.0.0.1:8080/"}, "on"},
		{"bombardier", []string{"bombardier", "-a", "-c", "64", "http://127.0.0.1:8080/"}, "off"},
		{"bombardier", []string{"bombardier", "--disableKeepAlives", "http://127.0.0.1:8080/"}, "off"},
		{"wrk", []string{"wrk", "-a", "x"}, "on"}, // -a is bombardier's only
		{"wrk", []string{"wrk", "-H", "Connection: close", "http://127.0.0.1:8080/"}, "off"},
		{"wrk", []string{"wrk", "-H", "Accept: text/plain", "http://127.0.0.1:8080/"}, "on"},
		{"autocannon", []string{"autocannon", "-H", "connection=close", "http://127.0.0.1:8080/"}, "off"},
		{"autocannon", []string{"autocannon", "--header=Connection: Close", "http://127.0.0.1:8080/"}, "off"},
		{"vegeta", []string{"vegeta", "attack", "-keepalive=false"}, "off"},
		{"vegeta", []string{"vegeta", "attack", "-rate", "100"}, "on"},
	} {
		if got := keepAlive(c.tool, c.argv); got != c.want {
			t.Errorf("%s %q: keep-alive %s, want %s", c.tool, c.argv, got, c.want)
		}
	}
}

// TestKeyNewFields: keep-alive and the speed probe's fastest time differ
// where both runs state them, the probe only beyond 1.5×; a run that does
// not state them (collected before they were recorded) differs in nothing.
func TestKeyNewFields(t *testing.T) {
	key := func(alive, speed string) Key {
		return Key{{"load tool", "bombardier 1.2.6"}, {keepAliveField, alive}, {speedField, speed}}
	}
	for _, c := range []struct {
		a, b Key
		want []string
	}{
		{key("on", "0.235 s"), key("on", "0.287 s"), nil},
		{key("on", "0.235 s"), key("on", "0.360 s"), []string{speedField + ": 0.235 s → 0.360 s"}},
		{key("on", "0.235 s"), key("off", "0.240 s"), []string{"keep-alive: on → off"}},
		{key("on", "0.235 s"), key("", ""), nil},
		{key("", ""), key("off", "0.900 s"), nil},
	} {
		if got := c.a.Diff(c.b); !slices.Equal(got, c.want) {
			t.Errorf("%v → %v: diff %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
