// Package manifest holds the types of run.json that collect writes and parse
// reads. It imports nothing but the standard library, so both may import it.
package runjson

// Pinning is run.json's host.pinning: a machine's CPU topology as its kernel
// tells it, and what fairbench found about the run's CPU pinning and the
// machine's CPU state before anything started. It is absent in runs written
// before it, and for SSH hosts (their topology is not read).
type Pinning struct {
	Topology Topology `json:"topology"`
	// ServerCPUs and ClientCPUs are the sets audited, as the suite gave
	// them ("" unpinned).
	ServerCPUs string `json:"server_cpus,omitempty"`
	ClientCPUs string `json:"client_cpus,omitempty"`
	// Findings are the audit's: rule "pinning" for the sets, and
	// "cpu-governor" and "cpu-boost" for the machine's state.
	Findings []PinFinding `json:"findings,omitempty"`
	// Forced is set when collect ran despite a pinning problem
	// (-force-pinning).
	Forced bool `json:"forced,omitempty"`
}

// Topology is what the kernel says of a machine's CPUs (sysfs
// devices/system/cpu, cputopology). An empty string or a nil pointer is
// "unknown": the kernel did not say, and nothing is guessed.
type Topology struct {
	// CPUs are the CPUs present, by number; those offline carry only ID.
	CPUs []CPU `json:"cpus"`
	// Online is the online CPUs as a CPU list ("0-31").
	Online string `json:"online,omitempty"`
	// Isolated is the CPUs kept from the scheduler (isolcpus=); "" none,
	// nil unknown.
	Isolated *string `json:"isolated,omitempty"`
	// SMTControl is smt/control: on, off, forceoff, notsupported or
	// notimplemented.
	SMTControl string `json:"smt_control,omitempty"`
	// Boost is "on" or "off", and BoostKnob the file it was read from,
	// relative to the sysfs root ("devices/system/cpu/cpufreq/boost" or
	// "devices/system/cpu/intel_pstate/no_turbo").
	Boost     string `json:"boost,omitempty"`
	BoostKnob string `json:"boost_knob,omitempty"`
}

// CPU is one logical CPU (a hardware thread).
type CPU struct {
	ID      int  `json:"cpu"`
	Package *int `json:"package,omitempty"` // physical_package_id
	Die     *int `json:"die,omitempty"`     // die_id
	Core    *int `json:"core,omitempty"`    // core_id, unique within its package and die
	// Siblings is the CPUs of its physical core, itself included, as a CPU
	// list (core_cpus_list, or thread_siblings_list on older kernels).
	Siblings string `json:"siblings,omitempty"`
	// L3 is the CPUs that share its level-3 cache (cache/index*/
	// shared_cpu_list): one L3 domain, a CCD on a Ryzen.
	L3 string `json:"l3,omitempty"`
	// Type is "P" or "E" on a hybrid CPU (devices/cpu_core/cpus,
	// devices/cpu_atom/cpus); "" elsewhere.
	Type string `json:"type,omitempty"`
	// Governor and Driver are cpufreq's scaling_governor and scaling_driver.
	Governor string `json:"governor,omitempty"`
	Driver   string `json:"driver,omitempty"`
}

// PinFinding is one finding of the pinning and machine-state audit, as
// parse's audit shows it again.
type PinFinding struct {
	Rule    string `json:"rule"`  // "pinning", "cpu-governor" or "cpu-boost"
	Level   string `json:"level"` // "info", "warning" or "error"
	Message string `json:"message"`
}
