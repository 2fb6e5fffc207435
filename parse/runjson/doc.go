// Package runjson declares run.json, the manifest of a fairbench run
// directory: the one set of types package collect writes and package parse
// reads. It imports only the standard library, so both can import it.
//
// The run dir on disk is the contract, not these types: a key once written
// keeps its name, and a key that had to change is read under its old name
// too (Isolation reads the "ServerCPUs" of early runs). Encode and Decode are
// the only ways to turn a Manifest into bytes and back.
//
// # Words
//
// A machine is a computer that runs targets or load tools: the one the
// collector runs on, or one reached over SSH. Collect holds one for the
// server side and one for the client side (the same local one on a single
// computer).
//
// Facts are what a machine says about itself: CPU model, cores, memory,
// kernel. The run's own machine's are Manifest.Facts (key "host"); those of
// an SSH host are Host.Facts.
//
// A host is a machine named in a [[host]] table of a suite or a hosts file
// and reached over SSH. Collect reads the table as a HostEntry (how to reach
// it, its roles); run.json keeps a Host: the entry's name, destination and
// roles with the Facts and tool versions the host gave. Measurements name
// their hosts by Host.Name (ServerHost, ClientHost).
//
// A connection is collect's live SSH session to a host; it is never written
// down, only the process groups started through it (Leftover).
//
// CPU lists and CPU seconds are different things and say so: ServerCPUList
// is a taskset list ("0-3"), ServerCPUSeconds the CPU time the server used.
package runjson
