package render

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8Names: target and scenario names that are not UTF-8 (a
// run.json or a file name can hold any bytes) reach every page as U+FFFD,
// visibly, and every file name of the site is UTF-8.
func TestInvalidUTF8Names(t *testing.T) {
	set, site := fixture(t)
	const target, scenario = "gin\xff\xfe<b>", "ping\xc3"
	for _, m := range set.Measurements {
		if m.Target == "gin" {
			m.Target = target
		}
		if m.Scenario == "ping" {
			m.Scenario = scenario
		}
	}
	for _, tg := range set.Targets {
		if tg.Name == "gin" {
			tg.Name = target
		}
	}
	out := build(t, set, site)
	pages := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if !utf8.ValidString(rel) {
			t.Errorf("file name %q is not UTF-8", rel)
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pages++
		if !utf8.Valid(b) {
			i := 0
			for i < len(b) {
				r, n := utf8.DecodeRune(b[i:])
				if r == utf8.RuneError && n == 1 {
					break
				}
				i += n
			}
			t.Errorf("%s is not UTF-8 at byte %d: %q", rel, i, b[max(0, i-20):min(len(b), i+20)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	results, _ := os.ReadFile(filepath.Join(out, "results.html"))
	if !bytes.Contains(results, []byte("gin\uFFFD&lt;b&gt;")) || !bytes.Contains(results, []byte("ping\uFFFD")) {
		t.Error("results.html does not show the names with U+FFFD in place of their invalid bytes")
	}
	if pages < 15 {
		t.Errorf("only %d pages", pages)
	}
}

// TestValidUTF8Writer: a rune cut between two writes stays whole; bytes
// that are not UTF-8 become U+FFFD, also at the end of a page.
func TestValidUTF8Writer(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   string
	}{
		{[]string{"a\xe2\x82", "\xacb"}, "a€b"},
		{[]string{"a\xe2", "\x82", "\xac"}, "a€"},
		{[]string{"a\xff", "b"}, "a\uFFFDb"},
		{[]string{"a\xe2\x82", "b"}, "a\uFFFDb"},
		{[]string{"a\xe2\x82"}, "a\uFFFD"},
	} {
		var b bytes.Buffer
		v := validUTF8{w: &b}
		for _, w := range tc.writes {
			if n, err := v.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
		}
		if err := v.end(); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%q: wrote %q, want %q", tc.writes, b.String(), tc.want)
		}
	}
}
