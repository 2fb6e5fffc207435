package machine

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// outputGrace bounds how long a wait on a process's output may outlive
// the process: a child it left behind (`setsid sleep 40 &`) that keeps its
// stdout open must not hold fairbench.
const outputGrace = 2 * time.Second

// Command is argv as a process group of its own that dies with fairbench,
// killed whole when ctx ends, whose output is waited for at most
// outputGrace once it has exited.
func Command(ctx context.Context, argv []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = outputGrace
	return cmd
}
