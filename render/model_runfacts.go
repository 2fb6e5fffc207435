package render

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// runFacts is what the site keeps of every run read, on show or not, for
// the pages and files that list every run (history, downloads,
// results.json): where the run is, when it started, where its history
// statistics are in the spool, and its environment. A few hundred bytes a
// run: the environment is shared by the runs that have the same one.
type runFacts struct {
	id, path string
	start    time.Time
	loadAvg  []float64 // the host fact that differs from run to run
	env      *runEnv
	hist     span
}

// runEnv is a run's environment from its run.json: the suite, the host
// without its load, the CPUs the server and client were pinned to, and
// the tools' versions. Runs of one suite on one machine share one.
type runEnv struct {
	suite, suiteSHA256     string
	host                   runjson.Facts // LoadAvg left out
	serverCPUs, clientCPUs string
	tools                  map[string]string // tool → version
}

// factsOf is r's facts, its environment shared with the runs read before
// that have the same.
func (in *Input) factsOf(r *parse.Run) runFacts {
	env := runEnv{suite: r.Suite, suiteSHA256: r.SuiteSHA256, host: r.Facts,
		serverCPUs: r.Isolation.ServerCPUs, clientCPUs: r.Isolation.ClientCPUs}
	env.host.LoadAvg = nil
	if len(r.Tools) > 0 {
		env.tools = make(map[string]string, len(r.Tools))
		for name, v := range r.Tools {
			env.tools[name] = v.Version
		}
	}
	key := env.key()
	e, ok := in.envs[key]
	if !ok {
		e = &env
		in.envs[key] = e
	}
	return runFacts{id: r.ID, path: r.Path, start: r.Start, loadAvg: r.Facts.LoadAvg, env: e}
}

// key is every field of e, each length-prefixed, so that two environments
// have the same key only when they are the same.
func (e *runEnv) key() string {
	var b strings.Builder
	str := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	num := func(n int64) { str(strconv.FormatInt(n, 10)) }
	h := e.host
	for _, s := range []string{e.suite, e.suiteSHA256, h.Hostname, h.CPUModel, h.Kernel, h.OS, h.Arch, h.Governor, e.serverCPUs, e.clientCPUs, pinningKey(h.Pinning)} {
		str(s)
	}
	num(int64(h.Cores))
	num(int64(h.Threads))
	num(h.MemoryBytes)
	for _, name := range slices.Sorted(maps.Keys(e.tools)) {
		str(name)
		str(e.tools[name])
	}
	return b.String()
}

// pinningKey is p in full (runs share an environment only when their
// topology and pinning findings are the same); "" without one.
func pinningKey(p *runjson.Pinning) string {
	if p == nil {
		return ""
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// topologySummary is the one line the methodology page and the history
// show of a machine's CPU topology; "" when run.json has none.
func topologySummary(h runjson.Facts) string {
	if h.Pinning == nil {
		return ""
	}
	return h.Pinning.Topology.Summary()
}

// host is the run's host facts as its run.json gives them.
func (f *runFacts) host() runjson.Facts {
	h := f.env.host
	h.LoadAvg = f.loadAvg
	return h
}

// after reports whether f started after g (the later ID on a tie).
func (f *runFacts) after(g *runFacts) bool {
	if !f.start.Equal(g.start) {
		return f.start.After(g.start)
	}
	return f.id > g.id
}
