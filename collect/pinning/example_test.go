package pinning_test

import (
	"fmt"

	"github.com/fairbench/fairbench/collect/pinning"
)

// ryzen is the recorded Ryzen 9 5950X: 16 cores, the second thread of core
// n at CPU n+16, two CCDs with an L3 each.
var ryzen = pinning.Roots{Sys: "testdata/ryzen-16c32t/sys", Proc: "testdata/ryzen-16c32t/proc"}

func ExampleSuggest() {
	s := pinning.Suggest(pinning.Read(ryzen))
	fmt.Printf("server_cpus = %q\nclient_cpus = %q\n", s.Server, s.Client)
	for _, n := range s.Notes {
		fmt.Println("#", n)
	}
	// Output:
	// server_cpus = "8-15,24-31"
	// client_cpus = "1-7,17-23"
	// # the core of CPU 0 (0,16) is left to the kernel, its interrupts and fairbench
	// # server and client in different L3 domains (8-15,24-31 and 0-7,16-23)
}

func ExampleAudit() {
	// "server pinned to cores 0-7, wrk to 16-31"
	findings, err := pinning.Audit(pinning.Read(ryzen), "0-7", "16-31")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range findings {
		fmt.Println(f.Level, f.Rule, f.Message[:72])
	}
	fmt.Println("problem:", pinning.Problem(findings))
	// Output:
	// error pinning the server and the client share physical cores (server/client SMT siblin
	// problem: true
}
