package machine

import (
	"strings"
	"testing"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path-1.0": "plain/path-1.0",
		"":               "''",
		"a b":            "'a b'",
		"it's":           `'it'\''s'`,
		"$(rm -rf /)":    "'$(rm -rf /)'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestReadToolEnd(t *testing.T) {
	log := "0m0.001s 0m0.002s\n0m1.500s 1m0.250s\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  tool.out\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b856  tool.err\n" +
		"120 tool.out\n0 tool.err\nfairbench-rc 3\n"
	e, ok := readToolEnd(log)
	if !ok || e.status != 3 || e.cpu != 61.75 || e.size != [2]int64{120, 0} || e.sha[1][63] != '6' {
		t.Errorf("readToolEnd = %+v, %v", e, ok)
	}
	if _, ok := readToolEnd("Connection to x closed\n"); ok {
		t.Error("readToolEnd read a status from a lost link's output")
	}
	if _, ok := readToolEnd(strings.Replace(log, "  tool.err", "  other", 1)); ok {
		t.Error("readToolEnd took a line for another file")
	}
}
