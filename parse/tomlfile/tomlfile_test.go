package tomlfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefuses names the limit or the kind of file it refused, and
// returns at once: /dev/zero and a FIFO nobody writes are never read.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("title = \""+strings.Repeat("x", MaxBytes)+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "not a regular file (a device)"},
		{fifo, "not a regular file (a FIFO)"},
		{dir, "not a regular file (a folder)"},
		{big, "over the 1024 KiB limit of a TOML file"},
	} {
		start := time.Now()
		_, err := Read(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.path+": ") {
			t.Errorf("%s: err = %v, want %q naming the file", c.path, err, c.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", c.path, d)
		}
	}
	ok := filepath.Join(dir, "ok.toml")
	if err := os.WriteFile(ok, []byte(strings.Repeat("#", MaxBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(ok); err != nil {
		t.Errorf("a file of exactly MaxBytes: %v", err)
	}
}

// TestLines finds each key's line through tables, arrays of tables (nested
// ones counted across the file), inline tables, dotted keys, quoted keys,
// comments and arrays that span lines.
func TestLines(t *testing.T) {
	src := `name = "x"   # line 1
# rate = 9 is a comment
[load]
rate = 5
pairs = [
  ["a", "b"],
  ["rate", "c"],
]
[[scenario]]
name = "p"
request = { method = "GET", path = "/" }
load.rate = 7
[[scenario.variant]]
request = { path = "/a" }
[[scenario]]
name = "q"
[[scenario.variant]]
"x-y" = 1
[[scenario.variant]]
request = { path = "/c", headers = { h = "v" } }
`
	var doc map[string]any
	f, _ := Decode("t.toml", []byte(src), &doc, "") // a map decodes no key: all "unknown"
	if f == nil {
		t.Fatal("no File for a valid document")
	}
	for _, c := range []struct {
		path string
		line int
	}{
		{"name", 1},
		{"load", 3},
		{"load.rate", 4},
		{"load.pairs", 5},
		{"scenario.1", 9},
		{"scenario.1.name", 10},
		{"scenario.1.request", 11},
		{"scenario.1.request.path", 11},
		{"scenario.1.load.rate", 12},
		{"scenario.1.variant.1.request", 14},
		{"scenario.2.name", 16},
		{"scenario.2.variant.2.x-y", 18},
		{"scenario.2.variant.3.request.headers.h", 20},
		{"scenario.2.variant.3.expect", 19}, // not set: its table's line
		{"nothing.at.all", 1},
	} {
		if got := f.Line(c.path); got != c.line {
			t.Errorf("Line(%q) = %d, want %d", c.path, got, c.line)
		}
	}
	if !f.Has("scenario.1.load.rate") || f.Has("scenario.2.load.rate") {
		t.Errorf("Has: scenario 1 sets load.rate, scenario 2 does not")
	}
}

// TestUnknownKeys names every unknown key at its own line, also when an
// array of tables repeats it.
func TestUnknownKeys(t *testing.T) {
	var v struct {
		Target []struct {
			Name string `toml:"name"`
		} `toml:"target"`
	}
	src := "[[target]]\nname = \"a\"\nouput = 1\n[[target]]\nname = \"b\"\nouput = 2\n[extra]\nx = 1\n"
	_, err := Decode("u.toml", []byte(src), &v, " (see the docs)")
	want := "u.toml:3: unknown key \"target.ouput\" (see the docs)\nu.toml:6: unknown key \"target.ouput\" (see the docs)\nu.toml:7: unknown key \"extra\" (see the docs)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestDecodeHostileSize decodes files near MaxBytes made of what costs the
// line finder most (unknown keys, one table each; keys written so no
// pattern finds them) in seconds, not the minutes a quadratic search takes.
func TestDecodeHostileSize(t *testing.T) {
	var unknown, escaped strings.Builder
	for i := 0; unknown.Len() < MaxBytes-64; i++ {
		fmt.Fprintf(&unknown, "[t%d]\nk%d = 1\n", i, i)
	}
	for i := 0; escaped.Len() < MaxBytes-64; i++ {
		fmt.Fprintf(&escaped, "\"\\u0041%d\" = 1\n", i)
	}
	var v struct {
		Name string `toml:"name"`
	}
	for name, src := range map[string]string{"unknown": unknown.String(), "escaped": escaped.String()} {
		start := time.Now()
		_, err := Decode(name+".toml", []byte(src), &v, "")
		if err == nil || !strings.HasPrefix(err.Error(), name+".toml:") || len(err.Error()) > 4096 {
			t.Errorf("%s: err = %.200v… (%d bytes)", name, err, len(fmt.Sprint(err)))
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: %v to decode %d bytes", name, d, len(src))
		}
		t.Logf("%s: %d bytes in %v", name, len(src), time.Since(start))
	}
}

// FuzzDecode feeds fairbench's own TOML files: decoded or refused as
// file:line, never a panic, and every key found at a line of the file.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../site/suites/*.toml")
	files = append(files, "../../site/site.toml")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("[a]\nb = { c = 1, \"d.e\" = [\n[1], [2]] }\n[[f.g]]\n'h' . i = 2\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var doc struct {
			Name   string            `toml:"name"`
			Env    map[string]string `toml:"env"`
			Target []struct {
				Name string `toml:"name"`
			} `toml:"target"`
		}
		file, err := Decode("f.toml", src, &doc, "")
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "f.toml:") {
					t.Errorf("a problem without the file: %q", line)
				}
			}
		}
		if file == nil {
			return
		}
		n := 1 + strings.Count(string(src), "\n")
		for _, e := range file.order {
			if e.line < 1 || e.line > n {
				t.Errorf("%s at line %d of %d", e.path, e.line, n)
			}
		}
	})
}
