// Command fairbench collects HTTP framework benchmarks with real load
// generators, parses raw dumps of wrk, bombardier and autocannon, audits how
// far each number can be trusted, and renders an honest static website.
//
// Usage:
//
//	fairbench <command> [flags] [args]
//
// Run `fairbench help` for the commands and the reference topics,
// `fairbench <command> -h` for the flags and examples of one, and
// `fairbench help TOPIC` for a reference (the suite file, the run
// directory, SSH hosts, how verdicts are decided), shipped in the binary.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// command is one subcommand: its flags are parsed by run.
type command struct {
	summary string
	usage   string // argument synopsis and examples, shown by -h
	run     func(env *env, args []string) error
}

// env is what a command may touch: its output streams and the process's
// interrupt signals.
type env struct {
	// stdout and stderr show control characters visibly (textWriter);
	// data is stdout as it is, for output formats that escape their own.
	stdout, stderr, data io.Writer
	// signals is true in the real process: a command that must clean up
	// before it stops (collect, verify, demo) catches SIGINT and SIGTERM
	// through interruptible, and only while it needs to. Every other command
	// keeps the default behaviour and ends at once on the first signal.
	signals bool
}

// commands is filled in init: the commands' own functions read it for -h.
var commands map[string]command

func init() {
	commands = map[string]command{
		"demo":    demoCommand,
		"collect": collectCommand,
		"merge":   mergeCommand,
		"verify":  verifyCommand,
		"parse":   parseCommand,
		"audit":   auditCommand,
		"compare": compareCommand,
		"render":  renderCommand,
		"init":    initCommand,
		"pin":     pinCommand,
		"help":    helpCommand,
	}
}

// exitError carries an exit status: 1 the command found a failure, 2 bad
// usage or unreadable input.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

func failure(err error) error { return &exitError{code: 1, err: err} }

// errSilent is a failure whose story was already told on stdout/stderr.
var errSilent = errors.New("see above")

func main() {
	err := run(&env{stdout: os.Stdout, stderr: os.Stderr, signals: true}, os.Args[1:])
	os.Exit(report(os.Stderr, err))
}

// report prints err and returns the exit status for it.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	if !errors.Is(err, errSilent) && !errors.Is(err, flag.ErrHelp) {
		text := newTextWriter(stderr)
		fmt.Fprintf(text, "fairbench: %s\n", err)
		text.Flush()
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}

// run is the whole program but for the process exit. It writes e.stdout
// and e.stderr through textWriters and keeps e.stdout as the data stream.
func run(raw *env, args []string) error {
	e := *raw
	e.data = raw.stdout
	e.stdout, e.stderr = newTextWriter(raw.stdout), newTextWriter(raw.stderr)
	defer flushText(e.stdout)
	defer flushText(e.stderr)
	return dispatch(&e, args)
}

// dispatch runs the command args name.
func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		printUsage(e.stderr)
		return usageErr("no command given")
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		name = "help"
	}
	cmd, ok := commands[name]
	if !ok {
		printUsage(e.stderr)
		return usageErr("unknown command %q", name)
	}
	return cmd.run(e, args[1:])
}

// printUsage lists the commands and the reference topics.
func printUsage(w io.Writer) {
	fmt.Fprintf(w, "fairbench: HTTP framework benchmarks, measured honestly\n\nUsage: fairbench <command> [flags] [args]\n\nCommands:\n")
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nTopics (fairbench help TOPIC):\n")
	for _, n := range slices.Sorted(maps.Keys(topics)) {
		fmt.Fprintf(w, "  %-9s %s\n", n, topics[n].summary)
	}
	fmt.Fprintf(w, "\nRun 'fairbench <command> -h' for its flags and examples.\n\nExit status, every command:\n")
	for _, row := range exitTable {
		fmt.Fprintf(w, "  %d  %s\n", row.code, row.condition)
	}
}

// exitTable is the one exit status rule every command follows, as
// 'fairbench help' prints it; exitError carries the code.
var exitTable = []struct {
	code      int
	condition string
}{
	{0, "the command did its job and found nothing wrong"},
	{1, "it ran and found a failure: a target failed the gate (collect and verify, even when\n" +
		"     the other targets were measured and everything was kept), a measurement failed,\n" +
		"     a table mismatches, an audit error, nothing usable measured"},
	{2, "bad usage: unknown flag, bad value, refused -out, missing or unreadable named input,\n" +
		"     empty input"},
}

// newFlags returns a FlagSet for a command whose -h prints summary, usage and flags.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		c := commands[name]
		fmt.Fprintf(e.stderr, "fairbench %s: %s\n\n%s\n", name, c.summary, strings.TrimSpace(c.usage))
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintf(e.stderr, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		// flag printed the problem and the usage already.
		return &exitError{code: 2, err: errSilent}
	}
	return nil
}

// csvList splits "a,b" into names, dropping blanks.
func csvList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
