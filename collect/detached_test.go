package collect_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
)

// detachedSuite is hiserver started as ./server behind a shell that first
// leaves a child in a session of its own, which keeps the server's stdout.
const detachedSuite = `
name = "detached"

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "1s"
repetitions = 1

[[target]]
name = "one"
dir = "@DIR@"
start = ["sh", "-c", "setsid sleep 40 & exec ./server"]
env = { BODY = "Hi", MARK = "@DIR@" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// detachedCase writes the suite with hiserver as ./server in a folder of
// its own, whose path marks the sleep the target leaves.
func detachedCase(t *testing.T, hi string) (suitePath, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.Symlink(hi, filepath.Join(dir, "server")); err != nil {
		t.Fatal(err)
	}
	suitePath = filepath.Join(dir, "suite.toml")
	if err := os.WriteFile(suitePath, []byte(strings.ReplaceAll(detachedSuite, "@DIR@", dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	return suitePath, dir
}

// sleepsLeft lists the live `sleep 40` processes whose environment holds
// MARK=dir.
func sleepsLeft(dir string) []int {
	var left []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		if string(cmd) == "sleep\x0040\x00" && bytes.Contains(env, []byte("\x00MARK="+dir+"\x00")) {
			if f := procStat(pid); len(f) > 0 && f[0] != "Z" {
				left = append(left, pid)
			}
		}
	}
	return left
}

// TestDetachedChild: a target started as
// ["sh", "-c", "setsid sleep 40 & exec ./server"] leaves a child in a
// session of its own that holds the server's output. verify must not wait
// for it, collect must stop at the first SIGINT, and both must end it.
func TestDetachedChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and loads them")
	}
	t.Parallel() // the detached sleeps are found by their own folder
	hi, fairbench := sharedBinaries(t)
	t.Run("verify", func(t *testing.T) {
		suitePath, dir := detachedCase(t, hi)
		st, err := suite.LoadSuite(suitePath)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := collect.Verify(context.Background(), st, collect.Options{})
		took := time.Since(start)
		if err != nil || len(res) != 1 || res[0].Err != nil || len(res[0].Failed) > 0 {
			t.Fatalf("verify: %+v, %v", res, err)
		}
		if took > 15*time.Second {
			t.Errorf("verify took %v: it waited for the detached child", took.Round(time.Millisecond))
		}
		if left := sleepsLeft(dir); len(left) > 0 {
			t.Errorf("the detached child %v still runs after verify", left)
		}
	})
	t.Run("collect SIGINT", func(t *testing.T) {
		suitePath, dir := detachedCase(t, hi)
		start := time.Now()
		interruptAt(t, fairbench, suitePath, filepath.Join(dir, "runs"), syscall.SIGINT, func(s, _ string) bool {
			return strings.Contains(s, "one ping rep 1/1")
		})
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("collect took %v to stop: it waited for the detached child", took.Round(time.Millisecond))
		}
		if left := sleepsLeft(dir); len(left) > 0 {
			t.Errorf("the detached child %v still runs after collect stopped", left)
		}
	})
}
