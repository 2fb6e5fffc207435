package collect

import (
	"math"
	"strings"
	"testing"
)

// TestReadSchedule checks the send rate and how far sending fell behind on
// results in vegeta's CSV encoding, out of order as vegeta writes them.
func TestReadSchedule(t *testing.T) {
	t.Parallel()
	// 10 req/s: seq 0 due at 0, 1 at 100 ms, 2 at 200 ms (sent at 250 ms:
	// 50 ms late), 3 at 300 ms.
	csv := "" +
		"1000000000,200,5000,0,0,,,,0,GET,http://x/,\n" +
		"1250000000,200,5000,0,0,,,,2,GET,http://x/,\n" +
		"1100000000,500,5000,0,0,\"a, b\",,,1,GET,http://x/,\n" +
		"1300000000,200,5000,0,0,,,,3,GET,http://x/,\n"
	s, err := readSchedule(strings.NewReader(csv), 10)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sent != 4 || math.Abs(s.SendRate-10) > 1e-9 || math.Abs(s.Behind-0.05) > 1e-9 {
		t.Errorf("schedule %+v, want 4 sent at 10 req/s, 0.05 s behind", s)
	}
	if _, err := readSchedule(strings.NewReader("1,200\n"), 10); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a short line: err %v, want one naming line 1", err)
	}
}
