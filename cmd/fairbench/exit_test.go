package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inputs writes a good wrk dump, a binary file and a dump whose name
// carries a terminal escape sequence into a new folder.
func inputs(t *testing.T) (dir, wrk, garbage, escaped string) {
	t.Helper()
	dir = t.TempDir()
	dump, err := os.ReadFile("../../parse/testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	wrk, garbage = filepath.Join(dir, "wrk.txt"), filepath.Join(dir, "garbage.bin")
	escaped = filepath.Join(dir, "\x1b]0;owned\x07\x1b[2J\u202ewrk.txt")
	os.WriteFile(wrk, dump, 0o644)
	os.WriteFile(garbage, []byte("\x00\x01\x02\xff binary\x00\n"), 0o644)
	os.WriteFile(escaped, []byte("not a dump\n"), 0o644)
	return dir, wrk, garbage, escaped
}

// TestExitStatusOnBadInput: an unreadable or unparseable input named on
// the command line is exit status 2 for every command, even when another
// input could be read.
func TestExitStatusOnBadInput(t *testing.T) {
	dir, wrk, garbage, _ := inputs(t)
	missing := filepath.Join(dir, "nonexistent")
	site := filepath.Join(dir, "s")
	for _, args := range [][]string{
		{"parse", wrk, missing},
		{"parse", "-format", "csv", wrk, garbage},
		{"audit", wrk, missing},
		{"audit", "-format", "json", wrk, garbage},
		{"compare", wrk, missing},
		{"compare", wrk, garbage},
		{"render", "-out", site, wrk, missing, garbage},
		{"merge", "-out", dir, missing},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != 2 {
			t.Errorf("fairbench %s: exit %d, want 2\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	if _, stderr, code := runCLI(t, "parse", wrk); code != 0 {
		t.Errorf("fairbench parse %s: exit %d, want 0\n%s", wrk, code, stderr)
	}
}

// TestTextShowsControlCharacters: a file name carrying terminal escape
// sequences reaches the terminal escaped, from every command that prints
// text; JSON Lines keep their own escaping.
func TestTextShowsControlCharacters(t *testing.T) {
	dir, wrk, _, escaped := inputs(t)
	for _, args := range [][]string{
		{"parse", escaped},
		{"parse", "-format", "csv", wrk, escaped},
		{"audit", wrk, escaped},
		{"compare", wrk, escaped},
		{"render", "-out", filepath.Join(dir, "s"), wrk, escaped},
	} {
		stdout, stderr, _ := runCLI(t, args...)
		for _, out := range []string{stdout, stderr} {
			if strings.ContainsAny(out, "\x1b\x07\u202e") {
				t.Errorf("fairbench %s printed a raw control character: %q", args[0], out)
			}
		}
		if !strings.Contains(stderr, `\x1b]0;owned\x07\x1b[2J\u202ewrk.txt`) {
			t.Errorf("fairbench %s does not name the file visibly:\n%s", args[0], stderr)
		}
	}
}

// TestCSVShowsControlCharacters: CSV escapes nothing, so a dump whose name
// carries an escape sequence is written with it visible; JSON Lines escape
// it their own way.
func TestCSVShowsControlCharacters(t *testing.T) {
	_, wrk, _, _ := inputs(t)
	named := filepath.Join(filepath.Dir(wrk), "\x1b[31mred.txt")
	if err := os.Rename(wrk, named); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "parse", "-format", "csv", named)
	if code != 0 || strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, `\x1b[31mred.txt`) {
		t.Errorf("exit %d, CSV %q\n%s", code, stdout, stderr)
	}
	stdout, _, _ = runCLI(t, "parse", named)
	if strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, `\u001b[31mred.txt`) {
		t.Errorf("JSON Lines %q", stdout)
	}
}

func TestTextWriter(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\ttab\n", "plain\ttab\n"},
		{"héllo → ✓", "héllo → ✓"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\rb\x00c\x7f", `a\x0db\x00c\x7f`},
		{"\u009b2J \u202egnp.exe", `\u009b2J \u202egnp.exe`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
	} {
		// Write a byte at a time as well: a sequence cut between writes
		// must come out whole.
		for _, step := range []int{len(tc.in) + 1, 1} {
			var buf bytes.Buffer
			w := newTextWriter(&buf)
			for i := 0; i < len(tc.in); i += step {
				p := tc.in[i:min(i+step, len(tc.in))]
				if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", p, n, err)
				}
			}
			w.Flush()
			if got := buf.String(); got != tc.want {
				t.Errorf("%q in steps of %d: got %q, want %q", tc.in, step, got, tc.want)
			}
		}
	}
	var buf bytes.Buffer
	w := newTextWriter(&buf)
	w.Write([]byte("cut \xe2\x86"))
	w.Flush()
	if got, want := buf.String(), `cut \xe2\x86`; got != want {
		t.Errorf("an unfinished sequence at the end: got %q, want %q", got, want)
	}
}
