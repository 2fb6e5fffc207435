package verdict

import (
	"math"
	"slices"

	"github.com/fairbench/fairbench/parse"
)

// Decided is every judgment of a run set, made once: the verdicts of
// every family and pair (Verdicts), each pair as a comparison both ways
// round, each family's resolving power, each cell's reason for being left
// unranked, and each calibration run's resolving power. Pages, exports,
// compare and audit read it; none of them calls back into the decision
// code, so what one page says cannot differ from what another decided.
type Decided struct {
	*Verdicts
	// Resolving is one per calibration run of the set (ResolvingPower).
	Resolving []Resolving
	power     map[*ScenarioVerdicts]Power
	versus    map[[2]*Cell]Comparison
	why       map[*Cell]string
}

// DecideOnce decides cells of set on metric m (Decide) and everything
// the pages read beside the verdicts. all are every cell whose rank
// reason may be asked (Unranked), cells among them included.
func DecideOnce(set *parse.Set, cells, all []*Cell, m Metric, opts DecideOptions) *Decided {
	v := Decide(set, cells, m, opts)
	d := &Decided{Verdicts: v, power: map[*ScenarioVerdicts]Power{},
		versus: map[[2]*Cell]Comparison{}, why: map[*Cell]string{}}
	for _, sv := range v.Scenarios {
		if p, ok := sv.Power(v.Thresholds); ok {
			d.power[sv] = p
		}
		for _, p := range sv.Pairs {
			for _, k := range [][2]*Cell{{p.CellA, p.CellB}, {p.CellB, p.CellA}} {
				if c, ok := v.Versus(k[0], k[1]); ok {
					d.versus[k] = c
				}
			}
		}
	}
	for _, c := range all {
		if ok, why := Testable(c, m, v.Thresholds); !ok {
			d.why[c] = why
		}
	}
	d.Resolving = ResolvingPower(set, v)
	return d
}

// Power is family sv's resolving power (ScenarioVerdicts.Power); ok is
// false where the family has none.
func (d *Decided) Power(sv *ScenarioVerdicts) (Power, bool) {
	p, ok := d.power[sv]
	return p, ok
}

// Versus is the decided verdict on other against base (Verdicts.Versus);
// ok is false without one. Cells of one scenario in different families
// were never tested against each other: they read "~" with the reason
// Verdicts.Pair gives, which is a label, not a test.
func (d *Decided) Versus(base, other *Cell) (Comparison, bool) {
	if c, ok := d.versus[[2]*Cell{base, other}]; ok {
		return c, true
	}
	return d.Verdicts.Versus(base, other)
}

// Unranked is the reason (a Reason* constant) cell c could enter no
// test, "" when it could (Testable).
func (d *Decided) Unranked(c *Cell) string {
	return d.why[c]
}

// RunResolves is what a run's families resolve: the median and the
// largest of their Power.Resolves, over the families whose power can be
// said (n of them); n is 0 when none can.
func (d *Decided) RunResolves(run string) (median, largest float64, n int) {
	var rs []float64
	for _, sv := range d.Scenarios {
		if p, ok := d.power[sv]; ok && sv.Run == run && !math.IsNaN(p.Resolves) {
			rs = append(rs, p.Resolves)
		}
	}
	if len(rs) == 0 {
		return 0, 0, 0
	}
	return MedianOf(rs), slices.Max(rs), len(rs)
}
