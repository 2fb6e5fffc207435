package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

var pinCommand = command{
	summary: "suggest or check the CPU pinning of server and load tool",
	usage: `fairbench pin [-format text|json] [-server LIST -client LIST | -suite FILE] [-sysfs DIR] [-procfs DIR]

Reads this machine's CPU topology (physical cores and their SMT siblings, L3
domains, P- and E-cores, governor, boost) and, without -server, -client or
-suite, prints a suggested [isolation] table for a suite, the topology
before it as # comments, so the output pastes into a suite file. The server
gets whole physical cores (both SMT siblings) within one L3 domain and on
P-cores, the load tool other physical cores, in another L3 domain where
there is one; with four cores or more the core of CPU 0 is left to the
kernel. What the kernel does not say (no cache entries in most VMs) is shown
as unknown and left out of the choice.

-server LIST -client LIST, or -suite FILE (its [isolation]), audits a
pinning instead: the sets must not share a physical core, the server must
stay in one L3 domain and off E-cores, and every CPU must be online.
collect and verify run the same audit before anything starts.

LIST is taskset's format: 0-3,8 or 0-15:2. -format json prints
{"server_cpus", "client_cpus", "topology", "findings"}. -sysfs and -procfs
read a recorded tree in place of /sys and /proc.

Exit status: 0 fine, or the topology is unknown (said so); 1 a problem (the
sets share a physical core, the server spans L3 domains or sits on E-cores,
a set names an offline CPU); 2 bad usage (a malformed list, a CPU that does
not exist, only one of -server and -client).

Examples:
  fairbench pin >> site/suites/go.toml
  fairbench pin -server 0-7 -client 16-31
  fairbench pin -suite site/suites/go.toml
  fairbench pin -format json -sysfs collect/pinning/testdata/ryzen-16c32t/sys -procfs collect/pinning/testdata/ryzen-16c32t/proc`,
	run: runPin,
}

// pinReport is what fairbench pin prints with -format json.
type pinReport struct {
	Server   string               `json:"server_cpus"`
	Client   string               `json:"client_cpus"`
	Topology runjson.Topology     `json:"topology"`
	Findings []runjson.PinFinding `json:"findings"`
	Notes    []string             `json:"notes,omitempty"` // why the suggestion is what it is
}

func runPin(e *env, args []string) error {
	fs := newFlags(e, "pin")
	format := fs.String("format", "text", "output: text (suite TOML with # comments) or json")
	server := fs.String("server", "", "the server's CPU `LIST` to audit")
	client := fs.String("client", "", "the load tool's CPU `LIST` to audit")
	suitePath := fs.String("suite", "", "audit the [isolation] of this suite `FILE`")
	roots := pinning.DefaultRoots
	fs.StringVar(&roots.Sys, "sysfs", roots.Sys, "sysfs mount point, or a recorded copy")
	fs.StringVar(&roots.Proc, "procfs", roots.Proc, "procfs mount point, or a recorded copy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case fs.NArg() > 0:
		return usageErr("pin: unexpected argument %q: give CPU lists with -server and -client", fs.Arg(0))
	case *format != "text" && *format != "json":
		return usageErr("pin: -format %q: want text or json", *format)
	case set["suite"] && (set["server"] || set["client"]):
		return usageErr("pin: -suite and -server/-client together: audit one or the other")
	case set["server"] != set["client"]:
		return usageErr("pin: -server and -client go together: a pinning is both sets (give -client \"\" for a load tool left unpinned)")
	}
	audit := set["server"] || set["suite"]
	if *suitePath != "" {
		st, err := suite.LoadSuite(*suitePath)
		if err != nil {
			return usageErr("%w", err)
		}
		*server, *client = st.Isolation.ServerCPUs, st.Isolation.ClientCPUs
	}
	r := pinReport{Topology: pinning.Read(roots), Server: *server, Client: *client}
	if !audit {
		s := pinning.Suggest(r.Topology)
		r.Server, r.Client, r.Notes = s.Server, s.Client, s.Notes
	}
	var findings []runjson.PinFinding
	var err error
	if audit || r.Server != "" {
		if findings, err = pinning.Audit(r.Topology, r.Server, r.Client); err != nil {
			return usageErr("pin: %w", err)
		}
	}
	r.Findings = append(findings, pinning.Machine(r.Topology, r.Server, r.Client)...)
	if *format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		writePin(e.stdout, r, roots, audit)
	}
	if pinning.Problem(findings) {
		return failure(fmt.Errorf("pin: the pinning server_cpus = %q, client_cpus = %q has a problem (see the errors above)", r.Server, r.Client))
	}
	return nil
}

// writePin prints the topology as # comments, then the findings and the
// [isolation] table (suggesting), or the findings and a verdict (auditing).
func writePin(w io.Writer, r pinReport, roots pinning.Roots, audit bool) {
	for _, l := range pinning.Describe(r.Topology, roots.Sys+" and "+roots.Proc) {
		fmt.Fprintf(w, "# %s\n", l)
	}
	prefix := "# "
	if audit {
		prefix = ""
		fmt.Fprintf(w, "\npinning server_cpus = %q, client_cpus = %q:\n", r.Server, r.Client)
	} else {
		fmt.Fprintln(w, "#")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "# %s\n", n)
		}
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "%s%s %s: %s\n", prefix, f.Level, f.Rule, f.Message)
	}
	if audit {
		if len(r.Findings) == 0 {
			fmt.Fprintln(w, "fine")
		}
		return
	}
	if r.Server == "" {
		fmt.Fprintln(w, "# no [isolation] suggested")
		return
	}
	fmt.Fprintf(w, "[isolation]\nserver_cpus = %q\n", r.Server)
	if r.Client != "" {
		fmt.Fprintf(w, "client_cpus = %q\n", r.Client)
	}
}
