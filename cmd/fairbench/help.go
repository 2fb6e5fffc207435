package main

import (
	"embed"
	"errors"
	"flag"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/audit"
)

// helpFiles are the reference topics, shipped in the binary so that the
// reference a user reads is the one of the fairbench they run.
//
//go:embed help/*.md
var helpFiles embed.FS

// topic is one `fairbench help TOPIC` text: an embedded markdown file under
// help/, or, for a text made from code (a registry that lists itself), a
// function that writes it. Exactly one of file and write is set.
type topic struct {
	summary string
	file    string                // name under help/
	write   func(io.Writer) error // writes the text; nil for a file topic
}

// topics are the reference topics by name. A generated topic is added as
// {summary: "…", write: pkg.WriteX}: help, the usage list and the tests
// treat it as they treat a file.
var topics = map[string]topic{
	"suite":    {summary: "the suite file: every key, its default and limit, a commented example", file: "suite.md"},
	"run-dir":  {summary: "the run directory collect writes and run.json's main fields", file: "run-dir.md"},
	"hosts":    {summary: "hosts.toml: server and load tool on SSH hosts, shards, merge", file: "hosts.md"},
	"verdicts": {summary: "how a difference is decided: Welch, Holm, the noise floor, client-bound", file: "verdicts.md"},
	"rules":    {summary: "the audit's rules: what each finds and what to do about it", write: audit.WriteRulesMarkdown},
}

var helpCommand = command{
	summary: "show the commands, a command's usage, or a reference topic",
	usage: `fairbench help [COMMAND | TOPIC]

Without an argument, lists the commands and the reference topics. With a
COMMAND, prints its usage, the same text as 'fairbench COMMAND -h' but on
stdout. With a TOPIC, prints that reference as markdown. An unknown name is
a usage error (exit status 2) that lists the known ones.

Examples:
  fairbench help
  fairbench help collect
  fairbench help suite
  fairbench help verdicts | less`,
	run: runHelp,
}

func runHelp(e *env, args []string) error {
	fs := newFlags(e, "help")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		printUsage(e.stdout)
		return nil
	case 1:
	default:
		return usageErr("help: give one command or topic, got %q", fs.Args())
	}
	name := fs.Arg(0)
	if t, ok := topics[name]; ok {
		return writeTopic(e.stdout, t)
	}
	if c, ok := commands[name]; ok {
		return commandUsage(e, c)
	}
	return usageErr("help: unknown topic %q: topics are %s; commands are %s",
		name, strings.Join(slices.Sorted(maps.Keys(topics)), ", "), strings.Join(slices.Sorted(maps.Keys(commands)), ", "))
}

// writeTopic writes a topic's text to w.
func writeTopic(w io.Writer, t topic) error {
	if t.write != nil {
		return t.write(w)
	}
	b, err := helpFiles.ReadFile("help/" + t.file)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// commandUsage prints a command's -h text on stdout. It runs the command
// with -h, so the text is the one -h prints, flags included: every command
// parses its flags before it does anything else.
func commandUsage(e *env, c command) error {
	sub := *e
	sub.stderr = e.stdout
	err := c.run(&sub, []string{"-h"})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}
