package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFitLabel: names of letters keep their maxLabel characters, wide
// characters are cut sooner, and every label fits labelEms with its "…".
func TestFitLabel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"chi", "chi"},
		{"nest-express-node-aa", "nest-express-node-aa"},
		{"uwebsockets-express-bun-aa", "uwebsockets-expre…"},
		{"<img src=x onerror=alert(1)>", "<img src=x onerror…"},
		{"WWWWWWWWWWWWWWW", "WWWWWWWWWW…"},
	} {
		got := fitLabel(c.in)
		if got != c.want {
			t.Errorf("fitLabel(%q) = %q, want %q", c.in, got, c.want)
		}
		w := 0.0
		for _, r := range got {
			if r == '…' {
				w += ellipsisEms
			} else {
				w += emWidth(r)
			}
		}
		if w > labelEms || utf8.RuneCountInString(got) > maxLabel {
			t.Errorf("fitLabel(%q) = %q: %.2f em, %d characters", c.in, got, w, utf8.RuneCountInString(got))
		}
		if got != c.in && (!strings.HasSuffix(got, "…") || !strings.HasPrefix(c.in, strings.TrimSuffix(got, "…"))) {
			t.Errorf("fitLabel(%q) = %q: not a prefix and an ellipsis", c.in, got)
		}
	}
}
