package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingToRender: an input with no dumps and no run dirs is refused
// before -out is touched, so a good site is not replaced by an empty one.
func TestNothingToRender(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if err := renderTo(t, out, fixtureRun(t)); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	empty := t.TempDir()
	notDumps := t.TempDir()
	os.WriteFile(filepath.Join(notDumps, ".gitkeep"), nil, 0o644)
	os.MkdirAll(filepath.Join(notDumps, "sub"), 0o755)
	for _, in := range []string{empty, notDumps} {
		_, _, err := BuildPaths([]string{in}, Options{Out: out})
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "nothing to render: "+in+" holds no dumps or run dirs") {
			t.Errorf("render %s: %v, want a usage error saying nothing to render", in, err)
		}
		if got := tree(t, out); len(got) != len(before) || got[marker] != before[marker] {
			t.Errorf("render %s changed -out: %d files, was %d", in, len(got), len(before))
		}
	}
}
