// Package machine runs, copies and observes processes on a machine: this
// one (Local) or an SSH host reached with the system's OpenSSH client
// (SSHHost), both behind the Machine interface that collect asks the same
// things either way.
//
// It starts a target as a process group of its own (Server, StartServer)
// and ends it whole, with what left its group (strays.go); reads the
// group's CPU time and memory peak from /proc, here or on the host
// (group.go); claims ports (port.go); runs a load tool and brings its
// output back checked by sha256 (RunTool, hashing with parse/rundir);
// keeps fairbench's own threads off a server's CPUs for a window
// (KeepOff); and runs a command bounded by its context (Command). Atomic
// writes and every file of a run dir are package parse/rundir's.
//
// It leaves to collect what a run means: which targets and tools run
// where, their builds, the gate, the run dir and what is kept of process
// groups that could not be ended (a Tracker).
package machine
