// Package loadgen knows the load generators fairbench drives: wrk,
// bombardier and autocannon (closed loop) and vegeta (open model). For each
// it finds or installs the pinned version, asks its version, and writes the
// argv that loads one scenario for one window (Driver).
//
// loadgen starts nothing itself beyond version and install commands:
// package collect runs the argv on a machine, pinned, and keeps the dump.
package loadgen
