package collect

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// testBinDir is the folder the tests' binaries are built into, once per
// test binary; removeTestBinaries removes it.
var testBinDir = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "fairbench-test-bin-") })

// testBuilds are the binaries tests share, each built at most once: the
// test server, fairbench itself, and the stdlib server of the site's apps.
var testBuilds = map[string]func() (string, error){
	"hiserver":  buildOnce("hiserver", ".", "./testdata/hiserver"),
	"fairbench": buildOnce("fairbench", ".", "../cmd/fairbench"),
	"stdlib":    buildOnce("stdlib", "../site/apps/go", "./stdlib"),
}

// buildOnce builds pkg (relative to dir) into testBinDir the first time
// it is called, and returns the binary's path.
func buildOnce(name, dir, pkg string) func() (string, error) {
	return sync.OnceValues(func() (string, error) {
		bins, err := testBinDir()
		if err != nil {
			return "", err
		}
		bin := filepath.Join(bins, name)
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("build %s: %v\n%s", pkg, err, out)
		}
		return bin, nil
	})
}

// testBinary returns the shared binary name, building it the first time.
func testBinary(t *testing.T, name string) string {
	t.Helper()
	bin, err := testBuilds[name]()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// removeTestBinaries removes what testBinary built.
func removeTestBinaries() {
	if dir, err := testBinDir(); err == nil {
		os.RemoveAll(dir)
	}
}
