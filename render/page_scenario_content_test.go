package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarioProse: every site/content/<scenario>.md of the project is
// shown on its scenario page under "Why these numbers", and a scenario
// without one has no such section.
func TestScenarioProse(t *testing.T) {
	explained := 0
	for _, s := range []string{"ping", "query", "echo", "plaintext", "json", "static", "static-256k", "db"} {
		page := projectPage(t, "scenario/"+s+".html")
		src, err := os.ReadFile(filepath.Join("..", "site", "content", s+".md"))
		switch {
		case os.IsNotExist(err):
			if strings.Contains(page, `id="about"`) {
				t.Errorf("scenario/%s.html has a note, though site/content/%s.md does not exist", s, s)
			}
		case err != nil:
			t.Fatal(err)
		default:
			explained++
			// The note's first sentence, as the page shows it, up to its
			// first figure reference (content_figures.go), which the page
			// shows as the number it names.
			first, _, _ := strings.Cut(strings.TrimPrefix(string(src), "**"), "**")
			first, _, _ = strings.Cut(first, "{{")
			if !strings.Contains(page, `<section class="prose" id="about"><h2>Why these numbers</h2>`) || !strings.Contains(page, first) {
				t.Errorf("scenario/%s.html does not show site/content/%s.md (%q)", s, s, first)
			}
			if strings.Contains(page, "{{") {
				t.Errorf("scenario/%s.html shows a figure reference unread", s)
			}
		}
	}
	if explained < 3 {
		t.Errorf("%d scenarios explained, want static, static-256k and ping", explained)
	}
}
