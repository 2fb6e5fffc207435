// Package hostcheck reads what a machine is and how it behaves while
// fairbench measures on it, here or on an SSH host alike (through a
// machine.Machine): its facts (kernel, CPU, memory, load; Facts), the
// host speed probe timed on the server's and the client's CPU sets
// (Probe) with the memo of the fastest times of this machine's last
// collects (SpeedMemo), and the interference in a window: what else used
// the measured CPU sets (Window).
//
// It decides nothing: collect records what it reads in run.json, waits
// for a slow host and takes slow turns again; the audit judges. Reading
// and auditing CPU topology and pinning is package pinning's.
package hostcheck
