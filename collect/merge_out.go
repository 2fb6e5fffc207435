package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// checkMergeOut refuses an out folder that is one of the run dirs merged
// or lies inside one, through links too: the merged run would be written
// into a shard, which a merge only reads, and a later merge or render of
// that shard would meet the merged run inside it. A folder that holds the
// shards (out/a, out/b merged into out) is fine.
func checkMergeOut(out string, runDirs []string) error {
	target, err := resolvedPath(out)
	if err != nil {
		return fmt.Errorf("merge: -out %s: %w", out, err)
	}
	for _, p := range runDirs {
		dir, err := resolvedPath(p)
		if err != nil {
			return fmt.Errorf("merge %s: %w", p, err)
		}
		rel, err := filepath.Rel(dir, target)
		switch {
		case err != nil || !filepath.IsLocal(rel): // IsLocal(".") is true
			continue
		case rel == ".":
			return fmt.Errorf("merge: -out %s is the run dir %s, one of those merged: give a folder outside every shard, e.g. its parent", out, p)
		default:
			return fmt.Errorf("merge: -out %s is inside %s, one of the run dirs merged: give a folder outside every shard, e.g. its parent", out, p)
		}
	}
	return nil
}

// resolvedPath is p made absolute with every link resolved, as far as p
// exists; the part that does not exist yet is joined on as written.
func resolvedPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		parent := filepath.Dir(abs)
		if !errors.Is(err, fs.ErrNotExist) || parent == abs {
			return "", err
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}
