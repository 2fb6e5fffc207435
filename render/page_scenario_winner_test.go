package render

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFastestLineScoped: on the committed site, a scenario page's line of
// targets judged faster than every other names each with its own run, and
// each named target has rank 1–1 among exactly the named number of that
// run's cells in the scenario (results.json); ping names elysia-bun as the
// nest run's, never as the winner of a run it is only measured in.
func TestFastestLineScoped(t *testing.T) {
	var doc struct {
		Cells []struct {
			Run, Scenario, Name string
			RankLo              *int `json:"rank_lo"`
			RankHi              *int `json:"rank_hi"`
		}
	}
	if err := json.Unmarshal([]byte(projectPage(t, "results.json")), &doc); err != nil {
		t.Fatal(err)
	}
	ranked := map[[2]string]int{} // run, scenario → ranked cells
	first := map[[3]string]bool{} // run, scenario, name → rank 1–1
	for _, c := range doc.Cells {
		if c.RankHi == nil {
			continue
		}
		ranked[[2]string{c.Run, c.Scenario}]++
		if *c.RankLo == 1 && *c.RankHi == 1 {
			first[[3]string{c.Run, c.Scenario, c.Name}] = true
		}
	}
	part := regexp.MustCompile(`in the [^ ]+ run \(([^)]+)\), (.+?) judged faster than each of the run's (\d+) other targets?`)
	line := regexp.MustCompile(`<p[^>]*>Each run is judged within itself: (.*?)</p>`)
	for _, s := range []string{"ping", "json", "static", "query", "plaintext", "db"} {
		page := projectPage(t, "scenario/"+s+".html")
		if strings.Contains(page, "Judged faster than every other target of its run") {
			t.Errorf("scenario/%s.html names winners without their run", s)
		}
		m := line.FindStringSubmatch(page)
		if m == nil {
			if s == "ping" {
				t.Error("scenario/ping.html names no winner of any run (the nest run has one)")
			}
			continue
		}
		for _, p := range part.FindAllStringSubmatch(m[1], -1) {
			run, others := p[1], p[3]
			n, _ := strconv.Atoi(others)
			if got := ranked[[2]string{run, s}]; got != n+1 {
				t.Errorf("scenario %s: run %s has %d ranked cells, the line says %d others", s, run, got, n)
			}
			for _, name := range strings.Split(p[2], ", ") {
				if !first[[3]string{run, s, name}] {
					t.Errorf("scenario %s: %s is named the winner of run %s, where its rank is not 1–1", s, name, run)
				}
			}
		}
		if s == "ping" && !regexp.MustCompile(`in the nest run \([^)]+\), elysia-bun judged`).MatchString(m[1]) {
			t.Errorf("scenario/ping.html: %q does not scope elysia-bun to the nest run", m[1])
		}
	}
}
