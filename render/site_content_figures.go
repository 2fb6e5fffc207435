package render

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// A publisher's prose (site/content/*.md) names numbers of the runs on
// show by reference, never by typing them: a re-collected run would
// otherwise leave the prose quoting a run the site no longer shows.
//
//	{{rps static express-node}}        the target's geometric mean, req/s ("6,217")
//	{{ratio static-256k gin stdlib}}   gin ÷ stdlib as the verdict reads it ("0.36×", "~ 0.97×")
//	{{run static express-node}}        the run that cell is shown from ("the js-frameworks run of 2026-12-05 08:10 UTC")
//
// A reference whose scenario or target the runs on show lack reads "n/a",
// and render says so, naming the file and line (Warnings): the prose must
// be rewritten for the new data, and a site built from other runs (a
// test's, a fork's) still builds. A malformed reference is an error.

// figureRef is one {{kind args}} reference in content.
var figureRef = regexp.MustCompile(`\{\{(rps|ratio|run) ([^{}]*)\}\}`)

// content is site/content/<name> with its figure references replaced by
// the numbers of the runs on show; file is its path, for errors.
func (m *model) content(name string) (src, file string, err error) {
	src, file, err = m.site.content(name)
	if err != nil || src == "" {
		return src, file, err
	}
	var errs []string
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		lines[i] = figureRef.ReplaceAllStringFunc(line, func(ref string) string {
			sub := figureRef.FindStringSubmatch(ref)
			v, err := m.figure(sub[1], strings.Fields(sub[2]))
			var missing *missingFigure
			switch {
			case errors.As(err, &missing):
				m.warnings = append(m.warnings, fmt.Sprintf("%s:%d: %s: %v", file, i+1, ref, err))
				return "n/a"
			case err != nil:
				errs = append(errs, fmt.Sprintf("%s:%d: %s: %v", file, i+1, ref, err))
				return ref
			}
			return v
		})
	}
	if len(errs) > 0 {
		return "", file, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return strings.Join(lines, "\n"), file, nil
}

// figure is the text of one reference: kind with its arguments.
func (m *model) figure(kind string, args []string) (string, error) {
	want := map[string]int{"rps": 2, "ratio": 3, "run": 2}[kind]
	if len(args) != want {
		return "", fmt.Errorf("%s takes %d names, got %d", kind, want, len(args))
	}
	s := args[0]
	if !slices.Contains(m.scenarios, s) {
		return "", &missingFigure{fmt.Sprintf("no run on show has scenario %q", s)}
	}
	cell := func(name string) (*verdict.Cell, error) {
		c := m.byKey[[2]string{s, name}]
		if c == nil {
			return nil, &missingFigure{fmt.Sprintf("no run on show measured %q in %s", name, s)}
		}
		return c, nil
	}
	switch kind {
	case "rps":
		c, err := cell(args[1])
		if err != nil {
			return "", err
		}
		return Count(c.Stat(m.metric).GeoMean), nil
	case "ratio":
		a, err := cell(args[1])
		if err != nil {
			return "", err
		}
		b, err := cell(args[2])
		if err != nil {
			return "", err
		}
		j, ok := m.judge(b, a)
		if !ok || a.Run != b.Run {
			return "", &missingFigure{fmt.Sprintf("%s and %s were measured in different runs: no verdict compares them", args[1], args[2])}
		}
		if j.Mark != "" {
			return j.Mark + " " + j.Ratio, nil
		}
		return j.Ratio, nil
	}
	c, err := cell(args[1])
	if err != nil {
		return "", err
	}
	r := m.runByID(c.Run)
	if r == nil {
		return "", &missingFigure{fmt.Sprintf("%s was measured outside a run dir", args[1])}
	}
	return fmt.Sprintf("the %s run of %s", m.suiteName(r.ID), r.Start.UTC().Format("2006-01-02 15:04 MST")), nil
}

// missingFigure is a reference the runs on show cannot answer.
type missingFigure struct{ why string }

func (e *missingFigure) Error() string { return e.why }
