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
//     (OpenNamed; a pipe named there is read once and kept), and so do the
//     user's other inputs: suites and body files (ReadRegular, through
//     parse/tomlfile), a README render rewrites (OpenRegular), a site
//     folder's content/ and theme/ (Root.OpenEntry).
//   - lock.go: the one flock(2) lock (TryLock), its file saying who holds
//     it (pid, since when, what for): for a run dir being written
//     (dirlock.go), for a render's out folder, and host-wide for collects
//     measuring on one host (waitlock.go: WaitLock waits its turn).
//   - atomic.go: the one atomic write (a temporary file beside the target,
//     synced, renamed over it).
//   - write.go, portable.go: the run dir being written (Dir): dumps
//     write-once with their sha256 (SHA256, as run.json records it),
//     run.json replaced atomically with the machine's paths written
//     portably.
//   - read.go: reading run.json back (ReadManifest, Load).
//   - publish.go: what of a run dir may be published (Publishable), and
//     OpenPublished, the opener's rule against files from outside it.
//
// A refusal is a *RefusedError (errors.Is ErrRefused) that names the file
// and carries the Rule it broke: RuleLeaves (a ".." or a link out of the
// root), RuleNotRegular (a folder, FIFO, device or socket), RuleSize (over
// its kind's limit, or grown past it while read), RuleForeign (more than
// one hard link, or another device). Callers word it their own way by
// its Rule.
//
// rundir imports nothing of fairbench but parse/runjson, so every layer can
// use it: imports run downward only.
package rundir
