package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInputReadOnce: a FIFO named as a dump, fed once by a writer that
// then closes it, is read once by every command. render parses it and then
// publishes it: raw/files/wrk.txt holds the dump byte for byte and its
// dump page shows it (before, the copy was empty: the second open found
// no writer). parse and audit read it as they read the file.
func TestFIFOInputReadOnce(t *testing.T) {
	dump, err := os.ReadFile("../../parse/testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args func(fifo, out string) []string
		says string // on stdout
	}{
		{"render", func(fifo, out string) []string { return []string{"render", "-out", out, fifo} }, "index.html"},
		{"parse", func(fifo, _ string) []string { return []string{"parse", fifo} }, `"requests":`},
		{"audit", func(fifo, _ string) []string { return []string{"audit", fifo} }, "too-few-reps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "wrk.txt")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			go func() {
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Write(dump)
					w.Close()
				}
			}()
			out := filepath.Join(dir, "site")
			type result struct {
				stdout, stderr string
				code           int
			}
			done := make(chan result, 1)
			go func() { o, e, code := runCLI(t, c.args(fifo, out)...); done <- result{o, e, code} }()
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("fairbench %s of a FIFO: still running after 20s", c.name)
			}
			if r.code != 0 || !strings.Contains(r.stdout, c.says) {
				t.Fatalf("exit %d, stdout %.200q; want 0 and %q\n%s", r.code, r.stdout, c.says, r.stderr)
			}
			if c.name != "render" {
				return
			}
			raw, err := os.ReadFile(filepath.Join(out, "raw", "files", "wrk.txt"))
			if err != nil || !bytes.Equal(raw, dump) {
				t.Errorf("raw/files/wrk.txt: %d bytes (%v), want the dump's %d", len(raw), err, len(dump))
			}
			page, err := os.ReadFile(filepath.Join(out, "dump", "files", "wrk.txt.html"))
			if err != nil || !strings.Contains(string(page), "Requests/sec:") {
				t.Errorf("the dump page does not show the dump (%v)", err)
			}
		})
	}
}
