package render

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// TestCSVText checks text fields of results.csv that a spreadsheet would
// run as formulas get OWASP's leading apostrophe, and others stay as they
// are, through encoding/csv as csvRows writes them.
func TestCSVText(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1": "'+1", "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)",
		"\tx": "'\tx", "\rx": "'\rx", "chi": "chi", "": "", "a=b": "a=b",
	} {
		if got := csvText(in); got != want {
			t.Errorf("csvText(%q) = %q, want %q", in, got, want)
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Write([]string{csvText(in)})
		w.Flush()
		rec, err := csv.NewReader(&b).Read()
		if in != "" && (err != nil || rec[0] != want) {
			t.Errorf("%q through csv: %q, %v", in, rec, err)
		}
	}
}
