package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDiskFullRender: a render whose writes fail part way (the disk
// fills: here, a file size limit on the process) fails, and leaves the
// out folder in a state the next render accepts and rebuilds whole,
// whether the failed writes hit the marker's head, its lines or pages.
func TestDiskFullRender(t *testing.T) {
	run := fixtureRun(t)
	clean := filepath.Join(t.TempDir(), "clean")
	if err := renderTo(t, clean, run); err != nil {
		t.Fatal(err)
	}
	want := tree(t, clean)
	for _, limit := range []int{0, 40, 3000, 20000} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			if err := renderTo(t, out, run); err != nil { // the good site the failed render replaces
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "FAIRBENCH_RENDER_OUT="+out, "FAIRBENCH_RENDER_PATHS="+run, "FAIRBENCH_RENDER_FSIZE="+strconv.Itoa(limit))
			msg, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the render with files limited to %d bytes succeeded", limit)
			}
			if !strings.Contains(string(msg), "file too large") {
				t.Errorf("the failed render says %q, want the write error", msg)
			}
			if err := renderTo(t, out, run); err != nil {
				t.Fatalf("the render after a failed one: %v", err)
			}
			got := tree(t, out)
			if len(got) != len(want) {
				t.Errorf("the site after a failed render has %d files, a clean one %d", len(got), len(want))
			}
			for rel, body := range want {
				if got[rel] != body {
					t.Errorf("%s differs from a clean render's", rel)
				}
			}
		})
	}
}
