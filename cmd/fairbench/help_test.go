package main

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestHelpTopics runs every topic the table lists: each prints a markdown
// text with a title, and the topic list of 'fairbench help' names them all.
func TestHelpTopics(t *testing.T) {
	list, _, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for name, tp := range topics {
		if (tp.file == "") == (tp.write == nil) {
			t.Errorf("topic %s: set exactly one of file and write", name)
		}
		stdout, stderr, code := runCLI(t, "help", name)
		if code != 0 || !strings.HasPrefix(stdout, "# ") || len(stdout) < 500 {
			t.Errorf("help %s: exit %d, %d bytes starting %.40q, stderr %q", name, code, len(stdout), stdout, stderr)
		}
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +\S`).MatchString(list) {
			t.Errorf("fairbench help does not list topic %s:\n%s", name, list)
		}
	}
	for name := range commands {
		if !regexp.MustCompile(`(?m)^  ` + name + ` +\S`).MatchString(list) {
			t.Errorf("fairbench help does not list command %s", name)
		}
	}
}

// TestHelpCommandIsUsage checks that 'fairbench help CMD' prints on stdout
// exactly what 'fairbench CMD -h' prints on stderr.
func TestHelpCommandIsUsage(t *testing.T) {
	for name := range commands {
		got, _, code := runCLI(t, "help", name)
		_, want, wantCode := runCLI(t, name, "-h")
		if code != 0 || wantCode != 0 || got != want || !strings.Contains(got, "Examples:") {
			t.Errorf("help %s (exit %d):\n%s\n%s -h (exit %d):\n%s", name, code, got, name, wantCode, want)
		}
	}
}

func TestHelpUnknownTopic(t *testing.T) {
	_, stderr, code := runCLI(t, "help", "no-such-topic")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for name := range topics {
		if !strings.Contains(stderr, name) {
			t.Errorf("the error does not name topic %s: %q", name, stderr)
		}
	}
	if _, _, code := runCLI(t, "help", "suite", "hosts"); code != 2 {
		t.Errorf("help with two topics: exit %d, want 2", code)
	}
}

// flagSet is a command's flags as its -h lists them: name → whether it
// takes a value.
func flagSet(t *testing.T, cmd string) map[string]bool {
	t.Helper()
	_, usage, _ := runCLI(t, cmd, "-h")
	flags := map[string]bool{"h": false, "help": false}
	_, defaults, _ := strings.Cut(usage, "\nFlags:\n")
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)( \S+)?$`).FindAllStringSubmatch(defaults, -1) {
		flags[m[1]] = m[2] != ""
	}
	return flags
}

// shellWords splits an example command line as a shell would for the
// cases usage texts use: words, "double" and 'single' quotes.
func shellWords(line string) []string {
	return regexp.MustCompile(`"[^"]*"|'[^']*'|\S+`).FindAllString(line, -1)
}

// TestUsageExampleFlags checks every example line of every usage text:
// each fairbench invocation names a command, and every flag it gives is
// one of that command's, with a value where the flag takes one.
func TestUsageExampleFlags(t *testing.T) {
	sets := map[string]map[string]bool{}
	for name := range commands {
		sets[name] = flagSet(t, name)
	}
	for name, c := range commands {
		_, examples, ok := strings.Cut(c.usage, "\nExamples:\n")
		if !ok {
			t.Errorf("%s: usage has no Examples section", name)
			continue
		}
		own := false
		for _, line := range strings.Split(examples, "\n") {
			// A line may chain commands (cd x && fairbench …) and pipe or
			// redirect their output: each part is checked on its own.
			for _, part := range regexp.MustCompile(`&&|\||;`).Split(line, -1) {
				words := shellWords(part)
				i := slices.IndexFunc(words, func(w string) bool { return w == "fairbench" || strings.HasSuffix(w, "/fairbench") })
				if i < 0 {
					continue
				}
				if i+1 >= len(words) || sets[words[i+1]] == nil {
					t.Errorf("%s example %q: no command after fairbench", name, line)
					continue
				}
				cmd, args := words[i+1], words[i+2:]
				own = own || cmd == name
				checkExampleArgs(t, name, line, sets[cmd], args)
			}
		}
		if !own {
			t.Errorf("%s: no example runs fairbench %s", name, name)
		}
	}
}

func checkExampleArgs(t *testing.T, name, line string, flags map[string]bool, args []string) {
	t.Helper()
	for j := 0; j < len(args); j++ {
		a := args[j]
		if strings.HasPrefix(a, ">") || strings.HasPrefix(a, "<") {
			return // a redirection: the rest is the shell's
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		flag, _, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, ok := flags[flag]
		switch {
		case !ok:
			t.Errorf("%s example %q: -%s is not a flag of that command", name, line, flag)
		case takes && !inline:
			if j+1 >= len(args) || strings.HasPrefix(args[j+1], "-") {
				t.Errorf("%s example %q: -%s wants a value", name, line, flag)
			}
			j++
		}
	}
}

// topicText is a topic's text, and the body of its first ```toml block.
func topicText(t *testing.T, name string) (text, example string) {
	t.Helper()
	stdout, _, code := runCLI(t, "help", name)
	if code != 0 {
		t.Fatalf("help %s: exit %d", name, code)
	}
	_, rest, ok := strings.Cut(stdout, "```toml\n")
	if !ok {
		t.Fatalf("help %s has no ```toml block", name)
	}
	example, _, _ = strings.Cut(rest, "```")
	return stdout, example
}

// tomlKeys are the TOML keys of the struct type typ and of every struct
// it holds, by name, but for the tables named in skip.
func tomlKeys(typ reflect.Type, keys map[string]bool, skip ...string) {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" && f.Anonymous { // the decoder reads its keys as the table's own
			tomlKeys(f.Type, keys, skip...)
			continue
		}
		if key == "" || key == "-" || slices.Contains(skip, key) {
			continue
		}
		keys[key] = true
		tomlKeys(f.Type, keys, skip...)
	}
}

// exampleKeys are the keys an example sets or shows commented out: a
// line's first "key =" and every "key =" inside an inline table, and
// [table] headers.
func exampleKeys(example string) map[string]bool {
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*#?\s*([a-z0-9_]+) =`).FindAllStringSubmatch(example, -1) {
		keys[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*#?\s*\[\[?(?:[a-z]+\.)?([a-z0-9_]+)\]\]?`).FindAllStringSubmatch(example, -1) {
		keys[m[1]] = true
	}
	for _, table := range regexp.MustCompile(`(?:request|expect|load) = \{[^\n]*`).FindAllString(example, -1) {
		for _, m := range regexp.MustCompile(`[{,] ([a-z0-9_]+) =`).FindAllStringSubmatch(table, -1) {
			keys[m[1]] = true
		}
	}
	return keys
}

// TestHelpSuiteKeys holds the suite topic to collect/suite: its example is
// a valid suite, shows every key the loader takes, no other, and its
// [load] and [sweep] values are the defaults.
func TestHelpSuiteKeys(t *testing.T) {
	text, example := topicText(t, "suite")
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.toml")
	st, err := suite.ParseSuite([]byte(example), file)
	if err != nil {
		t.Fatalf("the example of fairbench help suite: %v", err)
	}
	want := map[string]bool{"host": true} // its keys are the hosts topic's
	tomlKeys(reflect.TypeOf(suite.Suite{}), want, "host")
	got := exampleKeys(example)
	for key := range want {
		if !got[key] {
			t.Errorf("fairbench help suite: the example does not show key %s", key)
		}
	}
	headers := regexp.MustCompile(`(?i)^(accept|content-type|x-powered-by|content-length|GOMAXPROCS|DATABASE_URL|PGTZ)$`)
	for key := range got {
		if !want[key] && !headers.MatchString(key) {
			t.Errorf("fairbench help suite: the example shows %s, which is no key of collect/suite", key)
		}
	}
	if l, d := st.Load, suite.DefaultLoad; l.Tool != d.Tool || l.Threads != d.Threads || l.Connections != d.Connections ||
		l.Duration != d.Duration || *l.Warmup != *d.Warmup || l.Repetitions != d.Repetitions || l.Pipelining != d.Pipelining ||
		l.Rate != d.Rate || l.Timeout != d.Timeout {
		t.Errorf("the example's [load] is %+v, want suite.DefaultLoad %+v", l, d)
	}
	if w, d := st.Sweep, suite.DefaultSweep; !slices.Equal(w.Connections, d.Connections) || w.Duration != d.Duration || *w.Warmup != *d.Warmup || w.Repetitions != d.Repetitions {
		t.Errorf("the example's [sweep] is %+v, want suite.DefaultSweep %+v", w, d)
	}
	if l, d := st.Latency, suite.DefaultLatency; !slices.Equal(l.Fractions, d.Fractions) || l.Duration != d.Duration || *l.Warmup != *d.Warmup || l.Repetitions != d.Repetitions {
		t.Errorf("the example's [latency] is %+v, want suite.DefaultLatency's values", l)
	}
	lim := suite.DefaultLimits
	for _, s := range []string{
		"| `threads`, `pipelining` | " + thousands(lim.Threads) + " |",
		"| " + thousands(lim.Connections) + " |",
		"| `repetitions` | " + thousands(lim.Repetitions) + " |",
		"| " + thousands(lim.Rate) + " requests/s |",
		"| " + thousands(int(lim.BodyBytes>>20)) + " MiB, a regular file |",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("fairbench help suite: the limits table has no %q (suite.DefaultLimits)", s)
		}
	}
}

// thousands writes n with commas between groups of three digits, as the
// topics do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// TestHelpHostsKeys holds the hosts topic to collect/suite's HostEntry.
func TestHelpHostsKeys(t *testing.T) {
	_, example := topicText(t, "hosts")
	file := filepath.Join(t.TempDir(), "hosts.toml")
	if err := os.WriteFile(file, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	hosts, err := suite.LoadHosts(file)
	if err != nil {
		t.Fatalf("the example of fairbench help hosts: %v", err)
	}
	if len(hosts) != 2 || !slices.Equal(hosts[0].Roles, []string{suite.RoleServer}) || !slices.Equal(hosts[1].Roles, []string{suite.RoleClient}) {
		t.Errorf("fairbench help hosts: %+v, want a server host and a client host", hosts)
	}
	want := map[string]bool{}
	tomlKeys(reflect.TypeOf(suite.HostEntry{}), want)
	got := exampleKeys(example)
	for key := range want {
		if !got[key] {
			t.Errorf("fairbench help hosts: the example does not show key %s", key)
		}
	}
	for key := range got {
		if !want[key] && key != "host" {
			t.Errorf("fairbench help hosts: the example shows %s, which is no key of a [[host]]", key)
		}
	}
}

// TestHelpVerdictsNumbers holds the numbers the verdicts topic states to
// verdict.DefaultThresholds.
func TestHelpVerdictsNumbers(t *testing.T) {
	text, _, _ := runCLI(t, "help", "verdicts")
	th := verdict.DefaultThresholds
	for _, s := range []string{
		"α = " + strconv.FormatFloat(th.Alpha, 'f', -1, 64),
		"the larger of " + percent(th.Noise),
		"against " + percent(th.Noise) + " alone",
		"fewer than " + strconv.Itoa(th.MinReps) + " repetitions",
		percent(th.ClientSaturation) + " or more of its CPUs",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("fairbench help verdicts does not say %q (verdict.DefaultThresholds)", s)
		}
	}
}

// percent writes a share as the topics do: 0.02 as "2%".
func percent(x float64) string {
	return strconv.FormatFloat(math.Round(x*1e4)/100, 'f', -1, 64) + "%"
}
