package parse

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/manifest"
)

// Run is the part of a fairbench run directory's run.json that is not a
// measurement: when, where, with what. Its schema is package manifest's,
// the one collect writes.
type Run struct {
	Path string // the run dir as given
	manifest.Manifest
}

func (*Run) record() {}

// IsRunDir reports whether path is a fairbench run directory.
func IsRunDir(path string) bool {
	info, err := os.Stat(filepath.Join(path, "run.json"))
	return err == nil && info.Mode().IsRegular()
}

// ReadRun reads the run.json of the run dir at path.
func ReadRun(path string) (*Run, error) {
	name := filepath.Join(path, "run.json")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m, err := manifest.Decode(b)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			return nil, &SyntaxError{File: name, Line: me.Line, Msg: me.Msg}
		}
		return nil, err
	}
	return &Run{Path: path, Manifest: *m}, nil
}

// walkRun yields the run, its targets and its measurements, each dump parsed
// and labelled from run.json.
func walkRun(path string, fn func(Record) error) []error {
	run, err := ReadRun(path)
	if err != nil {
		return []error{err}
	}
	if err := fn(run); err != nil {
		return []error{err}
	}
	var errs []error
	for _, t := range run.Targets {
		rec := &Target{
			Run: run.ID, Name: t.Name, Runtime: t.Runtime,
			Build:         seconds(t.BuildS),
			Startup:       seconds(t.StartupS),
			RSSBefore:     t.RSSBefore,
			RSSAfter:      t.RSSAfter,
			RSSPeak:       t.RSSPeak,
			ArtifactBytes: t.ArtifactBytes,
			Conformance:   t.Conformance,
			Failed:        t.Failed,
			Transcript:    t.Transcript,
			Source:        Source{File: filepath.Join(path, "run.json")},
		}
		if err := fn(rec); err != nil {
			return append(errs, err)
		}
	}
	runtimes := map[string]string{}
	for _, t := range run.Targets {
		runtimes[t.Name] = t.Runtime
	}
	for _, mr := range run.Measurements {
		if mr.Error != "" {
			continue // a failed measurement is not counted; audit reports it (tool-failed)
		}
		if !filepath.IsLocal(filepath.FromSlash(mr.Dump)) {
			errs = append(errs, &SyntaxError{File: filepath.Join(path, "run.json"), Msg: fmt.Sprintf("dump path %q leaves the run dir", mr.Dump)})
			continue
		}
		name := filepath.Join(path, filepath.FromSlash(mr.Dump))
		if err := staysInside(path, name); err != nil {
			errs = append(errs, &SyntaxError{File: filepath.Join(path, "run.json"), Msg: err.Error()})
			continue
		}
		ms, ferrs := readMeasurements(name)
		errs = append(errs, ferrs...)
		for _, m := range ms {
			m.Run, m.Target, m.Runtime, m.Scenario = run.ID, mr.Target, runtimes[mr.Target], mr.Scenario
			m.Rep, m.Warmup, m.Order = mr.Rep, mr.Warmup, mr.Order
			m.ServerCPU, m.ClientCPU = mr.ServerCPUSeconds, mr.ClientCPUSeconds
			m.Argv = mr.Argv
			m.ServerHost, m.ClientHost, m.Shard = cmp.Or(mr.ServerHost, run.Facts.Hostname), cmp.Or(mr.ClientHost, run.Facts.Hostname), mr.Shard
			if m.ToolVersion == "" {
				m.ToolVersion = mr.ToolVersion
			}
			if mr.SHA256 != "" && m.Source.SHA256 != mr.SHA256 {
				m.Warnings = append(m.Warnings, fmt.Sprintf("%s: sha256 %s, run.json says %s: the dump changed after it was recorded", name, m.Source.SHA256, mr.SHA256))
			}
			if err := fn(m); err != nil {
				return append(errs, err)
			}
		}
	}
	return errs
}

// staysInside checks that name, with every symbolic link on its way
// resolved, is still inside the run dir root: a link in a run dir is not
// followed out of it.
func staysInside(root, name string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		if os.IsNotExist(err) {
			return nil // a missing dump is reported when it is opened
		}
		return err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("dump %s links to %s, outside the run dir: not followed", name, real)
	}
	return nil
}
