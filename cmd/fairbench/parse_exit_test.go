//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// The exit status of parse, audit and compare, one row per condition:
//
//	0  the command did its job and found nothing wrong (warnings aside)
//	1  it ran and found a failure: a file met in a folder that is no dump,
//	   a table that mismatches, an audit error, nothing usable measured
//	2  bad usage: unknown flag, bad value, a named input that is missing,
//	   unreadable or empty, one run id with two different run.json

// exitInputs is the input of the exit-status table, in one folder.
type exitInputs struct {
	wrk, garbage, missing, fifo, empty, notes, withEmpty, run, runCopy, runChanged, bun, bunTable string
}

func newExitInputs(t *testing.T) exitInputs {
	t.Helper()
	dir := t.TempDir()
	in := exitInputs{
		wrk:        filepath.Join(dir, "wrk.txt"),
		garbage:    filepath.Join(dir, "garbage.bin"),
		fifo:       filepath.Join(dir, "fifo"),
		missing:    filepath.Join(dir, "nonexistent"),
		empty:      filepath.Join(dir, "empty"),
		notes:      filepath.Join(dir, "notes"),
		withEmpty:  filepath.Join(dir, "with-empty"),
		run:        "../../site/results/20261129T203921Z-vm",
		runCopy:    filepath.Join(dir, "copy", "20261129T203921Z-vm"),
		runChanged: filepath.Join(dir, "changed", "20261129T203921Z-vm"),
		bun:        filepath.Join(dir, "bun", "results"),
	}
	in.bunTable = filepath.Join(in.bun, "results.md")
	dump, err := os.ReadFile("../../parse/testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(in.wrk, string(dump))
	if err := syscall.Mkfifo(in.fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	write(in.garbage, "\x00\x01\x02\xff binary\x00\n")
	os.Mkdir(in.empty, 0o755)
	write(filepath.Join(in.notes, "README.md"), "# not a dump\n")
	write(filepath.Join(in.withEmpty, "a.txt"), string(dump))
	write(filepath.Join(in.withEmpty, "failed.txt"), "")
	copyDir(t, in.run, in.runCopy)
	copyDir(t, in.run, in.runChanged)
	b, _ := os.ReadFile(filepath.Join(in.runChanged, "run.json"))
	write(filepath.Join(in.runChanged, "run.json"), string(b)+"\n")
	// bun-http-framework-benchmark's results/ at a commit where a framework
	// failed: its dump is empty; one number of the table is not its dump's.
	copyDir(t, "/work/shared/fixtures/bun-http-framework-benchmark/d78d01b/results", in.bun)
	write(filepath.Join(in.bun, "bun", "failed.txt"), "")
	table, _ := os.ReadFile(in.bunTable)
	write(in.bunTable, strings.Replace(string(table), "534,617.26", "634,617.26", 1))
	return in
}

// copyDir copies the folder src to dst, which must not exist; the test
// is skipped when src is not there.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Skipf("fixture %s: %v", src, err)
	}
}

// TestParseAuditCompareExitStatus runs each condition of the table through
// run and checks the status and what stderr says.
func TestParseAuditCompareExitStatus(t *testing.T) {
	in := newExitInputs(t)
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string // a part of stderr, when it must say something
	}{
		{"parse: a dump", []string{"parse", in.wrk}, 0, ""},
		{"parse: csv", []string{"parse", "-format", "csv", in.wrk}, 0, ""},
		{"parse: unknown flag", []string{"parse", "-nope", in.wrk}, 2, ""},
		{"parse: bad -format", []string{"parse", "-format", "xml", in.wrk}, 2, "want json or csv"},
		{"parse: no path", []string{"parse"}, 2, "give at least one PATH"},
		{"parse: missing path", []string{"parse", in.wrk, in.missing}, 2, "nonexistent"},
		{"parse: named file not a dump", []string{"parse", in.garbage}, 2, "binary data"},
		{"parse: empty folder", []string{"parse", in.empty}, 2, "no dumps in " + in.empty},
		{"parse: folder with no dumps", []string{"parse", in.notes}, 2, "no dumps in " + in.notes},
		{"parse: empty dump met in a folder", []string{"parse", in.withEmpty}, 1, "failed.txt: empty file"},
		{"parse: a run named twice", []string{"parse", in.run, in.run}, 0, "warning: "},
		{"parse: a run and its copy", []string{"parse", in.run, in.runCopy}, 0, "read once"},
		{"parse: one run id, two run.json", []string{"parse", in.run, in.runChanged}, 2, "different run.json"},

		{"audit: a run", []string{"audit", in.run}, 0, ""},
		{"audit: unknown flag", []string{"audit", "-nope", in.run}, 2, ""},
		{"audit: bad -format", []string{"audit", "-format", "xml", in.run}, 2, "want text or json"},
		{"audit: no path", []string{"audit"}, 2, "give at least one PATH"},
		{"audit: missing path", []string{"audit", in.missing}, 2, "nonexistent"},
		{"audit: empty folder", []string{"audit", in.empty}, 2, "no dumps in"},
		{"audit: a run named twice", []string{"audit", in.run, in.run}, 0, "read once"},
		{"audit: one run id, two run.json", []string{"audit", in.run, in.runChanged}, 2, "different run.json"},
		{"audit: -pair of one target", []string{"audit", "-pair", "chi,chi", in.run}, 2, "with itself"},
		{"audit: -table missing", []string{"audit", "-table", in.missing, in.run}, 2, "nonexistent"},
		{"audit: -table a device", []string{"audit", "-table", "/dev/zero", in.run}, 2, "not a regular file"},
		{"audit: -table a FIFO no one writes", []string{"audit", "-table", in.fifo, in.run}, 2, "no markdown table"},
		{"audit: -table an empty file", []string{"audit", "-table", filepath.Join(in.withEmpty, "failed.txt"), in.run}, 2, "no markdown table"},
		{"audit: -table with empty dumps and a mismatch", []string{"audit", "-table", in.bunTable, in.bun}, 1, ""},
		{"audit: empty dump met in a folder", []string{"audit", in.withEmpty}, 1, ""},

		{"compare: two runs", []string{"compare", in.wrk, in.run}, 0, ""},
		{"compare: one path", []string{"compare", in.run}, 2, "exactly two"},
		{"compare: unknown flag", []string{"compare", "-nope", in.run, in.wrk}, 2, ""},
		{"compare: missing path", []string{"compare", in.run, in.missing}, 2, "nonexistent"},
		{"compare: empty folder", []string{"compare", in.run, in.empty}, 2, "no dumps in"},
		{"compare: a run with its copy", []string{"compare", in.run, in.runCopy}, 2, "on both sides"},
		{"compare: empty dump met in a folder", []string{"compare", in.wrk, in.withEmpty}, 1, "empty file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && slices.Contains(tt.args, in.fifo) {
				// the FIFO waits out parse's 5 s for a writer; read as
				// empty (rundir's TestOpenNamedBounded), it takes the empty-file row's path
				t.Skip("-short: waits 5 s for a writer")
			}
			_, stderr, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("fairbench %s: exit %d, want %d\n%s", strings.Join(tt.args, " "), code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("fairbench %s: stderr does not say %q:\n%s", strings.Join(tt.args, " "), tt.stderr, stderr)
			}
		})
	}
}

// TestAuditTableReportsEmptyDumps: auditing a table against a folder in
// which a framework left an empty dump reports the empty dump as a finding
// beside the table's mismatches.
func TestAuditTableReportsEmptyDumps(t *testing.T) {
	in := newExitInputs(t)
	stdout, stderr, code := runCLI(t, "audit", "-table", in.bunTable, in.bun)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{"input-unreadable", "failed.txt", "table-mismatch"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("findings do not say %q:\n%s", want, stdout)
		}
	}
}
