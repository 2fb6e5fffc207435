package audit

import (
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestNodeEnv: Node and Bun targets without NODE_ENV=production are named,
// whatever else they set; a production one and a Go one are not.
func TestNodeEnv(t *testing.T) {
	set := &parse.Set{Targets: []*parse.Target{
		{Run: "r", Name: "express-node", Runtime: "node"},
		{Run: "r", Name: "elysia-bun", Runtime: "bun", Env: map[string]string{"NODE_ENV": "development"}},
		{Run: "r", Name: "fastify-node", Runtime: "node", Env: map[string]string{"NODE_ENV": "production"}},
		{Run: "r", Name: "gin", Runtime: "go"},
	}}
	var got []string
	for _, f := range nodeEnvFindings(set) {
		got = append(got, f.Target)
		if f.Rule != RuleNodeEnv || f.Level != LevelWarning {
			t.Errorf("%s: rule %s level %s", f.Target, f.Rule, f.Level)
		}
	}
	if len(got) != 2 || got[0] != "express-node" || got[1] != "elysia-bun" {
		t.Errorf("named %v, want express-node and elysia-bun", got)
	}
}
