//go:build !unix

package parse

import "time"

// cpuTime is not measured here; benchmarks then omit their CPU ratio.
func cpuTime() time.Duration { return 0 }
