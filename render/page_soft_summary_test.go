package render

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitEvidence(t *testing.T) {
	long := strings.Repeat("x", 80)
	for _, tc := range []struct {
		name, msg string
		limit     int
		head      string
		evidence  []string
	}{
		{"short stays", "a (b) c", 600, "a (b) c", nil},
		{"the longest aside goes first", "one (" + long + ") two (" + long + "yy) three", 100,
			"one (" + long + ") two [1] three", []string{long + "yy"}},
		{"marks numbered where they stand", "p (" + long + "a) q (" + long + "bb) r", 20,
			"p [1] q [2] r", []string{long + "a", long + "bb"}},
		{"nested asides go whole", "p (" + long + " (inner)) q", 20, "p [1] q", []string{long + " (inner)"}},
		{"short asides stay, the rest is cut", strings.Repeat("word (x) ", 20), 50,
			"word (x) word (x) word (x) word (x) word (x) word …", []string{"… (x) " + strings.TrimSpace(strings.Repeat("word (x) ", 14))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, evidence := splitEvidence(tc.msg, tc.limit)
			if head != tc.head || strings.Join(evidence, "|") != strings.Join(tc.evidence, "|") {
				t.Errorf("splitEvidence(%q, %d)\n got %q %q\nwant %q %q", tc.msg, tc.limit, head, evidence, tc.head, tc.evidence)
			}
		})
	}
}

func TestLastSentence(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"A cell has too few. Run more repetitions.", "Run more repetitions."},
		{"Only one sentence.", "Only one sentence."},
		{"Quiet the host: a, b. Then c (see x.y).", "Then c (see x.y)."},
	} {
		if got := lastSentence(tc.doc); got != tc.want {
			t.Errorf("lastSentence(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestSoftSummarised: the committed site's soft page opens with its
// summary (a row per cause, before any finding), weighs at most 150 KB,
// shows no finding over ~600 characters before its details are opened nor
// carries more than maxInlineEvidence characters of evidence, and every
// finding it sends to the companion page (dumps, long evidence) is there.
func TestSoftSummarised(t *testing.T) {
	page := projectPage(t, "soft.html")
	if len(page) > 150<<10 {
		t.Errorf("soft.html is %d bytes, want at most 150 KB", len(page))
	}
	summary := strings.Index(page, `<section id="summary">`)
	first := strings.Index(page, `<div class="finding `)
	if summary < 0 || first < 0 || summary > first || summary > 8<<10 {
		t.Fatalf("soft.html: summary at byte %d, first finding at %d: want the summary first, in the first 8 KB", summary, first)
	}
	rows := regexp.MustCompile(`<tr><td><span class="badge (\w+)">\w+</span> <a href="#rule-[^"]+">([^<]+)</a></td><td class="num">([^<]+)</td>`).FindAllStringSubmatch(page, -1)
	groups := strings.Count(page, `class="finding-group"`)
	if len(rows) == 0 || len(rows) != groups {
		t.Errorf("soft.html: %d summary rows for %d causes", len(rows), groups)
	}
	// The rows, each count read under its badge (or by level where a
	// cause found several), add up to the totals the page opens with.
	total := map[string]int{}
	for _, r := range rows {
		if n, err := strconv.Atoi(r[3]); err == nil {
			total[map[string]string{"error": "error", "warning": "warning", "info": "note"}[r[1]]] += n
			continue
		}
		for _, part := range regexp.MustCompile(`(\d+) (error|warning|note)s?`).FindAllStringSubmatch(r[3], -1) {
			n, _ := strconv.Atoi(part[1])
			total[part[2]] += n
		}
	}
	lead := regexp.MustCompile(`What the audit found: (\d+|no) errors?, (\d+|no) warnings?, (\d+|no) notes?\.`).FindStringSubmatch(page)
	if lead == nil {
		t.Fatal("soft.html: no totals in its lead")
	}
	for i, level := range []string{"error", "warning", "note"} {
		want, _ := strconv.Atoi(lead[i+1])
		if total[level] != want {
			t.Errorf("soft.html: the summary's rows count %d %ss, its lead %d", total[level], level, want)
		}
	}
	// A column per card, headed subject ÷ baseline with its ratios' count,
	// in each of the summary's tables (what asks for action on the
	// headline, the warnings beside it, the notes); some cause touches
	// some of them.
	tables := strings.Count(page, `<table class="soft-summary">`)
	if heads := regexp.MustCompile(`<th scope="col" class="num">[^<]+ ÷ [^<]+ <small>\(\d+\)</small></th>`).FindAllString(page, -1); tables < 2 || len(heads) != 3*tables {
		t.Errorf("soft.html: the summary's %d tables have %d card columns, want the site's 3 cards each", tables, len(heads))
	}
	if !regexp.MustCompile(`</td><td class="num">\d+</td><td class="num">\d+</td>`).MatchString(page) {
		t.Error("soft.html: no cause touches a headline ratio")
	}
	for _, item := range regexp.MustCompile(`(?s)<div class="finding \w+">.*?\n</div>`).FindAllString(page, -1) {
		if n := utf8.RuneCountInString(visibleText(item)); n > maxItemText {
			t.Errorf("soft.html: a finding shows %d characters before its details: %.200s", n, visibleText(item))
		}
	}
	for _, ol := range regexp.MustCompile(`(?s)<ol class="evidence">.*?</ol>`).FindAllString(page, -1) {
		if n := utf8.RuneCountInString(visibleText(ol)); n > maxInlineEvidence {
			t.Errorf("soft.html: a finding carries %d characters of evidence, want at most %d there: %.200s", n, maxInlineEvidence, visibleText(ol))
		}
	}
	dumps := projectPage(t, "soft-dumps.html")
	for _, id := range regexp.MustCompile(`href="soft-dumps\.html#(f\d+)">(its [a-z ]+|the companion page)<`).FindAllStringSubmatch(page, -1) {
		i := strings.Index(dumps, `<section id="`+id[1]+`"`)
		if i < 0 {
			t.Errorf("soft.html links %s of %s, which soft-dumps.html lacks", id[2], id[1])
			continue
		}
		sec := dumps[i:]
		sec = sec[:strings.Index(sec, "</section>")]
		if strings.Contains(id[2], "evidence") || id[2] == "the companion page" {
			if !strings.Contains(sec, `<ol class="evidence">`) {
				t.Errorf("soft.html sends the evidence of %s to soft-dumps.html, which does not show it", id[1])
			}
		}
	}
}
