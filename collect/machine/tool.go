package machine

import (
	"bytes"
	"context"
	"time"
)

// ToolRun is what one run of a load tool left.
type ToolRun struct {
	Stdout, Stderr []byte  // what the tool wrote
	Exit           int     // -1: killed by a signal
	CPU            float64 // user+system seconds of the tool
	Overran        bool    // killed past its limit
	Err            error   // why it failed, if it did
}

// RunTool runs argv here, in a process group of its own killed after
// limit; the scratch folder argv names is here already.
func (l *Local) RunTool(ctx context.Context, argv []string, _, _ string, limit time.Duration) ToolRun {
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := Command(rctx, argv)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	tr := ToolRun{Err: cmd.Run()}
	tr.Stdout, tr.Stderr = stdout.Bytes(), stderr.Bytes()
	tr.Overran = rctx.Err() == context.DeadlineExceeded
	if cmd.ProcessState != nil {
		tr.Exit = cmd.ProcessState.ExitCode()
		tr.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	return tr
}
