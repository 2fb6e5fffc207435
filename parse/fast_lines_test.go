package parse

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The line helpers were made faster than the plain code they replace; the
// plain code is kept here as the reference each must agree with, on every
// line of every fixture (the seeds) and on whatever the fuzzer makes:
// go test ./parse -run '^$' -fuzz FuzzLineHelpers -fuzztime 5s

func FuzzLineHelpers(f *testing.F) {
	names, _ := filepath.Glob("testdata/*_*")
	bun, _ := filepath.Glob("testdata/bun/*/results/*/h3.txt")
	for _, name := range append(names, bun...) {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(body), "\n") {
			f.Add(line)
		}
	}
	f.Fuzz(checkLineHelpers)
}

func checkLineHelpers(t *testing.T, s string) {
	t.Helper()
	t1 := strings.TrimSpace(s)
	if got, want := isTableRule(t1), referenceTableRule(t1); got != want {
		t.Errorf("isTableRule(%q) = %v, want %v", t1, got, want)
	}
	if got, want := appendCells(nil, t1), referenceCells(t1); !reflect.DeepEqual(got, want) {
		t.Errorf("appendCells(%q) = %q, want %q", t1, got, want)
	}
	var buf [4]string
	if got, want := fields(buf[:0], s), strings.Fields(s); !equalWords(got, want) {
		t.Errorf("fields(%q) = %q, want %q", s, got, want)
	}
	want := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
	if got := blankFields(s); !equalWords(got, want) {
		t.Errorf("blankFields(%q) = %q, want %q", s, got, want)
	}
	gotArgv, gotOK := parseCommand(t1)
	wantArgv, wantOK := referenceParseCommand(t1)
	if gotOK != wantOK || !equalWords(gotArgv, wantArgv) {
		t.Errorf("parseCommand(%q) = %q, %v; want %q, %v", t1, gotArgv, gotOK, wantArgv, wantOK)
	}
	if got, want := isNaN(s), referenceIsNaN(s); got != want {
		t.Errorf("isNaN(%q) = %v, want %v", s, got, want)
	}
	if plainSpectrumRow(s) && !spectrumRow(s) {
		t.Errorf("plainSpectrumRow(%q) is true, spectrumRow false", s)
	}
	if got, want := threadsLine(s), strings.Contains(s, " threads and ") || strings.Contains(s, " thread and "); got != want {
		t.Errorf("threadsLine(%q) = %v, want %v", s, got, want)
	}
	n, ok := composePrefix([]byte(s))
	wantN, wantOK := referenceComposePrefix([]byte(s))
	if n != wantN || ok != wantOK {
		t.Errorf("composePrefix(%q) = %d, %v; want %d, %v", s, n, ok, wantN, wantOK)
	}
	gotV, gotOK := localeNumber(s, ",", ".")
	wantV, wantOK := scaled(strings.ReplaceAll(spaceGroups.Replace(s), ",", ""), 0)
	if gotOK != wantOK || gotV != wantV && !(gotV != gotV && wantV != wantV) {
		t.Errorf("localeNumber(%q) = %v, %v; want %v, %v", s, gotV, gotOK, wantV, wantOK)
	}
	for _, exp := range []int{0, 3, 6, -2} {
		gotV, gotOK := exactDecimal([]byte(s), exp)
		wantV, wantOK := exactDecimal(s, exp)
		if gotV != wantV || gotOK != wantOK {
			t.Errorf("exactDecimal([]byte(%q), %d) = %v, %v; the string form says %v, %v", s, exp, gotV, gotOK, wantV, wantOK)
		}
		if plain, err := strconv.ParseFloat(s+"e"+strconv.Itoa(exp), 64); gotOK && (err != nil || plain != gotV) {
			t.Errorf("exactDecimal(%q, %d) = %v; ParseFloat says %v (%v)", s, exp, gotV, plain, err)
		}
	}
	file := "a/results/" + s + ".txt"
	r1, t1b, ok1 := bunLayout(file)
	r2, t2, ok2 := referenceBunLayout(file)
	if r1 != r2 || t1b != t2 || ok1 != ok2 {
		t.Errorf("bunLayout(%q) = %q, %q, %v; want %q, %q, %v", file, r1, t1b, ok1, r2, t2, ok2)
	}
	var fast, plain jsonBlock
	fast.scan(s)
	plain.referenceScan(s)
	if fast.depth != plain.depth || fast.inStr != plain.inStr || fast.escape != plain.escape {
		t.Errorf("scan(%q) = %d %v %v, want %d %v %v", s, fast.depth, fast.inStr, fast.escape, plain.depth, plain.inStr, plain.escape)
	}
}

// equalWords compares word lists, taking nil and empty as the same.
func equalWords(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

func referenceTableRule(t string) bool {
	rule := false
	for _, r := range t {
		switch r {
		case '─', '-', '═', '=':
			rule = true
		case '┌', '┬', '┐', '├', '┼', '┤', '└', '┴', '┘', '+', '|', '│', ':', ' ':
		default:
			return false
		}
	}
	return rule
}

func referenceCells(t string) []string {
	sep := "│"
	if !strings.HasPrefix(t, sep) {
		sep = "|"
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, sep), sep)
	cells := strings.Split(t, sep)
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

func referenceParseCommand(text string) ([]string, bool) {
	if !strings.Contains(text, "wrk") && !strings.Contains(text, "bombardier") && !strings.Contains(text, "autocannon") {
		return nil, false
	}
	words := shellWords(text)
	for i, w := range words {
		if _, ok := toolNames[path.Base(w)]; !ok {
			continue
		}
		for _, a := range words[i+1:] {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "://") {
				return words[i:], true
			}
		}
		return nil, false
	}
	return nil, false
}

func referenceIsNaN(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	return strings.EqualFold(s, "nan")
}

func referenceComposePrefix(text []byte) (int, bool) {
	i := bytes.Index(text, []byte(" | "))
	if i <= 0 {
		return 0, false
	}
	name := bytes.TrimRight(text[:i], " ")
	if len(name) == 0 {
		return 0, false
	}
	for j, c := range name {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (j == 0 || c != '_' && c != '-' && c != '.') {
			return 0, false
		}
	}
	return i + 3, true
}

func referenceBunLayout(file string) (runtime, target string, ok bool) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(file)), "/")
	if len(parts) < 3 || parts[len(parts)-3] != "results" {
		return "", "", false
	}
	base := parts[len(parts)-1]
	return parts[len(parts)-2], strings.TrimSuffix(base, path.Ext(base)), true
}

func (b *jsonBlock) referenceScan(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case b.escape:
			b.escape = false
		case b.inStr && c == '\\':
			b.escape = true
		case c == '"':
			b.inStr = !b.inStr
		case b.inStr:
		case c == '{' || c == '[':
			b.depth++
		case c == '}' || c == ']':
			b.depth--
		}
	}
}

// TestStatPercentile checks the fast reading of autocannon's "p97_5" keys
// against the plain one.
func TestStatPercentile(t *testing.T) {
	for _, key := range []string{"p50", "p97_5", "p0_001", "p99_999", "p", "pmean", "p1_2_3", "p1e2", "pinf", "p-1", "mean", "p" + strings.Repeat("9", 30), "p_5", "p5_"} {
		got, ok := statPercentile([]byte(key))
		name, isP := strings.CutPrefix(key, "p")
		want, err := strconv.ParseFloat(strings.ReplaceAll(name, "_", "."), 64)
		if wantOK := isP && err == nil; ok != wantOK || ok && got != want {
			t.Errorf("statPercentile(%q) = %v, %v; want %v, %v", key, got, ok, want, wantOK)
		}
	}
}
