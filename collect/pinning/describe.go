package pinning

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Describe is t for a reader: its summary, the machine-wide facts, and a
// table of the CPUs, "?" where the kernel said nothing. from names where
// it was read ("/sys and /proc").
func Describe(t runjson.Topology, from string) []string {
	lines := []string{"CPU topology (" + from + "): " + t.Summary()}
	iso := "unknown"
	if t.Isolated != nil {
		iso = cmp.Or(*t.Isolated, "none")
	}
	lines = append(lines, fmt.Sprintf("online %s, isolated %s, SMT control %s", cmp.Or(t.Online, "unknown"), iso, cmp.Or(t.SMTControl, "unknown")))
	if len(t.CPUs) == 0 {
		return lines
	}
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "cpu\tpackage\tdie\tcore\tsiblings\tL3\ttype\tgovernor\tdriver")
	for _, c := range t.CPUs {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, num(c.Package), num(c.Die), num(c.Core),
			cmp.Or(c.Siblings, "?"), cmp.Or(c.L3, "?"), cmp.Or(c.Type, "-"), cmp.Or(c.Governor, "?"), cmp.Or(c.Driver, "?"))
	}
	w.Flush()
	for _, l := range bytes.Split(bytes.TrimRight(b.Bytes(), "\n"), []byte("\n")) {
		lines = append(lines, string(bytes.TrimRight(l, " ")))
	}
	return lines
}

func num(n *int) string {
	if n == nil {
		return "?"
	}
	return strconv.Itoa(*n)
}
