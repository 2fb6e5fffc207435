package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
)

// RuleNodeEnv fires for a Node or Bun target that ran without
// NODE_ENV=production.
const RuleNodeEnv = "node-env"

// nodeEnvFindings reports the Node and Bun targets whose environment, as
// run.json records it, does not set NODE_ENV=production: frameworks read
// it to choose between development and production behaviour (Express
// answers an error with a stack trace and skips its view cache in
// development), and their users deploy in production, so a benchmark in
// development mode measures a server nobody runs.
func nodeEnvFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, t := range set.Targets {
		if t.Runtime != "node" && t.Runtime != "bun" {
			continue
		}
		env, ok := t.Env["NODE_ENV"]
		if ok && env == "production" {
			continue
		}
		got := "sets no NODE_ENV"
		if ok {
			got = fmt.Sprintf("sets NODE_ENV=%q", env)
		}
		fs = append(fs, Finding{Rule: RuleNodeEnv, Level: LevelWarning, Run: t.Run, Target: t.Name,
			Message: fmt.Sprintf("the %s target ran in development mode: its environment %s (as run.json records it), so frameworks behave as in development (Express answers errors with stack traces); add env = { NODE_ENV = \"production\" } to the target, as its users deploy it", t.Runtime, got),
			Dumps: []string{t.Source.File}})
	}
	return fs
}
