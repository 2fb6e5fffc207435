package main

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// textWriter shows control characters visibly on their way to a terminal:
// file names, target names and server answers end up in what commands
// print, and an escape sequence among them would otherwise move the cursor,
// retitle the window or hide the lines before it. Tabs and newlines pass;
// every other C0 and C1 control, DEL, the bidirectional overrides and bytes
// that are not UTF-8 are written as Go escapes (\x1b, \u202e).
//
// Every text-printing command writes through one (run wraps stdout and
// stderr), CSV included; only JSON (parse's JSON Lines, audit -format
// json), which escapes such characters itself, goes to the raw stream.
type textWriter struct {
	w       io.Writer
	partial []byte // the start of a UTF-8 sequence cut by the last Write
	out     []byte // scratch
}

func newTextWriter(w io.Writer) *textWriter { return &textWriter{w: w} }

// Write writes p with its control characters escaped. It reports len(p)
// when the underlying writer took everything.
func (t *textWriter) Write(p []byte) (int, error) {
	in := p
	if len(t.partial) > 0 {
		in = append(t.partial, p...)
		t.partial = nil
	}
	out := t.out[:0]
	for len(in) > 0 {
		r, size := utf8.DecodeRune(in)
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(in) {
			t.partial = append([]byte(nil), in...) // finished by the next Write
			break
		}
		switch {
		case r == utf8.RuneError && size <= 1:
			out = fmt.Appendf(out, `\x%02x`, in[0])
		case visible(r):
			out = append(out, in[:size]...)
		case r < 0x80:
			out = fmt.Appendf(out, `\x%02x`, r)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		in = in[size:]
	}
	t.out = out
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a UTF-8 sequence left unfinished at the end, escaped.
func (t *textWriter) Flush() error {
	if len(t.partial) == 0 {
		return nil
	}
	var out []byte
	for _, c := range t.partial {
		out = fmt.Appendf(out, `\x%02x`, c)
	}
	t.partial = nil
	_, err := t.w.Write(out)
	return err
}

// visible reports whether r may reach a terminal as it is.
func visible(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return true
	case r < 0x20 || r == 0x7f:
		return false
	case r >= 0x80 && r < 0xa0: // C1 controls, CSI among them
		return false
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return false
	}
	return true
}

// flushText finishes what a command wrote through a textWriter.
func flushText(w io.Writer) {
	if t, ok := w.(*textWriter); ok {
		t.Flush()
	}
}
