package rundir

import "testing"

// TestPortable: paths are rewritten where they start a string or follow a
// separator, the most particular folder first; other paths stay.
func TestPortable(t *testing.T) {
	places := []Place{{"/tmp/fairbench-build-1", "{build}"}, {"/work/proj", ""}, {"/root", "~"}, {"/tmp", "{tmp}"}}
	for _, c := range []struct{ in, want string }{
		{"/tmp/fairbench-build-1/elysia/scratch/targets.json", "{build}/elysia/scratch/targets.json"},
		{"-targets=/tmp/fairbench-build-1/a/targets.json", "-targets={build}/a/targets.json"},
		{"go version -m /tmp/fairbench-build-1/bin/x/server", "go version -m {build}/bin/x/server"},
		{"/work/proj/site/suites/js.toml", "site/suites/js.toml"},
		{"/work/proj", "."},
		{"/root/.cache/fairbench/bombardier-v1.2.6/bombardier", "~/.cache/fairbench/bombardier-v1.2.6/bombardier"},
		{"build in /tmp/x: exit 1", "build in {tmp}/x: exit 1"},
		{"/tmpfoo/x", "/tmpfoo/x"},
		{"/x/tmp/y", "/x/tmp/y"},
		{"/usr/bin/wrk", "/usr/bin/wrk"},
		{"http://127.0.0.1:8080/tmp/x", "http://127.0.0.1:8080/tmp/x"},
	} {
		if got := PortablePath(places, c.in); got != c.want {
			t.Errorf("PortablePath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
