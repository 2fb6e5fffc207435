package render

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/tomlfile"
)

// Site is a site.toml: what a publisher declares about their site. Every
// field is optional; DefaultSite is what a site without a site.toml gets.
//
//	title = "fairbench: HTTP frameworks, measured honestly"
//	runs = ["results/*"]          # globs, relative to the site folder
//	theme = "default"             # or "mono"; <site>/theme/ overrides any file
//
//	[[question]]                  # an answer box, first on the index
//	title = "Plain JSON on Go"
//	suite = "go-frameworks"       # the suite whose newest run answers; any if empty
//	runtimes = ["go"]             # the targets asked about; every runtime if empty
//	scenarios = ["json", "plaintext"]
//
//	[[card]]                      # a headline ratio on the index
//	subject = "elysia-bun"
//	baseline = "express-node"
//	escapes = ["express-bun", "fastify-node"]   # alternative baselines, shown smaller
//	note = "…"                    # said under the card's own "how to read"
//
//	[[comparison]]                # a table of pairs on the index and the results page
//	title = "The same Express app on two runtimes"
//	kind = "runtime"              # pairs (default), runtime, adapter, orm, static, aa
//	change = "gain"               # the column's word: gain, delta, cost, …
//	scenarios = ["ping", "json"]  # only these columns; every scenario if empty
//	pairs = [["express-node", "express-bun"]]
//
//	[results_md]                  # the README table; see ResultsMD
type Site struct {
	// Dir is the site folder; content/ and theme/ are read from it. "" for none.
	Dir string `toml:"-"`
	// File is the site.toml path as read, "" for DefaultSite.
	File string `toml:"-"`

	Title       string `toml:"title"`
	Description string `toml:"description"` // one paragraph under the index title
	// Runs are globs of run dirs and dumps, relative to Dir, read when the
	// command line names no PATH.
	Runs  []string `toml:"runs"`
	Theme string   `toml:"theme"`
	// Metric ranks and charts: "rps" (the tool's requests per second, the
	// default) or "good_rps" (2xx and 3xx responses per second).
	Metric string `toml:"metric"`
	// Questions open the index: each answered in a box from the runs on
	// show (index_answers.go), in this order; the runs they read come
	// first among the index's run summaries.
	Questions   []Question       `toml:"question"`
	Cards       []Card           `toml:"card"`
	Comparisons []ComparisonSpec `toml:"comparison"`
	ResultsMD   ResultsMD        `toml:"results_md"`
	// AAPairs name one program measured under two names (an A/A pair). The
	// audit expects "~" between them and flags the run as noisier than its
	// statistics assume when it is not.
	AAPairs [][]string `toml:"aa_pairs"`

	keys *tomlfile.File // where each key is ("card.1.subject"), for errors found after decoding
}

// Card is a headline on the index: Subject ÷ Baseline in each scenario.
// Names are target names, or "target (runtime)" where a target runs on
// more than one runtime.
type Card struct {
	Title     string   `toml:"title"` // "" makes one from the names
	Subject   string   `toml:"subject"`
	Baseline  string   `toml:"baseline"`
	Escapes   []string `toml:"escapes"`   // other baselines, shown as smaller figures
	Scenarios []string `toml:"scenarios"` // "" for every scenario both have
	// Note is the site's own sentence on reading this card, said after the
	// "how to read" every card gets.
	Note string `toml:"note"`
}

// Question is a reader's usual question, answered at the top of the
// index: which of these runtimes' targets lead in these scenarios, and how
// sure the run is.
type Question struct {
	Title string `toml:"title"` // "Plain JSON and plaintext on Go"
	// Suite is the suite whose newest run answers; "" lets each scenario
	// take the run on show with the most of the question's targets.
	Suite     string   `toml:"suite"`
	Runtimes  []string `toml:"runtimes"`  // target runtimes ("go", "node", "bun"); every runtime if empty
	Scenarios []string `toml:"scenarios"` // one answer line each, in this order
}

// ComparisonSpec is a table of pairs on the index and the results page:
// the same app on two runtimes, two adapters of one framework, what an ORM
// costs. Its Kind says which question the table answers, and with it the
// column's word and how the table reads (ComparisonKinds).
type ComparisonSpec struct {
	Title string `toml:"title"`
	Note  string `toml:"note"` // a sentence under the title
	// Kind is one of ComparisonKinds' names; "" is "pairs".
	Kind   string `toml:"kind"`
	Change string `toml:"change"` // the change column's heading word; the kind's if empty
	// Scenarios are the columns, in this order; every scenario of the run
	// if empty (an ORM table names the database scenarios).
	Scenarios []string   `toml:"scenarios"`
	Pairs     [][]string `toml:"pairs"` // [from, to]: the change is to ÷ from − 1
}

// DefaultSite is the site a render without site.toml gets.
var DefaultSite = Site{Title: DefaultTitle, Theme: "default", Metric: "rps"}

// LoadSite reads dir/site.toml (a regular file of at most
// tomlfile.MaxBytes). A folder without one gets DefaultSite with Dir set, so
// content/ and theme/ are still found.
func LoadSite(dir string) (*Site, error) {
	name := filepath.Join(dir, "site.toml")
	src, err := tomlfile.Read(name)
	if errors.Is(err, os.ErrNotExist) {
		s := DefaultSite
		s.Dir = dir
		return &s, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := ParseSite(src, name)
	if err != nil {
		return nil, err
	}
	s.Dir = dir
	return s, nil
}

// ParseSite decodes and checks a site.toml's bytes; name is used in errors,
// which say file:line.
func ParseSite(src []byte, name string) (*Site, error) {
	s := DefaultSite
	keys, err := tomlfile.Decode(name, src, &s, " (see `go doc github.com/fairbench/fairbench/render.Site`)")
	if err != nil {
		return nil, err
	}
	s.File, s.keys = name, keys
	if err := s.check(); err != nil {
		return nil, err
	}
	return &s, nil
}

// check validates what decoding cannot.
func (s *Site) check() error {
	var errs []error
	switch s.Metric {
	case "rps", "good_rps":
	default:
		errs = append(errs, s.errorf("metric", "metric %q: want rps or good_rps", s.Metric))
	}
	for i, c := range s.Cards {
		at := fmt.Sprintf("card.%d", i+1)
		if c.Subject == "" || c.Baseline == "" {
			errs = append(errs, s.errorf(at, "card needs a subject and a baseline"))
		} else if c.Subject == c.Baseline {
			errs = append(errs, s.errorf(at+".baseline", "card %q: subject and baseline are both %q; name another baseline", c.Title, c.Subject))
		}
		for _, e := range c.Escapes {
			if e == "" || e == c.Subject || e == c.Baseline {
				errs = append(errs, s.errorf(at+".escapes", "card %q: escape %q must name a target other than the subject and the baseline", c.Title, e))
			}
		}
		errs = append(errs, s.checkNames(at+".scenarios", "card "+strconv.Quote(c.Title), "scenario", c.Scenarios)...)
	}
	for i, q := range s.Questions {
		at := fmt.Sprintf("question.%d", i+1)
		if q.Title == "" || len(q.Scenarios) == 0 {
			errs = append(errs, s.errorf(at, "question %d needs a title and at least one scenario", i+1))
		}
		errs = append(errs, s.checkNames(at+".scenarios", "question "+strconv.Quote(q.Title), "scenario", q.Scenarios)...)
		errs = append(errs, s.checkNames(at+".runtimes", "question "+strconv.Quote(q.Title), "runtime", q.Runtimes)...)
	}
	for i, c := range s.Comparisons {
		at := fmt.Sprintf("comparison.%d", i+1)
		if len(c.Pairs) == 0 {
			errs = append(errs, s.errorf(at, "comparison %q has no pairs", c.Title))
		}
		for _, p := range c.Pairs {
			if len(p) != 2 || p[0] == "" || p[1] == "" {
				errs = append(errs, s.errorf(at+".pairs", "comparison %q: pair %q must name two targets", c.Title, p))
			} else if p[0] == p[1] {
				errs = append(errs, s.errorf(at+".pairs", "comparison %q: pair %q names one target twice", c.Title, p))
			}
		}
		if _, ok := ComparisonKinds[c.Kind]; !ok && c.Kind != "" {
			errs = append(errs, s.errorf(at+".kind", "comparison %q: kind %q: want one of %s", c.Title, c.Kind, strings.Join(slices.Sorted(maps.Keys(ComparisonKinds)), ", ")))
		}
		errs = append(errs, s.checkNames(at+".scenarios", "comparison "+strconv.Quote(c.Title), "scenario", c.Scenarios)...)
	}
	for _, p := range s.AAPairs {
		if len(p) != 2 {
			errs = append(errs, s.errorf("aa_pairs", "aa_pairs: pair %q must name two targets", p))
		}
	}
	errs = append(errs, s.ResultsMD.check(s)...)
	return errors.Join(errs...)
}

// checkNames refuses an empty or repeated name in a list of names.
func (s *Site) checkNames(key, what, noun string, names []string) []error {
	var errs []error
	for i, n := range names {
		switch {
		case n == "":
			errs = append(errs, s.errorf(key, "%s: %s %d is empty", what, noun, i+1))
		case slices.Contains(names[:i], n):
			errs = append(errs, s.errorf(key, "%s: %s %q is named twice", what, noun, n))
		}
	}
	return errs
}

// errorf makes an error at the line of key ("card.2.subject"), or of the
// nearest enclosing key that has a line.
func (s *Site) errorf(key, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if s.File == "" {
		return errors.New(msg)
	}
	return fmt.Errorf("%s:%d: %s", s.File, s.keys.Line(key), msg)
}

// RunPaths expands Runs against Dir, sorted within each glob; hidden files
// (.gitkeep) are left out. A glob that matches nothing is an error naming
// the site file.
func (s *Site) RunPaths() ([]string, error) {
	var paths []string
	for _, g := range s.Runs {
		matches, err := filepath.Glob(filepath.Join(s.Dir, g))
		if err != nil {
			return nil, s.errorf("runs", "runs: %q: %v", g, err)
		}
		slices.Sort(matches)
		for _, m := range matches {
			if !strings.HasPrefix(filepath.Base(m), ".") {
				paths = append(paths, m)
			}
		}
	}
	if len(s.Runs) > 0 && len(paths) == 0 {
		return nil, s.errorf("runs", "runs %q match nothing in %s", s.Runs, s.Dir)
	}
	return paths, nil
}

// content reads content/<name> from the site folder (siteFS); "" when
// there is none.
func (s *Site) content(name string) (string, string, error) {
	if s.Dir == "" {
		return "", "", nil
	}
	path := filepath.Join(s.Dir, "content", name)
	b, err := fs.ReadFile(siteFS{s.Dir, "content"}, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	return string(b), path, err
}
