package parse

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// readRecords parses one file and returns its measurements, targets and errors.
func readRecords(t *testing.T, name string) ([]*Measurement, []*Target, []error) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readFrom(NewReader(f, name))
}

// readString parses text as a file called name.
func readString(name, text string) ([]*Measurement, []*Target, []error) {
	return readFrom(NewReader(strings.NewReader(text), name))
}

func readFrom(r *Reader) ([]*Measurement, []*Target, []error) {
	var ms []*Measurement
	var ts []*Target
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *Measurement:
			ms = append(ms, rec)
		case *Target:
			ts = append(ts, rec)
		}
	}
	return ms, ts, r.Errs()
}

// checkMeasurement compares a whole measurement, ignoring the file name and
// sha256 of its source, where each setting came from and the Bytes/Sec
// samples (all checked by TestGolden and post_test.go) and, where want
// leaves them empty, the fields every dialect shares (RPS, RPSBasis,
// GoodBasis: see TestThroughput).
func checkMeasurement(t *testing.T, name string, got, want *Measurement) {
	t.Helper()
	g := *got
	g.Source.File, g.Source.SHA256 = "", ""
	g.Settings, g.BytesPerSecSamples = want.Settings, want.BytesPerSecSamples
	if want.RPSBasis == "" {
		g.RPS, g.RPSBasis, g.GoodBasis = want.RPS, "", want.GoodBasis
	}
	if !reflect.DeepEqual(&g, want) {
		t.Errorf("%s:\n got %s\nwant %s", name, dumpFields(&g), dumpFields(want))
	}
}

// dumpFields prints the fields of a measurement that differ from zero.
func dumpFields(m *Measurement) string {
	v := reflect.ValueOf(*m)
	var b strings.Builder
	for i := 0; i < v.NumField(); i++ {
		if !v.Field(i).IsZero() {
			fmt.Fprintf(&b, "\n\t%s: %+v", v.Type().Field(i).Name, v.Field(i).Interface())
		}
	}
	return b.String()
}
