package collect

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// MergeOptions are the settings of a merge.
type MergeOptions struct {
	// Partial merges what there is when shards are missing or unfinished.
	// The merged run is then "failed", and its errors say which shards and
	// targets are missing. Without it, a merge needs every shard complete.
	Partial bool
}

// Merge joins the run dirs of the N shards of one suite (collect -shard
// I/N) into one new run dir under out, as if one collect had measured every
// target. It is MergeWith without options: every shard must be there and
// complete.
func Merge(out string, runDirs []string) (*RunDir, error) {
	return MergeWith(out, runDirs, MergeOptions{})
}

// MergeWith joins shard run dirs into one new run dir under out and returns
// it. Nothing is written until every check has passed: the runs are shards
// ("I/N", the same N, no shard twice) of the same suite bytes (suite_sha256,
// and each suite.toml still hashes to it), each holds exactly its share of
// the targets, no target is measured in two shards, every shard is complete
// (unless opt.Partial), and every dump still has the sha256 its run.json
// recorded. The shard run dirs are only read: out may not be one of them
// or lie inside one.
//
// The merged run dir is <earliest start>-merged (then -merged-2, …). Every
// dump, stderr file, orphan and conformance transcript is copied byte for
// byte under its own path (targets differ between shards, so paths do too),
// each dump checked again against its sha256 as it is copied; any error
// removes the new run dir. Its run.json:
//
//   - start is the earliest shard's start, end the latest shard's end, host
//     the lowest shard's host; status complete when all N shards are in.
//   - targets are in suite order. Measurements come shard by shard, each
//     shard's order numbers shifted past the previous shard's largest: order
//     is a sequence on one machine, and interleaving machines by wall clock
//     would hide that a shard's repetitions ran back to back there (and
//     depend on the machines' clocks agreeing).
//   - every measurement names its shard ("I/N") and both its hosts. Where a
//     shard left ServerHost or ClientHost empty (its collector's own
//     machine), the shard's Host.Hostname fills it, and that machine joins
//     hosts (roles as it served, facts the shard's host, tools the shard's
//     tools). A target's host is filled the same way.
//   - hosts are the union by name of the shards' SSH hosts and machines. The
//     same name with the same facts (load average aside) is one host; the
//     same name with other facts is another machine, named name#2, name#3, …,
//     and the measurements of its shard say so.
//   - tools are the union by name, the lowest shard's entry first. A tool
//     two shards report in different versions keeps the lowest shard's in
//     tools; errors says which shard used which, and each measurement keeps
//     its own tool_version and each host its own tools. Targets served by
//     different machines are noted in errors too: their numbers compare only
//     as far as the machines are alike.
//   - services, resumes, orphans and errors are each shard's (errors
//     prefixed with the shard); merged has one record per shard.
func MergeWith(out string, runDirs []string, opt MergeOptions) (*RunDir, error) {
	if len(runDirs) == 0 {
		return nil, errors.New("merge: no run dirs given")
	}
	if err := checkMergeOut(out, runDirs); err != nil {
		return nil, err
	}
	shards, err := openShards(runDirs)
	if err != nil {
		return nil, err
	}
	suite, names, err := shardSuite(shards)
	if err != nil {
		return nil, err
	}
	missing, err := checkShares(shards, names, opt.Partial)
	if err != nil {
		return nil, err
	}
	files, err := shardFiles(shards)
	if err != nil {
		return nil, err
	}
	for _, f := range files { // all read and checked before anything is written
		if err := f.check(); err != nil {
			return nil, err
		}
	}
	m := mergedManifest(shards, names, missing)
	return writeMerged(out, m, suite, files)
}

// shardRun is one shard's run dir as read.
type shardRun struct {
	path  string
	shard Shard
	m     runjson.Manifest
}

// openShards reads every run.json and checks that they are shards of one
// suite cut the same way, none twice. It returns them in shard order.
func openShards(runDirs []string) ([]shardRun, error) {
	var shards []shardRun
	for _, p := range runDirs {
		d, err := rundir.Load(p)
		if err != nil {
			return nil, fmt.Errorf("merge %s: %w", p, err)
		}
		m := d.Manifest()
		if m.Shard == "" {
			if len(m.Merged) > 0 {
				return nil, fmt.Errorf("merge %s: a merged run already: merge the shard run dirs it lists, not the merged run", p)
			}
			return nil, fmt.Errorf("merge %s: not a shard (run.json has no shard): merge joins runs collected with fairbench collect -shard I/N", p)
		}
		sh, err := ParseShard(m.Shard)
		if err != nil {
			return nil, fmt.Errorf("merge %s: run.json: %w", p, err)
		}
		// A dump on disk that run.json does not list (a crash between the
		// two writes) is kept as an orphan, as a resume would.
		orphans, err := findOrphans(p, m)
		if err != nil {
			return nil, fmt.Errorf("merge %s: %w", p, err)
		}
		for _, o := range orphans {
			m.Errors = append(m.Errors, fmt.Sprintf("merge: %s is on disk but not in run.json: kept as an orphan", o.Dump))
		}
		m.Orphans = append(m.Orphans, orphans...)
		shards = append(shards, shardRun{path: p, shard: sh, m: m})
	}
	first := shards[0]
	for _, s := range shards[1:] {
		if s.m.SuiteSHA256 != first.m.SuiteSHA256 {
			return nil, fmt.Errorf("merge: %s and %s were collected from different suites (suite_sha256 %s and %s): merge only shards of one suite", first.path, s.path, first.m.SuiteSHA256, s.m.SuiteSHA256)
		}
		if s.shard.N != first.shard.N {
			return nil, fmt.Errorf("merge: %s is shard %s but %s is shard %s: the shards of one merge cut the suite into the same number of shares", first.path, first.shard, s.path, s.shard)
		}
	}
	sort.SliceStable(shards, func(i, j int) bool { return shards[i].shard.I < shards[j].shard.I })
	for i := 1; i < len(shards); i++ {
		if shards[i].shard == shards[i-1].shard {
			return nil, fmt.Errorf("merge: shard %s given twice: %s and %s", shards[i].shard, shards[i-1].path, shards[i].path)
		}
	}
	return shards, nil
}

// shardSuite returns the suite's bytes and its target names in suite
// order, checking that every shard's suite.toml still hashes to the
// suite_sha256 its run.json recorded.
func shardSuite(shards []shardRun) ([]byte, []string, error) {
	var src []byte
	for _, s := range shards {
		b, err := rundir.ReadFile(s.path, "suite.toml", rundir.KindSuite)
		if err != nil {
			return nil, nil, fmt.Errorf("merge %s: %w", s.path, err)
		}
		if got := rundir.SHA256(b); got != s.m.SuiteSHA256 {
			return nil, nil, fmt.Errorf("merge %s: suite.toml has sha256 %s, run.json says %s: the suite copy changed after the run", s.path, got, s.m.SuiteSHA256)
		}
		src = b
	}
	// Only the names: a suite's body files need not be on this machine.
	var suite struct {
		Targets []struct {
			Name string `toml:"name"`
		} `toml:"target"`
	}
	if err := toml.Unmarshal(src, &suite); err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", filepath.Join(shards[0].path, "suite.toml"), err)
	}
	names := make([]string, len(suite.Targets))
	for i, t := range suite.Targets {
		names[i] = t.Name
	}
	return src, names, nil
}

// checkShares checks that no target is in two shards and that each shard
// holds its share of the targets, then (unless partial) that all N shards
// are there and complete. It returns what is missing, for a partial merge.
func checkShares(shards []shardRun, names []string, partial bool) ([]string, error) {
	n := shards[0].shard.N
	index := map[string]int{}
	for k, name := range names {
		index[name] = k
	}
	measuredIn := map[string]shardRun{}
	for _, s := range shards {
		seen := map[string]bool{}
		for _, t := range s.m.Targets {
			seen[t.Name] = true
		}
		for _, mr := range s.m.Measurements {
			seen[mr.Target] = true
		}
		for _, name := range slices.Sorted(maps.Keys(seen)) {
			if o, ok := measuredIn[name]; ok {
				return nil, fmt.Errorf("merge: target %s is in two shards: %s (%s) and %s (%s)", name, o.path, o.shard, s.path, s.shard)
			}
			measuredIn[name] = s
			k, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("merge %s: target %s is not in the suite", s.path, name)
			}
			if want := shardOf(k, n); want != s.shard {
				return nil, fmt.Errorf("merge %s: shard %s holds target %s, which is in shard %s's share: it was not collected with -shard %s alone", s.path, s.shard, name, want, s.shard)
			}
		}
	}
	var problems []string
	have := map[int]shardRun{}
	for _, s := range shards {
		have[s.shard.I] = s
	}
	for i := 1; i <= n; i++ {
		s, ok := have[i]
		if !ok {
			problems = append(problems, fmt.Sprintf("shard %d/%d is missing", i, n))
			continue
		}
		if s.m.Status != runjson.StatusComplete {
			problems = append(problems, fmt.Sprintf("shard %s (%s) is %s: finish it with fairbench collect -resume %s", s.shard, s.path, s.m.Status, s.path))
		}
		for k, name := range names {
			if s.shard.Has(k) && !slices.ContainsFunc(s.m.Targets, func(t runjson.Target) bool { return t.Name == name }) {
				problems = append(problems, fmt.Sprintf("shard %s (%s) has no record of target %s", s.shard, s.path, name))
			}
		}
	}
	if len(problems) > 0 && !partial {
		return nil, fmt.Errorf("merge: not every shard is in and complete: %s; or merge what there is with -partial", strings.Join(problems, "; "))
	}
	return problems, nil
}

// shardFile is a file of a shard run dir to copy into the merged run dir.
type shardFile struct {
	shard  shardRun
	rel    string          // slash-separated, relative to the run dir
	sha256 string          // "" when run.json records none (stderr, transcripts)
	kind   rundir.FileKind // how the run-dir reader bounds it
}

// open opens the file through rundir's reader: a regular file
// inside the shard's run dir (no FIFO to wait on, no link out), within its
// kind's size limit.
func (f shardFile) open() (*rundir.File, error) {
	rf, err := rundir.OpenFile(f.shard.path, f.rel, f.kind)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("merge %s (shard %s): %s is listed in run.json but cannot be read: %w", f.shard.path, f.shard.shard, f.rel, err)
	case err != nil:
		return nil, fmt.Errorf("merge %s (shard %s): %w", f.shard.path, f.shard.shard, err)
	}
	return rf, nil
}

// check reads the file through once, hashing it in pieces, and compares
// the sum with the one run.json recorded.
func (f shardFile) check() error {
	rf, err := f.open()
	if err != nil {
		return err
	}
	defer rf.Close()
	got, err := rundir.ReaderSHA256(rf)
	if err != nil {
		return fmt.Errorf("merge %s (shard %s): %w", f.shard.path, f.shard.shard, err)
	}
	return f.same(got)
}

// same refuses a sum other than the one run.json recorded.
func (f shardFile) same(got string) error {
	if f.sha256 != "" && got != f.sha256 {
		return fmt.Errorf("merge %s (shard %s): %s has sha256 %s, run.json says %s: the dump changed after it was recorded; nothing merged", f.shard.path, f.shard.shard, f.rel, got, f.sha256)
	}
	return nil
}

// shardFiles lists every file the merged run dir gets, each path once.
func shardFiles(shards []shardRun) ([]shardFile, error) {
	var files []shardFile
	from := map[string]shardRun{}
	add := func(s shardRun, rel, sum string, kind rundir.FileKind) error {
		if rel == "" {
			return nil
		}
		if o, ok := from[rel]; ok {
			if o.path == s.path {
				return nil
			}
			return fmt.Errorf("merge: %s is in both %s and %s", rel, o.path, s.path)
		}
		from[rel] = s
		files = append(files, shardFile{shard: s, rel: rel, sha256: sum, kind: kind})
		return nil
	}
	for _, s := range shards {
		var errs []error
		for _, t := range s.m.Targets {
			errs = append(errs, add(s, t.Transcript, "", rundir.KindTranscript), add(s, t.LocalTranscript, "", rundir.KindTranscript))
		}
		for _, mr := range s.m.Measurements {
			errs = append(errs, add(s, mr.Dump, mr.SHA256, rundir.KindDump), add(s, mr.Stderr, "", rundir.KindDump))
		}
		for _, o := range s.m.Orphans {
			errs = append(errs, add(s, o.Dump, o.SHA256, rundir.KindDump))
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// mergedManifest builds the merged run.json from the shards, as MergeWith
// documents. missing is what a partial merge lacks.
func mergedManifest(shards []shardRun, names []string, missing []string) runjson.Manifest {
	first := shards[0].m
	m := runjson.Manifest{
		Schema:      runjson.SchemaVersion,
		Suite:       first.Suite,
		SuiteSHA256: first.SuiteSHA256,
		Status:      runjson.StatusComplete,
		Start:       first.Start,
		Facts:       first.Facts,
		Tools:       map[string]runjson.Version{},
		Isolation:   first.Isolation,
		AAPair:      first.AAPair,
		AAPairs:     first.AAPairs,
		Planted:     first.Planted,
	}
	if len(missing) > 0 {
		m.Status = runjson.StatusFailed
		for _, p := range missing {
			m.Errors = append(m.Errors, "partial merge: "+p)
		}
	}
	hosts := &hostSet{}
	offset := 0
	for _, s := range shards {
		sh := s.shard.String()
		if s.m.Start.Before(m.Start) {
			m.Start = s.m.Start
		}
		if s.m.End != nil && (m.End == nil || s.m.End.After(*m.End)) {
			end := *s.m.End
			m.End = &end
		}
		m.Merged = append(m.Merged, runjson.Shard{ID: s.m.ID, Shard: sh, Start: s.m.Start, End: s.m.End, Facts: s.m.Facts, Status: s.m.Status})
		m.Resumed = append(m.Resumed, s.m.Resumed...)
		m.Services = append(m.Services, s.m.Services...)
		m.Orphans = append(m.Orphans, s.m.Orphans...)
		m.NotOffered = append(m.NotOffered, s.m.NotOffered...) // each shard measured its own ceiling
		for _, e := range s.m.Errors {
			m.Errors = append(m.Errors, "shard "+sh+": "+e)
		}
		rename, local := hosts.addShard(s)
		name := func(h string) string {
			if h == "" {
				return local
			}
			return cmp.Or(rename[h], h)
		}
		for _, t := range s.m.Targets {
			t.Host = name(t.Host)
			m.Targets = append(m.Targets, t)
		}
		top := 0
		for _, mr := range s.m.Measurements {
			top = max(top, mr.Order)
			mr.Order += offset
			mr.Shard = sh
			mr.ServerHost, mr.ClientHost = name(mr.ServerHost), name(mr.ClientHost)
			m.Measurements = append(m.Measurements, mr)
		}
		offset += top
	}
	m.Hosts = hosts.hosts
	m.Errors = append(m.Errors, mergeTools(&m, shards)...)
	m.Errors = append(m.Errors, servedBy(m)...)
	index := map[string]int{}
	for k, n := range names {
		index[n] = k
	}
	sort.SliceStable(m.Targets, func(i, j int) bool { return index[m.Targets[i].Name] < index[m.Targets[j].Name] })
	sort.Slice(m.Resumed, func(i, j int) bool { return m.Resumed[i].Before(m.Resumed[j]) })
	m.ID = runID(m.Start, "merged")
	return m
}

// mergeTools fills m.Tools with the union of the shards' tools and returns
// a note for each tool two shards report in different versions.
func mergeTools(m *runjson.Manifest, shards []shardRun) []string {
	var notes []string
	from := map[string]Shard{}
	for _, s := range shards {
		for _, name := range slices.Sorted(maps.Keys(s.m.Tools)) {
			v := s.m.Tools[name]
			old, ok := m.Tools[name]
			if !ok {
				m.Tools[name], from[name] = v, s.shard
				continue
			}
			if old.Version != v.Version {
				notes = append(notes, fmt.Sprintf("%s differs between shards: shard %s used %q, shard %s used %q; tools keeps shard %s's, each measurement and host its own: numbers across these shards may not compare", name, from[name], old.Version, s.shard, v.Version, from[name]))
			}
		}
	}
	return notes
}

// servedBy notes targets served by more than one machine.
func servedBy(m runjson.Manifest) []string {
	servers := map[string][]string{}
	for _, t := range m.Targets {
		if t.Host != "" && !slices.Contains(servers[t.Host], t.Name) {
			servers[t.Host] = append(servers[t.Host], t.Name)
		}
	}
	if len(servers) < 2 {
		return nil
	}
	var parts []string
	for _, h := range slices.Sorted(maps.Keys(servers)) {
		parts = append(parts, fmt.Sprintf("%s served %s", h, strings.Join(servers[h], ", ")))
	}
	return []string{fmt.Sprintf("targets were served by %d machines (%s): compare targets of different machines only as far as the machines are alike (see hosts)", len(servers), strings.Join(parts, "; "))}
}

// writeMerged creates the merged run dir and copies the files into it,
// checking each dump again. run.json says "running" until every file is in;
// on any error the new run dir is removed.
func writeMerged(out string, m runjson.Manifest, suite []byte, files []shardFile) (*RunDir, error) {
	base := m.ID
	for n := 2; ; n++ {
		if _, err := os.Lstat(filepath.Join(out, m.ID)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		m.ID = fmt.Sprintf("%s-%d", base, n)
	}
	final := m
	m.Status, m.Measurements, m.Orphans = runjson.StatusRunning, nil, nil
	d, err := rundir.Create(out, m, suite)
	if err != nil {
		if d != nil {
			os.RemoveAll(d.Path)
		} else {
			os.Remove(filepath.Join(out, m.ID)) // only when empty: it may be another's
		}
		return nil, fmt.Errorf("merge: %w", err)
	}
	err = copyFiles(d, files)
	if err == nil {
		err = d.Update(func(m *runjson.Manifest) { *m = final })
	}
	if err != nil {
		os.RemoveAll(d.Path)
		return nil, err
	}
	return d, nil
}

// copyFiles copies each file into d in pieces, checking its sha256 again
// as it is copied: a file that changed since the check stops the merge.
func copyFiles(d *RunDir, files []shardFile) error {
	for _, f := range files {
		if err := copyFile(d, f); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(d *RunDir, f shardFile) error {
	rf, err := f.open()
	if err != nil {
		return err
	}
	defer rf.Close()
	got, err := d.CopyDump(filepath.FromSlash(f.rel), rf)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return f.same(got)
}
