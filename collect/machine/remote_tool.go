package machine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse/rundir"
)

// rcMark starts the last line of a load tool's run on a host: its exit status.
const rcMark = "fairbench-rc "

// RunTool runs a load tool's argv on the host. The tool writes
// its stdout and stderr to files on the host; their sha256 is taken there,
// then they are copied back and checked against it, so that what is stored
// is what the tool wrote. scratch is the local folder whose files the argv
// names (wrk's Lua script, a body file): it is copied to the host first, as
// remote, the folder argv names.
func (h *SSHHost) RunTool(ctx context.Context, argv []string, scratch, remote string, limit time.Duration) ToolRun {
	if h.lost() {
		return ToolRun{Exit: -1, Err: h.lostError()}
	}
	if files, _ := os.ReadDir(scratch); len(files) > 0 {
		if err := h.Sync(ctx, scratch, remote); err != nil {
			return ToolRun{Exit: -1, Err: err}
		}
	}
	runEnv, groups := h.runMark()
	if runEnv != "" {
		runEnv += " " // an assignment before the command: its environment only
	}
	script := "mkdir -p " + shellQuote(remote) + " && cd " + shellQuote(remote) + " && " + recordedMark(groups) + " && { " + runEnv +
		strings.Join(quoteAll(argv), " ") + " >tool.out 2>tool.err; rc=$?; times; sha256sum tool.out tool.err; stat -c '%s %n' tool.out tool.err; echo \"" + rcMark + "$rc\"; }"
	cmd := h.command(context.Background(), script, "-n")
	cmd.Cancel = nil
	var log tailBuffer
	log.max = 4 << 10
	mark := newMarkWriter(&log)
	var errs tailBuffer
	errs.max = 4 << 10
	cmd.Stdout, cmd.Stderr = mark, &errs
	if err := cmd.Start(); err != nil {
		return ToolRun{Exit: -1, Err: err}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tr := ToolRun{Exit: -1}
	var runErr error
	select {
	case runErr = <-done:
	case <-ctx.Done():
		h.endGroup(mark, "load tool")
		runErr = <-done
	case <-time.After(limit):
		tr.Overran = true
		h.endGroup(mark, "load tool")
		runErr = <-done
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	end, ok := readToolEnd(log.String())
	if !ok {
		if runErr == nil {
			runErr = fmt.Errorf("no exit status from host %s", h.Spec.Name)
		}
		tr.Err = h.failure(runErr, errs.String())
		if !tr.Overran {
			h.endGroup(mark, "load tool")
		}
		// Whatever the tool wrote before it was stopped, hashed there now.
		var ferr error
		tr.Stdout, ferr = fetchChecked(fctx, h, remote+"/tool.out")
		if ferr == nil {
			tr.Stderr, _ = fetchChecked(fctx, h, remote+"/tool.err")
		}
		h.Output(fctx, "rm -rf "+shellQuote(remote))
		return tr
	}
	tr.Exit, tr.CPU = end.status, end.cpu
	if end.status != 0 {
		tr.Err = fmt.Errorf("exit status %d on host %s", end.status, h.Spec.Name)
	}
	var err error
	if tr.Stdout, tr.Stderr, err = fetchBoth(fctx, h, remote, end); err != nil {
		if tr.Err == nil {
			tr.Err = err
		}
		return tr
	}
	// The host's copy goes only once this one is known to be whole.
	h.Output(fctx, "rm -rf "+shellQuote(remote))
	return tr
}

// fetchBoth copies tool.out and tool.err from the folder remote on h in one
// stream, cut by the sizes the host listed, and checks each against the
// sha256 taken there. On a mismatch the host's copy is kept.
func fetchBoth(ctx context.Context, h *SSHHost, remote string, end toolEnd) (stdout, stderr []byte, err error) {
	data, err := h.Output(ctx, "cd "+shellQuote(remote)+" && cat tool.out tool.err")
	if err != nil {
		return nil, nil, fmt.Errorf("copy the dump from host %s: %w", h.Spec.Name, err)
	}
	if int64(len(data)) != end.size[0]+end.size[1] {
		return nil, nil, fmt.Errorf("copy the dump from host %s: %d bytes came, it listed %d + %d", h.Spec.Name, len(data), end.size[0], end.size[1])
	}
	stdout, stderr = data[:end.size[0]], data[end.size[0]:]
	for i, b := range [][]byte{stdout, stderr} {
		if got := rundir.SHA256(b); got != end.sha[i] {
			return stdout, stderr, fmt.Errorf("tool.%s changed on its way from host %s (kept there in %s): sha256 %s there, %s here", []string{"out", "err"}[i], h.Spec.Name, remote, end.sha[i], got)
		}
	}
	return stdout, stderr, nil
}

// endGroup ends the process group a command on h reported, if it did;
// one that cannot be reached is kept for later.
func (h *SSHHost) endGroup(mark *markWriter, what string) {
	select {
	case rec := <-mark.found:
		mark.found <- rec
		rec.Host, rec.What = h.Spec.Name, what
		(&remoteProc{ssh: h, rec: rec, track: h.Track}).end()
	default:
	}
}

// toolEnd is what the host printed after the tool: its exit status, CPU
// time, and the sha256 and size of tool.out and tool.err.
type toolEnd struct {
	status int
	cpu    float64
	sha    [2]string
	size   [2]int64
}

// readToolEnd reads the lines the run script prints after the tool: the
// shell's `times` (its children's user and system time on the second
// line), sha256sum's and stat's lines for both files, and rcMark.
func readToolEnd(log string) (toolEnd, bool) {
	var e toolEnd
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) < 7 {
		return e, false
	}
	rc, found := strings.CutPrefix(lines[len(lines)-1], rcMark)
	if !found {
		return e, false
	}
	var err error
	if e.status, err = strconv.Atoi(strings.TrimSpace(rc)); err != nil {
		return e, false
	}
	tail := lines[len(lines)-6:]
	for i, name := range []string{"tool.out", "tool.err"} {
		sum, file, _ := strings.Cut(tail[1+i], "  ")
		size, sfile, _ := strings.Cut(tail[3+i], " ")
		n, err := strconv.ParseInt(size, 10, 64)
		if file != name || sfile != name || len(sum) != 64 || err != nil {
			return e, false
		}
		e.sha[i], e.size[i] = sum, n
	}
	for _, f := range strings.Fields(tail[0]) {
		e.cpu += shellTime(f)
	}
	return e, true
}

// shellTime reads a time as `times` prints it: 1m2.345s.
func shellTime(s string) float64 {
	s = strings.ReplaceAll(s, ",", ".") // a decimal comma, should a locale slip through
	m, sec, ok := strings.Cut(strings.TrimSuffix(s, "s"), "m")
	if !ok {
		return 0
	}
	mv, _ := strconv.ParseFloat(m, 64)
	sv, _ := strconv.ParseFloat(sec, 64)
	return mv*60 + sv
}

// fetchChecked copies a file from h after taking its sha256 there, and
// checks the bytes that arrived against it. A file that is not there is
// empty.
func fetchChecked(ctx context.Context, h *SSHHost, path string) ([]byte, error) {
	q := shellQuote(path)
	sum, err := h.Output(ctx, "[ -f "+q+" ] || exit 0; sha256sum "+q)
	if err != nil {
		return nil, fmt.Errorf("sha256 of %s on host %s: %w", path, h.Spec.Name, err)
	}
	if len(bytes.TrimSpace(sum)) == 0 {
		return nil, nil
	}
	want, _, _ := strings.Cut(string(sum), " ")
	data, err := h.Output(ctx, "cat "+q)
	if err != nil {
		return nil, fmt.Errorf("copy %s from host %s: %w", path, h.Spec.Name, err)
	}
	if got := rundir.SHA256(data); got != want {
		return data, fmt.Errorf("%s changed on its way from host %s: sha256 %s there, %s here", path, h.Spec.Name, want, got)
	}
	return data, nil
}
