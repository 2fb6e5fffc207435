package runjson

// Interference is what ran on a measurement's CPUs during its window
// besides fairbench's own work, from /proc/stat read just before and just
// after the window on the server's and the client's machines (an SSH host's
// through ssh). It is absent in runs written before it.
type Interference struct {
	// WindowS is the wall-clock time between the two reads of /proc/stat.
	WindowS float64 `json:"window_s"`
	// Server and Client are the server's and the load tool's CPU sets.
	// Without pinning each is the whole of its machine (the same one, and
	// the same numbers, when server and client share it).
	Server *CPUSetLoad `json:"server,omitempty"`
	Client *CPUSetLoad `json:"client,omitempty"`
}

// CPUSetLoad is the CPU time one set of CPUs spent during a window, in
// seconds summed over its CPUs.
type CPUSetLoad struct {
	// CPUs is the set as a CPU list (taskset -c); "" is the whole machine.
	CPUs string `json:"cpus,omitempty"`
	// CapacityS is what the set could spend: its CPUs × the window (the sum
	// of every kind of time /proc/stat counts, idle included).
	CapacityS float64 `json:"capacity_s"`
	// BusyS is user + nice + system time: processes.
	BusyS float64 `json:"busy_s"`
	// OursS is the CPU time of the process groups fairbench started on the
	// set's machine that may run on the set (the target, the load tool, the
	// services) and of fairbench itself where it runs. A group not pinned
	// (services, fairbench) counts on every set of its machine, so foreign
	// load is never overstated by fairbench's own work.
	OursS float64 `json:"ours_s"`
	// ForeignS is BusyS − OursS, at least 0: other processes.
	ForeignS float64 `json:"foreign_s"`
	// IRQS, SoftIRQS and StealS are kept apart from BusyS: hardware
	// interrupts, softirqs (loopback traffic lands here) and time the
	// hypervisor gave to another guest.
	IRQS     float64 `json:"irq_s"`
	SoftIRQS float64 `json:"softirq_s"`
	StealS   float64 `json:"steal_s"`
	// Missing are CPUs of the set absent from a read (offline): not counted.
	Missing []int `json:"missing,omitempty"`
}
