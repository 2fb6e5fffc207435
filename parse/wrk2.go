package parse

import (
	"fmt"
	"strings"
)

// wrk2 (giltene/wrk2, -R constant rate) prints wrk's output plus:
//
//	  Thread calibration: mean lat.: 1.009ms, rate sampling interval: 10ms
//	  Latency Distribution (HdrHistogram - Recorded Latency)
//	 50.000%    0.93ms          8 rows: 50 75 90 99 99.9 99.99 99.999 100
//	  Detailed Percentile spectrum:
//	       Value   Percentile   TotalCount 1/(1-Percentile)
//	       0.096     0.000000            1         1.00
//	#[Mean    =        0.934, StdDeviation   =        0.414]
//	#[Max     =        5.344, Total count    =         5979]
//	#[Buckets =           27, SubBuckets     =         2048]
//	----------------------------------------------------------
//
// and with -U a second, "Uncorrected Latency" block of the same shape.
// Its latency is corrected for coordinated omission. The spectrum rows are
// skipped; the recorded block's Total count gives Latency.Samples.

// wrk2Line handles a wrk2-only line, reporting whether it was one.
func (b *wrkBlock) wrk2Line(l line, t string) (bool, error) {
	switch {
	case strings.HasPrefix(t, "Thread calibration:"),
		strings.HasPrefix(t, "Detailed Percentile spectrum"),
		strings.HasPrefix(t, "Value") && strings.Contains(t, "Percentile"),
		strings.HasPrefix(t, "#[Mean"), strings.HasPrefix(t, "#[Buckets"),
		strings.HasPrefix(t, "----"):
		b.wrk2 = true
		return true, nil
	case strings.HasPrefix(t, "#[Max"):
		b.wrk2 = true
		i := strings.Index(t, "Total count")
		if i < 0 {
			return true, b.syntax(l, "%q: no Total count", t)
		}
		var n int64
		rest := strings.TrimSpace(strings.TrimPrefix(t[i:], "Total count"))
		if _, err := fmt.Sscanf(rest, "= %d]", &n); err != nil {
			return true, b.syntax(l, "%q: Total count is not an integer", t)
		}
		if b.section == wrkHdrRecorded && b.m.Latency.Samples == 0 {
			b.m.Latency.Samples = n
		}
		return true, nil
	case b.section >= wrkHdrRecorded && spectrumRow(t):
		return true, nil
	}
	return false, nil
}

// plainSpectrumRow reports, quicker than spectrumRow, whether t is four
// plain decimals ("0.096   0.000000   1   1.00") apart by blanks: the form
// nearly every spectrum row has, and one that spectrumRow takes too.
func plainSpectrumRow(t string) bool {
	n := 0
	for i := 0; i < len(t); {
		for i < len(t) && isBlank(t[i]) {
			i++
		}
		if i == len(t) {
			break
		}
		digits, dots := 0, 0
		for ; i < len(t) && !isBlank(t[i]); i++ {
			switch c := t[i]; {
			case c >= '0' && c <= '9':
				digits++
			case c == '.':
				dots++
			default:
				return false
			}
		}
		if digits == 0 || dots > 1 {
			return false
		}
		n++
	}
	return n == 4
}

// spectrumRow reports whether t is "  0.096   0.000000   1   1.00" (or "inf").
func spectrumRow(t string) bool {
	var buf [16]string
	f := fields(buf[:0], t)
	if len(f) != 4 {
		return false
	}
	for _, s := range f {
		if _, ok := number(s); !ok && s != "inf" {
			return false
		}
	}
	return true
}
