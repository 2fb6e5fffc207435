package collect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
)

// Shard is the I-th of N deterministic shares of a suite's targets, for
// collecting one suite on N machines (or N sessions) at once; fairbench merge
// joins the N run dirs back into one run. The zero Shard is the whole suite.
//
// The share is round robin in suite order: target k (0-based, in the order
// of [[target]] in the suite file) belongs to shard (k mod N)+1. So
//
//   - every target is in exactly one shard, and the shares differ in size by
//     at most one target. Every target is measured in every scenario with
//     the same repetitions, so counting targets is counting load windows: a
//     shard's wall time is within one target's of another's;
//   - the rule reads the suite file alone: the same suite gives the same
//     shares on every machine, whatever its clock, host name or Go version;
//   - a target appended at the end of the suite leaves every other target
//     in its shard ("gin is in shard 2" stays true).
//
// A hash of the target name would also survive reordering, but it leaves
// shares lopsided or empty at the sizes suites have (5 to 10 targets), and
// the stability would buy nothing: merge only joins shards of the same suite
// bytes (the same suite_sha256), so shards of an edited suite never meet.
type Shard struct {
	I, N int // 1 ≤ I ≤ N; both 0 for the whole suite
}

// ParseShard reads "I/N" (e.g. "2/3"). The empty string is the zero Shard.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 1/3 for the first of three shards", s)
	}
	si, err1 := strconv.Atoi(strings.TrimSpace(i))
	sn, err2 := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("shard %q: I and N must be whole numbers, as in 1/3", s)
	case sn < 1:
		return Shard{}, fmt.Errorf("shard %q: N must be at least 1", s)
	case si < 1 || si > sn:
		return Shard{}, fmt.Errorf("shard %q: I must be between 1 and %d", s, sn)
	}
	return Shard{I: si, N: sn}, nil
}

// String is "I/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.IsZero() {
		return ""
	}
	return strconv.Itoa(s.I) + "/" + strconv.Itoa(s.N)
}

// IsZero reports whether s is the whole suite.
func (s Shard) IsZero() bool { return s.N == 0 }

// Has reports whether the target at index k (0-based, suite order) is in
// the shard.
func (s Shard) Has(k int) bool {
	return s.IsZero() || k%s.N == s.I-1
}

// Targets returns the shard's share of targets, in suite order.
func (s Shard) Targets(targets []suite.Target) []suite.Target {
	var out []suite.Target
	for k, t := range targets {
		if s.Has(k) {
			out = append(out, t)
		}
	}
	return out
}

// shardOf is the shard ("I/N") holding the target at index k when the
// suite is cut into n shares.
func shardOf(k, n int) Shard {
	return Shard{I: k%n + 1, N: n}
}

// share picks the targets of the collect's shard, with the shard recorded in
// the run dir when resuming. -only is refused alongside a shard: a shard's run
// dir must hold all of its share, or a merge of complete shards would miss
// targets without knowing it.
func (c *collector) share() ([]suite.Target, error) {
	sh := c.opt.Shard
	if c.opt.Resume != "" {
		recorded, err := resumedShard(c.opt.Resume, sh)
		if err != nil {
			return nil, err
		}
		sh = recorded
	}
	c.opt.Shard = sh
	if sh.IsZero() {
		return c.suite.Targets, nil
	}
	if len(c.opt.Only) > 0 {
		return nil, fmt.Errorf("-only and -shard %s together: a shard runs all of its share, so that merge can rebuild the whole suite; drop one of them", sh)
	}
	if sh.N > len(c.suite.Targets) {
		return nil, fmt.Errorf("-shard %s: %s has %d targets, so some shards would be empty: use at most %d shards", sh, c.suite.File, len(c.suite.Targets), len(c.suite.Targets))
	}
	return sh.Targets(c.suite.Targets), nil
}

// resumedShard returns the shard recorded in the run dir being resumed. A
// given shard that disagrees with it is an error; none given takes it.
func resumedShard(runDir string, given Shard) (Shard, error) {
	d, err := rundir.Load(runDir)
	if err != nil {
		return Shard{}, fmt.Errorf("-resume %s: %w", runDir, err)
	}
	m := d.Manifest()
	if len(m.Merged) > 0 {
		return Shard{}, fmt.Errorf("-resume %s: a merged run is not resumed: resume its shard run dirs (listed under merged in run.json), then merge them again", runDir)
	}
	recorded, err := ParseShard(m.Shard)
	if err != nil {
		return Shard{}, fmt.Errorf("-resume %s: run.json: %w", runDir, err)
	}
	if !given.IsZero() && given != recorded {
		had := "no shard (the whole suite)"
		if !recorded.IsZero() {
			had = "shard " + recorded.String()
		}
		return Shard{}, fmt.Errorf("-resume %s -shard %s: the run dir was collected as %s: drop -shard to resume it as it was", runDir, given, had)
	}
	return recorded, nil
}
