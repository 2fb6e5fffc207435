package render

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestCSVText checks text fields of results.csv that a spreadsheet would
// run as formulas get OWASP's leading apostrophe, and others stay as they
// are, through encoding/csv as csvRows writes them.
func TestCSVText(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1": "'+1", "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)",
		"\tx": "'\tx", "\rx": "'\rx", "chi": "chi", "": "", "a=b": "a=b",
	} {
		if got := parse.CSVText(in); got != want {
			t.Errorf("parse.CSVText(%q) = %q, want %q", in, got, want)
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Write([]string{parse.CSVText(in)})
		w.Flush()
		rec, err := csv.NewReader(&b).Read()
		if in != "" && (err != nil || rec[0] != want) {
			t.Errorf("%q through csv: %q, %v", in, rec, err)
		}
	}
}
