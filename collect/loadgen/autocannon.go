package loadgen

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// AutocannonPackage and AutocannonVersion pin the autocannon fairbench runs.
const (
	AutocannonPackage = "autocannon"
	AutocannonVersion = "9.0.0"
)

type autocannon struct{}

func (autocannon) Name() string { return "autocannon" }

// autocannonInstall is the command that installs the pinned autocannon
// where Resolve looks for it.
func autocannonInstall(prefix string) []string {
	return []string{"npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", AutocannonPackage + "@" + AutocannonVersion}
}

// Resolve takes autocannon from PATH when it is the pinned version, and
// otherwise installs the pinned version with npm into the user's cache
// folder (once).
func (autocannon) Resolve(ctx context.Context) (runjson.Version, error) {
	prefix := filepath.Join(cacheDir(), "autocannon-"+AutocannonVersion)
	return pinnedTool{
		name:    "autocannon",
		version: "v" + AutocannonVersion,
		cached:  filepath.Join(prefix, "node_modules", ".bin", "autocannon"),
		ask:     autocannonVersion,
		install: func(ctx context.Context) error {
			install := autocannonInstall(prefix)
			if _, err := exec.LookPath("node"); err != nil {
				return fmt.Errorf("autocannon needs node, not found on PATH: apt-get install nodejs npm, then %s", strings.Join(install, " "))
			}
			if _, err := exec.LookPath("npm"); err != nil {
				return fmt.Errorf("autocannon not found and no npm to install it: apt-get install npm, then %s", strings.Join(install, " "))
			}
			if out, err := machine.Command(ctx, install).CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %v\n%s", strings.Join(install, " "), err, out)
			}
			return nil
		},
	}.resolve(ctx)
}

// autocannonVersion asks autocannon --version, which prints
// "autocannon v9.0.0" and then node's version.
func autocannonVersion(ctx context.Context, path string) (runjson.Version, error) {
	asked := []string{path, "--version"}
	out, err := machine.Command(ctx, []string{path, "--version"}).CombinedOutput()
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s --version: %v\n%s", path, err, out)
	}
	v, err := AutocannonVersionIn(path, string(out))
	v.Asked = asked
	return v, err
}

// AutocannonVersionIn reads what `autocannon --version` printed.
func AutocannonVersionIn(path, out string) (runjson.Version, error) {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "autocannon "); ok {
			return runjson.Version{Path: path, Version: v}, nil
		}
	}
	return runjson.Version{}, fmt.Errorf("%s --version did not print an autocannon version: %q", path, out)
}

// Argv asks for the JSON result on stdout (--json); autocannon then draws
// no progress bar and no table. Threads above one become worker threads.
// A body file is passed with -i, which autocannon reads as UTF-8 text.
func (autocannon) Argv(bin, url string, req suite.Request, l suite.Load, window time.Duration, dir string) ([]string, error) {
	argv := []string{bin,
		"-c", strconv.Itoa(l.Connections),
		"-d", strconv.Itoa(wholeSeconds(window)),
		"-t", strconv.Itoa(wholeSeconds(l.Timeout.Std())),
		"-p", strconv.Itoa(max(1, l.Pipelining)),
		"--json",
	}
	if l.Threads > 1 {
		argv = append(argv, "-w", strconv.Itoa(l.Threads))
	}
	if l.Rate > 0 {
		argv = append(argv, "-R", strconv.Itoa(l.Rate))
	}
	if req.Method != "" && req.Method != "GET" {
		argv = append(argv, "-m", req.Method)
	}
	for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
		argv = append(argv, "-H", k+"="+req.Headers[k])
	}
	switch {
	case req.BodyPath != "":
		argv = append(argv, "-i", req.BodyPath)
	case req.Body != "":
		argv = append(argv, "-b", req.Body)
	}
	return append(argv, url), nil
}
