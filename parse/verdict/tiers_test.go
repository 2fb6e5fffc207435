package verdict

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// tierNames writes tiers as "a b | c" for comparison.
func tierNames(st ScenarioTiers) string {
	var tiers []string
	for _, t := range st.Tiers {
		var names []string
		for _, c := range t.Cells {
			names = append(names, c.Name)
		}
		tiers = append(tiers, strings.Join(names, " "))
	}
	return strings.Join(tiers, " | ")
}

func TestTiers(t *testing.T) {
	s := setOf(
		// ping: a and b are tied at the top, c is apart below them.
		series("r", "a", "ping", 0, 0, 200, 201, 202, 203, 204),
		series("r", "b", "ping", 0, 0, 201, 202, 203, 204, 205),
		series("r", "c", "ping", 0, 0, 150, 151, 152, 153, 154),
		series("r", "d", "ping", 0, 0, 100),
		// json: a is alone at the top; b and c tie below.
		series("r", "a", "json", 0, 0, 300, 301, 302, 303, 304),
		series("r", "b", "json", 0, 0, 200, 201, 202, 203, 204),
		series("r", "c", "json", 0, 0, 201, 202, 203, 204, 205),
	)
	th := DefaultThresholds
	d := Decide(s, Cells(s, th), MetricRPS, DecideOptions{Thresholds: th})
	var got []ScenarioTiers
	for _, sv := range d.Scenarios {
		got = append(got, d.Tiers(sv))
	}
	if len(got) != 2 || got[0].Scenario != "json" || got[1].Scenario != "ping" {
		t.Fatalf("scenarios %+v", got)
	}
	json, ping := got[0], got[1]
	if n := tierNames(ping); n != "b a | c" {
		t.Errorf("ping tiers %q, want %q", n, "b a | c")
	}
	if r := d.Find("r", "ping").Rank(ping.Tiers[0].Cells[1]); r.Lo != 1 || r.Hi != 2 {
		t.Errorf("ping: a ranked %d–%d, want 1–2", r.Lo, r.Hi)
	}
	if ping.Fastest() != nil {
		t.Errorf("ping: fastest %v with a tie at the top", ping.Fastest())
	}
	if len(ping.Unranked) != 1 || ping.Unranked[0].Name != "d" {
		t.Errorf("ping: unranked %v, want d (one repetition)", ping.Unranked)
	}
	if n := tierNames(json); n != "a | c b" {
		t.Errorf("json tiers %q, want %q", n, "a | c b")
	}
	if f := json.Fastest(); f == nil || f.Name != "a" {
		t.Errorf("json: fastest %v, want a", f)
	}
	if c := ping.Tiers[0].Comparisons[1]; c.Method != MethodWelchLog || c.Differs {
		t.Errorf("ping tier 1: a against b = %+v, want a U test, ~", c)
	}
}

func TestGeoMeans(t *testing.T) {
	s := setOf(
		series("r", "a", "ping", 0, 0, 100),
		series("r", "a", "json", 0, 0, 400),
		series("r", "a", "db", 0, 0, 7),
		series("r", "b", "ping", 0, 0, 50),
		series("r", "b", "json", 0, 0, 800),
	)
	got := GeoMeans(Cells(s, DefaultThresholds), MetricRPS)
	if len(got) != 1 {
		t.Fatalf("%d geomeans, want 1", len(got))
	}
	g := got[0]
	if strings.Join(g.Scenarios, ",") != "json,ping" || strings.Join(g.Dropped, ",") != "db" {
		t.Errorf("scenarios %v dropped %v, want json,ping and db", g.Scenarios, g.Dropped)
	}
	// a: √(100×400) = 200; b: √(50×800) = 200: tied, so by name.
	if len(g.Entries) != 2 || g.Entries[0].Name != "a" || !closeTo(g.Entries[0].Value, 200) || !closeTo(g.Entries[1].Value, 200) {
		t.Errorf("entries %+v, want a 200, b 200", g.Entries)
	}
	none := GeoMeans(Cells(setOf(series("r", "a", "x", 0, 0, 1), series("r", "b", "y", 0, 0, 1)), DefaultThresholds), MetricRPS)
	if len(none[0].Entries) != 0 || len(none[0].Dropped) != 2 {
		t.Errorf("no shared scenario: %+v", none[0])
	}
}

// TestTiersFourRepsManyTargets: with four repetitions a side, clearly
// separated targets get a tier each however many there are, with Holm over
// all 28 pairs (a U test could not: its smallest p with 4+4 is 2/70).
func TestTiersFourRepsManyTargets(t *testing.T) {
	var ms [][]*parse.Measurement
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for i, n := range names {
		base := float64(1000 - 100*i)
		ms = append(ms, series("r", n, "ping", 0, 0, base, base+1, base+2, base+3))
	}
	s := setOf(ms...)
	d := Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
	got := []ScenarioTiers{d.Tiers(d.Scenarios[0])}
	if len(got) != 1 || len(got[0].Tiers) != len(names) {
		t.Fatalf("tiers %q, want one tier per target", tierNames(got[0]))
	}
}
