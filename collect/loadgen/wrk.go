package loadgen

import (
	"context"
	"fmt"
	"maps"
	"os"
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

type wrk struct{}

func (wrk) Name() string { return "wrk" }

// Resolve takes wrk from PATH and asks it its version (wrk -v).
func (wrk) Resolve(ctx context.Context) (runjson.Version, error) {
	path, err := exec.LookPath("wrk")
	if err != nil {
		return runjson.Version{}, fmt.Errorf("wrk not found on PATH: apt-get install wrk")
	}
	return wrkVersion(ctx, path)
}

// wrkVersion asks the wrk at path its version.
func wrkVersion(ctx context.Context, path string) (runjson.Version, error) {
	asked := []string{path, "-v"}
	// wrk -v prints its version and usage and exits 1.
	out, _ := machine.Command(ctx, []string{path, "-v"}).CombinedOutput()
	v, err := WrkVersionIn(path, string(out))
	v.Asked = asked
	return v, err
}

// WrkVersionIn reads what `wrk -v` printed.
func WrkVersionIn(path, out string) (runjson.Version, error) {
	first, _, _ := strings.Cut(out, "\n")
	v := strings.TrimSpace(first)
	if !strings.HasPrefix(v, "wrk ") {
		return runjson.Version{}, fmt.Errorf("%s -v did not print a wrk version: %q", path, v)
	}
	// "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer": the
	// version is the second word.
	return runjson.Version{Path: path, Version: strings.Fields(v)[1]}, nil
}

// Argv runs wrk with --latency for the latency distribution. The method,
// headers, body and pipelining go through a Lua script written to dir.
// wrk has no rate cap.
func (wrk) Argv(bin, url string, req suite.Request, l suite.Load, window time.Duration, dir string) ([]string, error) {
	if l.Rate > 0 {
		return nil, fmt.Errorf("wrk has no rate cap: use bombardier or autocannon")
	}
	argv := []string{bin,
		"-t", strconv.Itoa(l.Threads),
		"-c", strconv.Itoa(l.Connections),
		"-d", strconv.Itoa(wholeSeconds(window)) + "s",
		"--timeout", strconv.Itoa(wholeSeconds(l.Timeout.Std())) + "s",
		"--latency",
	}
	if (req.Method != "" && req.Method != "GET") || req.Body != "" || len(req.Headers) > 0 || l.Pipelining > 1 {
		script := filepath.Join(dir, "request.lua")
		if err := os.WriteFile(script, []byte(wrkScript(req, l.Pipelining)), 0o644); err != nil {
			return nil, err
		}
		argv = append(argv, "-s", script)
	}
	return append(argv, url), nil
}

// wrkScript is a Lua script that sets wrk's method, headers and body, and
// sends depth requests at once on each connection when depth > 1.
func wrkScript(req suite.Request, depth int) string {
	var b strings.Builder
	if req.Method != "" {
		fmt.Fprintf(&b, "wrk.method = %s\n", luaString(req.Method))
	}
	for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
		fmt.Fprintf(&b, "wrk.headers[%s] = %s\n", luaString(k), luaString(req.Headers[k]))
	}
	if req.Body != "" {
		fmt.Fprintf(&b, "wrk.body = %s\n", luaString(req.Body))
	}
	if depth > 1 {
		fmt.Fprintf(&b, `
local pipeline
init = function(args)
  local batch = {}
  for i = 1, %d do batch[i] = wrk.format() end
  pipeline = table.concat(batch)
end
request = function() return pipeline end
`, depth)
	}
	return b.String()
}

// luaString quotes s as a Lua string literal with decimal escapes.
func luaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\%d", c)
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}
