package collect

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLineProgress(t *testing.T) {
	var b bytes.Buffer
	p := ProgressFor(&b) // not a terminal: lines
	p.Plan(2, 3*time.Second)
	p.Step("gin: gate", 0)
	p.Step("gin ping warm-up 1/1", time.Second)
	p.Note("chi: skipped")
	p.Step("gin ping rep 1/1", 2*time.Second)
	p.Done()
	want := "gin: gate\n[1/2] gin ping warm-up 1/1 (1s)\nchi: skipped\n[2/2] gin ping rep 1/1 (2s)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestBarProgress(t *testing.T) {
	var b bytes.Buffer
	p := NewBarProgress(&b)
	p.Plan(2, 2*time.Second)
	p.Step("gin ping rep 1/2", time.Second)
	p.Step("gin ping rep 2/2", time.Second)
	p.Note("a note")
	p.Done()
	if out := b.String(); !strings.Contains(out, "a note\n") || !strings.Contains(out, "gin ping rep") {
		t.Errorf("bar output lacks the step or the note: %q", out)
	}
}
