package collect_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/runjson"
)

// smallDisk mounts a 4 MiB tmpfs for the test, or skips when it cannot.
func smallDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a size-limited tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount -t tmpfs refused (%v: %s): cannot fill a disk here", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file into dir until the filesystem is full.
func fillDisk(dir string) (string, error) {
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		return path, err
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return path, nil
			}
			return path, err
		}
	}
}

// TestDiskFills fills the run dir's filesystem after the first measurement
// is recorded: the run stops with an error that says the disk is full and
// how to go on, the dumps stored before are intact, run.json is valid JSON,
// nothing is left running, and -resume finishes once space is freed.
func TestDiskFills(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	disk := smallDisk(t)
	fc := newFaultCase(t, hi, "", "0s", 3, "")
	out := filepath.Join(disk, "runs")
	filled := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			if dirs, _ := filepath.Glob(filepath.Join(out, "*", "run.json")); len(dirs) == 1 && countMeasured(t, filepath.Dir(dirs[0])) >= 1 {
				_, err := fillDisk(disk)
				filled <- err
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	dir, err := runFault(t, fc.suite, collect.Options{Out: out})
	select {
	case ferr := <-filled:
		if ferr != nil {
			t.Fatalf("filling the disk: %v", ferr)
		}
	default:
		t.Fatal("the run ended before the disk was filled")
	}
	if err == nil {
		t.Fatal("a run on a full disk succeeded")
	}
	for _, want := range []string{"no space left on device", "the run stops here", "-resume " + dir.Path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusFailed || !strings.Contains(strings.Join(m.Errors, "\n"), "no space left on device") {
		t.Errorf("status %q, errors %q: want failed, saying the disk is full (the reserve gives run.json room)", m.Status, m.Errors)
	}
	if _, err := os.Stat(filepath.Join(dir.Path, ".reserve")); !os.IsNotExist(err) {
		t.Errorf(".reserve left in the run dir (err %v)", err)
	}
	if n := countMeasured(t, dir.Path); n < 1 || n >= 3 {
		t.Errorf("%d measurements recorded, want the ones before the disk filled", n)
	}
	t.Logf("stopped with %d of 3 measurements, status %q: %v", len(m.Measurements), m.Status, err)
	if err := os.Remove(filepath.Join(disk, "filler")); err != nil {
		t.Fatal(err)
	}
	resumeToEndUnlessShort(t, fc.suite, dir.Path)
}
