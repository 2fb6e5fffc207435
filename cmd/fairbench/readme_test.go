package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADME keeps the README a front door: small, pointing at every
// reference topic and naming every command.
func TestREADME(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 10240 {
		t.Errorf("README.md is %d bytes, over 10,240: move the detail into a help topic or a usage text", len(b))
	}
	readme := string(b)
	for name := range topics {
		if !strings.Contains(readme, "fairbench help "+name) && !regexp.MustCompile(`fairbench help [a-z|-]*\b`+regexp.QuoteMeta(name)+`\b`).MatchString(readme) {
			t.Errorf("README.md does not point at fairbench help %s", name)
		}
	}
	for name := range commands {
		if !strings.Contains(readme, "`fairbench "+name) {
			t.Errorf("README.md does not name fairbench %s", name)
		}
	}
}
