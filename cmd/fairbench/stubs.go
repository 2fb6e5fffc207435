package main

// notYet answers for a command whose issue has not landed.
func notYet(name string) func(*env, []string) error {
	return func(e *env, args []string) error {
		return usageErr("%s: not implemented yet", name)
	}
}

var initCommand = command{
	summary: "scaffold a benchmark project (not implemented yet)",
	usage:   "fairbench init DIR",
	run:     notYet("init"),
}
