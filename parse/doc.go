// Package parse reads the raw output of HTTP load generators (wrk, wrk2,
// bombardier, autocannon; vegeta's reports and encoded results), the
// harness files that wrap them, and fairbench run directories, into one
// model in base units (Measurement, Target).
//
// The dialect of a dump is found from its content, never from its file name.
// A bad line is a *SyntaxError naming file and line; reading goes on where it
// can, and never panics. Every record carries its Source: the file, the line
// range and the file's sha256, so that each number can be traced to its bytes.
//
// parse knows nothing of how dumps were collected (package collect), judged
// (packages parse/verdict: statistics and verdicts; parse/audit: the rules
// that find soft numbers) or shown (package
// render); the run directory on disk is its only contract with them.
// Package parse/rundir owns that directory: parse reads run.json and every
// dump through its bounded opener (rundir.Root, rundir.OpenNamed for files
// named on the command line), never with os.Open.
package parse
