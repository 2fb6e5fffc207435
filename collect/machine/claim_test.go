package machine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/internal/sshlab"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestClaim drives claims on a real sshd: a name a live collect holds is
// refused to a second and left whole; a collect that dies (its ssh
// clients killed, as SIGKILL of fairbench kills them) loses its hold at
// once, and the next claim ends what it started (a child that left the
// process group with setsid too) and removes its folder, but not the
// folder of a collect that still lives.
func TestClaim(t *testing.T) {
	t.Parallel()
	lab := sshlab.Start(t, "server")
	lh := lab.Host("server")
	spec := suite.HostEntry{Name: "server", SSH: lh.Destination(), Port: lh.Port, Config: lab.Config, Dir: lh.Dir, Roles: []string{suite.RoleServer}}
	ctx := context.Background()
	connect := func() *SSHHost {
		t.Helper()
		h := NewSSHHost(spec, t.TempDir())
		h.Track = nopTracker{}
		if err := h.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		return h
	}
	tag := fmt.Sprintf("%08x", rand.Uint32())
	nameA, nameC := "run-a-"+tag, "run-c-"+tag
	bin := filepath.Join(lh.Dir, "bin")

	a := connect()
	if rep, err := a.Claim(ctx, nameA, "collect A"); err != nil || len(rep.Reaped) > 0 {
		t.Fatalf("claim A: %+v, %v", rep, err)
	}
	// a server that leaves a child behind in a session of its own
	seconds := 3000 + rand.IntN(999)
	if _, err := a.Start("hi", Program{Dir: lh.Dir, Argv: []string{"sh", "-c", fmt.Sprintf("setsid sleep %d & exec sleep %d", seconds, seconds+1)}}); err != nil {
		t.Fatal(err)
	}
	var started []int
	for deadline := time.Now().Add(10 * time.Second); len(started) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		started = sleepers(seconds)
	}
	if len(started) != 2 {
		t.Fatalf("the server and its child: %v running", started)
	}

	b := connect()
	if _, err := b.Claim(ctx, nameA, "collect B"); err == nil || !strings.Contains(err.Error(), "collect A") {
		t.Errorf("claim B of A's folder while A lives: %v, want an error naming collect A", err)
	}
	b.Release(ctx) // B holds nothing: A's folder stays
	c := connect()
	if rep, err := c.Claim(ctx, nameC, "collect C"); err != nil || len(rep.Reaped) > 0 {
		t.Errorf("claim C while A lives: %+v, %v: want nothing removed", rep, err)
	}
	if _, err := os.Stat(filepath.Join(bin, nameA)); err != nil {
		t.Fatalf("A's folder after B's and C's claims: %v", err)
	}
	if got := sleepers(seconds); len(got) != 2 {
		t.Fatalf("A's processes after B's and C's claims: %v", got)
	}

	// A dies as a SIGKILLed fairbench does: its ssh clients go at once.
	holder := a.claim.rec
	a.claim.holder.Process.Kill()
	a.master.Process.Kill()
	for deadline := time.Now().Add(10 * time.Second); alive(holder.Group); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("A's holder (group %d) still runs 10 s after its ssh clients died", holder.Group)
		}
	}

	d := connect()
	rep, err := d.Claim(ctx, "run-d-"+tag, "collect D")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("D's claim: %+v", rep)
	if len(rep.Reaped) != 1 || rep.Reaped[0].Folder != filepath.Join(bin, nameA) || rep.Reaped[0].Owner != "collect A" || len(rep.Reaped[0].Ended) == 0 {
		t.Errorf("D's claim reaped %+v: want A's folder, owner and processes", rep.Reaped)
	}
	for _, pid := range started {
		if alive(pid) {
			t.Errorf("A's process %d (%s) still runs", pid, cmdlineOf(pid))
		}
	}
	for _, gone := range []string{nameA, nameA + ".owner", nameA + ".groups"} {
		if _, err := os.Lstat(filepath.Join(bin, gone)); !os.IsNotExist(err) {
			t.Errorf("bin/%s after D's claim: %v", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(bin, nameC)); err != nil {
		t.Errorf("C's folder after D's claim: %v", err)
	}

	// D's server leaves a child behind; stopped, its group is gone, and
	// the release ends the child.
	srv, err := d.Start("hi", Program{Dir: lh.Dir, Argv: []string{"sh", "-c", fmt.Sprintf("setsid sleep %d & exec sleep %d", seconds+2, seconds+3)}})
	if err != nil {
		t.Fatal(err)
	}
	var child []int
	for deadline := time.Now().Add(10 * time.Second); len(child) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		child = sleepers(seconds + 2)
	}
	srv.Stop(time.Second)
	if child = sleepers(seconds + 2); len(child) != 1 {
		t.Fatalf("after Stop, the setsid child of D's server: %v", child)
	}
	if len(c.Release(ctx)) != 0 {
		t.Errorf("C's release ended something")
	}
	if ended := d.Release(ctx); !slices.Contains(ended, strconv.Itoa(child[0])) || alive(child[0]) {
		t.Errorf("D's release ended %v: want the setsid child %d, and it gone (alive: %v)", ended, child[0], alive(child[0]))
	}
	if entries, _ := os.ReadDir(bin); len(entries) != 0 {
		t.Errorf("bin/ after the releases holds %d entries", len(entries))
	}
}

// sleepers are the processes running `sleep seconds` or `sleep seconds+1`.
func sleepers(seconds int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd := cmdlineOf(pid)
		if cmd == "sleep "+strconv.Itoa(seconds) || cmd == "sleep "+strconv.Itoa(seconds+1) {
			out = append(out, pid)
		}
	}
	return out
}

func cmdlineOf(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return string(bytes.TrimSpace(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// alive reports whether pid runs and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	f := statFields(pid)
	return len(f) > 1 && f[0] != "Z"
}

type nopTracker struct{}

func (nopTracker) Started(runjson.Leftover)        {}
func (nopTracker) Ended(runjson.Leftover)          {}
func (nopTracker) Unended(runjson.Leftover, error) {}
