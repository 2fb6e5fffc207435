package suite

import (
	"strings"
	"testing"
)

// TestNamesRefused: a name that cannot become a path on every disk, a
// runtime fairbench cannot ask, are refused at their line.
func TestNamesRefused(t *testing.T) {
	long := strings.Repeat("a", 65)
	target := func(name, runtime string) string {
		return "[[target]]\nname=\"" + name + "\"\nruntime=\"" + runtime + "\"\nstart=[\"a\"]\n"
	}
	scenario := func(name string) string {
		return "[[scenario]]\nname=\"" + name + "\"\nrequest={path=\"/\"}\nexpect={status=200}\n"
	}
	for _, c := range []struct{ name, src, want string }{
		{"long target", "name=\"x\"\n" + target(long, "go") + okScenario, "s.toml:3: name: \"" + long + "\" is 65 characters: keep it to 64"},
		{"long scenario", "name=\"x\"\n" + okTarget + scenario(long), "s.toml:6: name: \"" + long + "\" is 65 characters"},
		{"case twin", "name=\"x\"\n" + target("Gin", "go") + target("gin", "go") + okScenario, `s.toml:7: name: "gin" differs from "Gin" only in case`},
		{"case twin scenario", "name=\"x\"\n" + okTarget + scenario("Q") + scenario("q"), `s.toml:10: name: "q" differs from "Q" only in case`},
		{"leading dot", "name=\"x\"\n" + target(".x", "go") + okScenario, `s.toml:3: name: ".x": use letters`},
		{"cobol", "name=\"x\"\n" + target("a", "cobol") + okScenario, `s.toml:4: runtime: "cobol" is not one of go, node, bun, deno`},
		{"runtime case", "name=\"x\"\n" + target("a", "Go") + okScenario, `s.toml:4: runtime: "Go" is not one of`},
	} {
		_, err := ParseSuite([]byte(c.src), "s.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestNamesAccepted: 64 characters, every allowed character, the known
// runtimes and none at all pass.
func TestNamesAccepted(t *testing.T) {
	long := strings.Repeat("a", 64)
	src := "name=\"x\"\n"
	for i, rt := range []string{"", "go", "node", "bun", "deno"} {
		name := []string{long, "A.b_c-9", "gin", "Gin2", "x"}[i]
		src += "[[target]]\nname=\"" + name + "\"\nruntime=\"" + rt + "\"\nstart=[\"a\"]\n"
	}
	if _, err := ParseSuite([]byte(src+okScenario), "s.toml"); err != nil {
		t.Fatal(err)
	}
}
