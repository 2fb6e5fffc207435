package collect_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// within fails the test when f does not return within d: a read that
// waits on a FIFO for a writer never does.
func within(t *testing.T, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("still reading after %v: the read waits on a FIFO", d)
		return nil
	}
}

// replace puts in place of rel in dir a FIFO, or a link to target.
func replace(t *testing.T, dir, rel, target string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	var err error
	if target == "fifo" {
		err = syscall.Mkfifo(p, 0o644)
	} else {
		err = os.Symlink(target, p)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunJSONReadBounded: the run.json a resume or merge opens must be a
// regular file inside its run dir: a FIFO, /dev/zero or a link to a file
// elsewhere is refused at once.
func TestRunJSONReadBounded(t *testing.T) {
	for _, c := range []struct{ name, target, want string }{
		{"fifo", "fifo", "not a regular file (a FIFO)"},
		{"dev zero", "/dev/zero", "outside the run dir"},
		{"passwd", "/etc/passwd", "outside the run dir"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fakeShard{shard: "1/2", targets: []string{"a"}}.write(t)
			replace(t, dir, "run.json", c.target)
			err := within(t, 10*time.Second, func() error { _, err := rundir.Load(dir); return err })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
}

// TestMergeReadsBounded: merge refuses a FIFO dump, transcript or stderr
// (listed or not) at once, and a dump over the dump limit, leaving nothing
// behind.
func TestMergeReadsBounded(t *testing.T) {
	for _, c := range []struct{ name, rel, target, want string }{
		{"fifo dump", "dumps/b/ping/1.txt", "fifo", "not a regular file (a FIFO)"},
		{"fifo transcript", "conformance/b.txt", "fifo", "not a regular file (a FIFO)"},
		{"linked dump", "dumps/b/ping/1.txt", "/etc/passwd", "outside the run dir"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := fakeShard{shard: "1/2", targets: []string{"a", "c"}}.write(t)
			b := fakeShard{shard: "2/2", targets: []string{"b"}}.write(t)
			replace(t, b, c.rel, c.target)
			out := filepath.Join(t.TempDir(), "merged")
			err := within(t, 10*time.Second, func() error { _, err := collect.Merge(out, []string{a, b}); return err })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
			leftNothing(t, out)
		})
	}
	t.Run("oversize orphan", func(t *testing.T) {
		a := fakeShard{shard: "1/2", targets: []string{"a", "c"}}.write(t)
		b := fakeShard{shard: "2/2", targets: []string{"b"}}.write(t)
		big := filepath.Join(b, "dumps", "b", "ping", "2.txt")
		if err := os.WriteFile(big, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(big, 257<<20); err != nil { // sparse
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "merged")
		_, err := collect.Merge(out, []string{a, b})
		if err == nil || !strings.Contains(err.Error(), "over the 256 MB a dump may have") {
			t.Errorf("err = %v, want the dump limit", err)
		}
		leftNothing(t, out)
	})
}

// TestMergeStreamsDumps: merge hashes and copies a large dump, listed or
// found unlisted (an orphan), in pieces: what it allocates does not grow
// with the dump.
func TestMergeStreamsDumps(t *testing.T) {
	const size = 48 << 20
	a := fakeShard{shard: "1/2", targets: []string{"a", "c"}}.write(t)
	b := fakeShard{shard: "2/2", targets: []string{"b"}}.write(t)
	zeros := sparse(t, filepath.Join(b, "dumps", "b", "ping", "big.txt"), size)
	sparse(t, filepath.Join(b, "dumps", "b", "ping", "orphan.txt"), size)
	d, err := rundir.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	err = d.Update(func(m *runjson.Manifest) {
		m.Measurements = append(m.Measurements, runjson.Measurement{Target: "b", Scenario: "ping", Rep: 2, Order: 2, Tool: "bombardier", Dump: "dumps/b/ping/big.txt", SHA256: zeros})
	})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	merged, err := collect.Merge(t.TempDir(), []string{a, b})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/2 {
		t.Errorf("merge allocated %d MB for two %d MB dumps: it reads them whole", got>>20, size>>20)
	}
	for _, rel := range []string{"dumps/b/ping/big.txt", "dumps/b/ping/orphan.txt"} {
		if info, err := os.Stat(filepath.Join(merged.Path, rel)); err != nil || info.Size() != size {
			t.Errorf("%s not copied whole: %v", rel, err)
		}
	}
}

// sparse makes a file of size zero bytes and returns its sha256.
func sparse(t *testing.T, name string, size int64) string {
	t.Helper()
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, size); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	io.CopyN(h, zeroReader{}, size)
	return hex.EncodeToString(h.Sum(nil))
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }
