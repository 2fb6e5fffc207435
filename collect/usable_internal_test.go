package collect

import (
	"strings"
	"testing"
)

// TestCountProblem decides, without a collect, every output of a load tool
// that holds no count (TestNothingUsableMeasured collects one of them): a
// silent tool, bytes no reader takes, a result without counts, a result of
// 0 requests and 0 errors; and a real count, or errors alone, are usable.
func TestCountProblem(t *testing.T) {
	const result = `{"spec":{"numberOfConnections":4},"result":{"bytesRead":0,"bytesWritten":0,"timeTakenSeconds":1,"req1xx":0,"req2xx":%OK%,"req3xx":0,"req4xx":0,"req5xx":0,"others":%ERR%,"rps":{"mean":0,"stddev":0,"max":0}}}`
	count := func(ok, errs string) string {
		return strings.NewReplacer("%OK%", ok, "%ERR%", errs).Replace(result) + "\n"
	}
	for _, c := range []struct{ name, stdout, want string }{
		{"silent", "", "bombardier printed no result: no output (0 bytes)"},
		{"garbage", "Statistics \x00\xff req/s: lots\r\n", "bombardier printed no result: "},
		{"bare result", `{"result":{}}` + "\n", "bombardier printed no result: "},
		{"empty result", `{"spec":{"numberOfConnections":4},"result":{}}` + "\n", "bombardier printed no result: "},
		{"zero result", count("0", "0"), "bombardier reported 0 requests and no errors"},
		{"counted", count("1000", "0"), ""},
		{"errors only", count("0", "12"), ""},
	} {
		got := countProblem("bombardier", []byte(c.stdout))
		if c.want == "" {
			if got != "" {
				t.Errorf("%s: %q, want usable", c.name, got)
			}
			continue
		}
		if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "its dump is kept but not counted") {
			t.Errorf("%s: %q, want %q… and that the dump is not counted", c.name, got, c.want)
		}
	}
}
