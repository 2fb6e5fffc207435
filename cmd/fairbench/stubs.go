package main

// notYet answers for a command whose issue has not landed.
func notYet(name string) func(*env, []string) error {
	return func(e *env, args []string) error {
		return usageErr("%s: not implemented yet", name)
	}
}

var auditCommand = command{
	summary: "judge how far each number can be trusted (not implemented yet)",
	usage:   "fairbench audit [-format text|json] [-table FILE] PATH...",
	run:     notYet("audit"),
}

var compareCommand = command{
	summary: "compare two runs, benchstat-style (not implemented yet)",
	usage:   "fairbench compare RUN_A RUN_B",
	run:     notYet("compare"),
}

var initCommand = command{
	summary: "scaffold a benchmark project (not implemented yet)",
	usage:   "fairbench init DIR",
	run:     notYet("init"),
}
