package parse

import "strings"

// CSVText keeps a text field of a CSV file from being read as a formula by
// a spreadsheet: a field starting with =, +, -, @, a tab or a carriage
// return gets a leading apostrophe, as OWASP advises against CSV
// injection. Numbers are not text: a caller passes only text fields (a
// negative number would otherwise gain the apostrophe). Both fairbench's
// CSVs, parse -format csv and the site's results.csv, use it.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
