package parse

import (
	"os"
	"strings"
	"testing"
)

// TestComposePrefix: a wrk run logged through docker compose, with another
// container's lines in between, reads as the plain dump does.
func TestComposePrefix(t *testing.T) {
	plain, err := os.ReadFile("testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("Attaching to bench_1, app_1\n")
	b.WriteString("app_1          | listening on :8080\n")
	for i, l := range strings.Split(strings.TrimRight(string(plain), "\n"), "\n") {
		b.WriteString("bench_1        | " + l + "\n")
		if i == 2 {
			b.WriteString("app_1          | GET / 200\n")
		}
	}
	b.WriteString("bench_1 exited with code 0\n")

	want := readOne(t, string(plain))
	got := readOne(t, b.String())
	if got.ToolRPS != want.ToolRPS || got.Requests != want.Requests || got.Latency.Max != want.Latency.Max ||
		len(got.Latency.Percentiles) != len(want.Latency.Percentiles) || got.Connections != want.Connections {
		t.Errorf("through compose: %+v\nplain: %+v", got, want)
	}
}

func readOne(t *testing.T, dump string) *Measurement {
	t.Helper()
	r := NewReader(strings.NewReader(dump), "x.txt")
	var ms []*Measurement
	for r.Scan() {
		if m, ok := r.Result().(*Measurement); ok {
			ms = append(ms, m)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("%d measurements, want 1", len(ms))
	}
	return ms[0]
}
