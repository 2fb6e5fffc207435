package collect

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// pendingMeasurement is a measurement a run still has to take.
type pendingMeasurement struct {
	Scenario suite.Scenario
	Rep      int
}

// resumeRunDir opens an interrupted run dir, checks it was collected from
// the same suite, and records every dump on disk that run.json does not
// list (a crash between storing a dump and recording it) as an orphan, so
// that it is kept and its name never taken again.
func (c *collector) resumeRunDir() error {
	d, err := rundir.Load(c.opt.Resume)
	if err != nil {
		return err
	}
	m := d.Manifest()
	if m.SuiteSHA256 != c.suite.SHA256() {
		return fmt.Errorf("%s was collected from another suite (sha256 %.12s…, this one %.12s…): resume it with the suite in %s", c.opt.Resume, m.SuiteSHA256, c.suite.SHA256(), filepath.Join(c.opt.Resume, "suite.toml"))
	}
	if m.Status == runjson.StatusComplete {
		// A turn that ran slow is not taken again now: it would come from
		// another stretch of the host's time than its round (host_speed.go).
		return fmt.Errorf("%s is complete: nothing to resume", c.opt.Resume)
	}
	if err := d.Lock(); err != nil {
		return err
	}
	if d.StaleLock() != "" {
		c.opt.Progress.Note(fmt.Sprintf("%s: the collect that held it, %s, ended without letting go (killed?): its lock taken over, its .lock and .reserve replaced", d.Path, d.StaleLock()))
	}
	c.dir = d
	c.writePortable() // a run written before keeps its paths until it is saved
	for _, mr := range m.Measurements {
		c.order = max(c.order, mr.Order)
	}
	orphans, err := findOrphans(d.Path, m)
	if err != nil {
		return err
	}
	for _, o := range orphans {
		c.opt.Progress.Note(fmt.Sprintf("%s: on disk but not in run.json (a crash between storing and recording it): kept as an orphan, measured again", o.Dump))
	}
	now := c.opt.Now().UTC()
	return d.Update(func(m *runjson.Manifest) {
		m.Errors = resumedErrors(m.Errors, m.End, now)
		m.Status, m.End = runjson.StatusRunning, nil
		m.Resumed = append(m.Resumed, now)
		m.Orphans = append(m.Orphans, orphans...)
		for k, v := range c.tools {
			if old, ok := m.Tools[k]; ok && old.Version != v.Version {
				m.Errors = append(m.Errors, fmt.Sprintf("resumed with %s %s; earlier measurements used %s", k, v.Version, old.Version))
				continue
			}
			if m.Tools == nil {
				m.Tools = map[string]runjson.Version{}
			}
			m.Tools[k] = v
		}
	})
}

// resumedErrors is run.json's errors as a -resume at now begins: each that
// told to finish the run with -resume says it was resumed instead, so that
// a run the resume completes reads as completed, and its history stays:
// "interrupted: finish with -resume DIR" becomes "interrupted at END
// (when the session stopped); resumed at NOW", and an error that ends
// "… with -resume DIR" (measurements missing, a full disk) gets
// "; resumed at NOW" in place of its advice.
func resumedErrors(errs []string, end *time.Time, now time.Time) []string {
	out := slices.Clone(errs)
	resumed := "resumed at " + now.Format(time.RFC3339)
	for i, e := range out {
		advice := strings.LastIndex(e, " -resume ")
		if advice < 0 {
			continue
		}
		if strings.HasPrefix(e, "interrupted: finish with -resume ") {
			at := ""
			if end != nil {
				at = " at " + end.Format(time.RFC3339)
			}
			out[i] = "interrupted" + at + "; " + resumed
			continue
		}
		if cut := strings.LastIndex(e[:advice], ": "); cut >= 0 {
			out[i] = e[:cut] + "; " + resumed
		}
	}
	return out
}

// findOrphans lists the files under dumps/ that run.json neither lists as a
// dump or stderr nor already knows as an orphan. Hidden files (a write cut
// short before its rename) are not dumps.
func findOrphans(dir string, m runjson.Manifest) ([]runjson.Orphan, error) {
	known := map[string]bool{}
	for _, mr := range m.Measurements {
		known[mr.Dump], known[mr.Stderr] = true, true
	}
	for _, o := range m.Orphans {
		known[o.Dump] = true
	}
	var out []runjson.Orphan
	root := filepath.Join(dir, "dumps")
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == root {
				return filepath.SkipDir
			}
			return err
		}
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if known[rel] {
			return nil
		}
		o, err := orphan(dir, rel)
		if err != nil {
			return err
		}
		out = append(out, o)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Dump < out[j].Dump })
	return out, err
}

// orphan hashes the unlisted dump at rel in pieces, read as parse reads a
// dump: a regular file inside the run dir within rundir.MaxDump.
func orphan(dir, rel string) (runjson.Orphan, error) {
	f, err := rundir.OpenFile(dir, rel, rundir.KindDump)
	if err != nil {
		return runjson.Orphan{}, fmt.Errorf("%w: it is not in run.json; move it out of the run dir, then try again", err)
	}
	defer f.Close()
	n := &countingReader{r: f}
	sum, err := rundir.ReaderSHA256(n)
	if err != nil {
		return runjson.Orphan{}, err
	}
	return runjson.Orphan{Dump: rel, SHA256: sum, Bytes: n.n}, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// pending lists t's measurements still to take, in repetition order:
// every scenario that has not failed the gate, for each of its
// repetitions, unless run.json already holds it without an error. A failed
// measurement (the tool crashed or hung, the server died) keeps its dump
// and is taken again under a new name.
func (c *collector) pending(t suite.Target) []pendingMeasurement {
	rec, _ := c.targetRecord(t.Name)
	taken := map[string]bool{}
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Target == t.Name && mr.Phase == "" && !mr.Warmup && mr.SHA256 != "" && mr.Error == "" {
			taken[mr.Scenario+"/"+strconv.Itoa(mr.Rep)] = true
		}
	}
	var out []pendingMeasurement
	for rep := 1; rep <= c.reps(); rep++ {
		for _, sc := range c.suite.Scenarios {
			if slices.Contains(rec.Failed, sc.Name) || rep > c.roundsOf(sc) || taken[sc.Name+"/"+strconv.Itoa(rep)] {
				continue
			}
			out = append(out, pendingMeasurement{Scenario: sc, Rep: rep})
		}
	}
	return out
}

// finished reports whether an earlier session gated t and took all its
// measurements, those of the phases after the closed-loop pass too.
func (c *collector) finished(t suite.Target) bool {
	rec, ok := c.targetRecord(t.Name)
	return ok && rec.Conformance != "" && len(c.pending(t)) == 0 && len(c.phasePending(t)) == 0
}

// dumpBase is the run-dir path, without extension, of a new dump:
// dumps/<target>/<scenario>/<rep> (w<rep> for a warm-up), or <rep>-2,
// <rep>-3, … when a file of that name exists already (an orphan, or a
// warm-up taken again on resume). No file is ever replaced.
func (c *collector) dumpBase(target, scenario string, rep int, warmup bool) string {
	name := strconv.Itoa(rep)
	if warmup {
		name = "w" + name
	}
	folder := path.Join("dumps", target, scenario)
	for n := 1; ; n++ {
		base := path.Join(folder, name)
		if n > 1 {
			base += "-" + strconv.Itoa(n)
		}
		if !c.dir.Exists(base+".txt") && !c.dir.Exists(base+".stderr") {
			return base
		}
	}
}
