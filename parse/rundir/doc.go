// Package rundir owns the fairbench run directory, the contract between
// collect (which writes it) and everything that reads it (parse, audit,
// render, merge, the SSH machine code). No other package opens a file of a
// run dir itself.
//
// What lives where:
//
//   - layout.go: the layout and its names (run.json, suite.toml,
//     conformance/, dumps/), and the kind of each file.
//   - open.go, pipe.go: the one bounded opener. A run dir is input anyone
//     may have edited, so every file is opened as a regular file (a FIFO,
//     device or socket is refused before a byte is read), inside the run dir
//     (no ".." and no link out of it), and read to at most its kind's
//     limit. Files named on the command line go through the same bounds
//     (OpenNamed); a pipe named there is read once and kept.
//   - sha256.go: the sha256 of a dump, as run.json records it.
//   - lock.go: the one pid flock(2) lock, for a run dir being written, for a
//     render's out folder, and host-wide for collects measuring on one host.
//   - atomic.go: the one atomic write (a temporary file beside the target,
//     synced, renamed over it).
//   - write.go, portable.go: the run dir being written (Dir): dumps
//     write-once, run.json replaced atomically with the machine's paths
//     written portably.
//   - read.go: reading run.json back (ReadManifest, Load).
//   - publish.go: what of a run dir may be published.
//
// rundir imports nothing of fairbench but parse/runjson, so every layer can
// use it: imports run downward only.
package rundir
