package runjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxCPU bounds the CPU numbers a list may name, so that "0-999999999" is
// an error, not a gigabyte of memory. The kernel's own limit (NR_CPUS) is
// at most 8192.
const MaxCPU = 8191

// ParseCPUList reads a CPU list in the kernel's and taskset's format: numbers
// and ranges separated by commas, a range optionally with a stride
// ("0-3,8,16-31:2"). The CPUs come back sorted, without repeats; "" is the
// empty set.
func ParseCPUList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var cpus []int
	for _, item := range strings.Split(strings.TrimSpace(s), ",") {
		span, stride, hasStride := strings.Cut(item, ":")
		lo, hi, isRange := strings.Cut(span, "-")
		first, err := cpuNumber(lo)
		if err != nil {
			return nil, fmt.Errorf("CPU list %q: %q: %w", s, item, err)
		}
		last, step := first, 1
		if isRange {
			if last, err = cpuNumber(hi); err != nil {
				return nil, fmt.Errorf("CPU list %q: %q: %w", s, item, err)
			}
			if last < first {
				return nil, fmt.Errorf("CPU list %q: %q: the range runs backwards", s, item)
			}
		}
		if hasStride {
			if !isRange {
				return nil, fmt.Errorf("CPU list %q: %q: a stride needs a range, as in 0-15:2", s, item)
			}
			if step, err = strconv.Atoi(stride); err != nil || step < 1 || strings.ContainsAny(stride, "+- ") {
				return nil, fmt.Errorf("CPU list %q: %q: the stride is not a positive number", s, item)
			}
		}
		for c := first; c <= last; c += step {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// cpuNumber reads one CPU number.
func cpuNumber(s string) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a CPU number; write a list like 0-3,8 or 0,2", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > MaxCPU {
		return 0, fmt.Errorf("CPU %s is beyond any kernel's limit of %d", s, MaxCPU+1)
	}
	return n, nil
}

// FormatCPUList writes CPUs as a CPU list, runs of consecutive numbers as
// ranges: [0 1 2 3 8] is "0-3,8". The input needs no order.
func FormatCPUList(cpus []int) string {
	cpus = slices.Compact(slices.Sorted(slices.Values(cpus)))
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
