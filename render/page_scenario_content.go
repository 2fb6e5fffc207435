package render

import (
	"fmt"
	"html/template"
)

// scenarioProse is the publisher's note on scenario s, site/content/<s>.md
// (the scenario's slug, as in its page's name) rendered, "" when the site
// has none: where a scenario's numbers surprise, the reason stands on its
// page, beside them.
func (m *model) scenarioProse(s string) (template.HTML, error) {
	src, file, err := m.content(m.links.scenario[s] + ".md")
	if err != nil || src == "" {
		return "", err
	}
	html, err := Markdown([]byte(src))
	if err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	return html, nil
}
