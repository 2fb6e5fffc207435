package runjson

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"", nil, ""},
		{"0", []int{0}, ""},
		{"0-3,8", []int{0, 1, 2, 3, 8}, ""},
		{"8,0-1,1", []int{0, 1, 8}, ""},
		{"0-7:2", []int{0, 2, 4, 6}, ""},
		{" 1-2 ", []int{1, 2}, ""},
		{"zero", nil, `"zero" is not a CPU number`},
		{"0-", nil, `"" is not a CPU number`},
		{"3-1", nil, "runs backwards"},
		{"1,,2", nil, `"" is not a CPU number`},
		{"0:2", nil, "a stride needs a range"},
		{"0-7:0", nil, "stride is not a positive number"},
		{"0-99999999999", nil, "beyond any kernel's limit"},
		{"-1", nil, `"" is not a CPU number`},
	} {
		got, err := ParseCPUList(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseCPUList(%q) error = %v, want one with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{3, 0, 1, 2, 8}, "0-3,8"},
		{[]int{0, 2, 4}, "0,2,4"},
		{[]int{1, 1, 2}, "1-2"},
	} {
		if got := FormatCPUList(tc.in); got != tc.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzParseCPUList checks that any list that parses writes back to a list
// that parses to the same CPUs.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0", "0-3,8", "0-7,16-23", "0-31:2", "1,,2", "3-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			return
		}
		again, err := ParseCPUList(FormatCPUList(cpus))
		if err != nil || !slices.Equal(again, cpus) {
			t.Fatalf("%q: %v, written %q, read back %v, %v", s, cpus, FormatCPUList(cpus), again, err)
		}
	})
}
