#!/bin/sh
# record.sh DEST: copies the files package pinning reads from this machine's
# /sys and /proc into DEST/sys and DEST/proc, so tests can read the tree
# later (go test reads testdata/vm, recorded with: ./record.sh vm).
# sysfs files report a size of 4096 whatever they hold, so each is copied
# with cat; a file that cannot be read is left out, as it is on the machine.
set -eu
dest=${1:?usage: record.sh DEST}
copy() { # copy ROOT REL
	[ -r "$1/$2" ] || return 0
	mkdir -p "$dest/$(basename "$1")/$(dirname "$2")"
	cat "$1/$2" >"$dest/$(basename "$1")/$2" 2>/dev/null || rm -f "$dest/$(basename "$1")/$2"
}
cpu=devices/system/cpu
for f in online possible present offline isolated kernel_max smt/control smt/active \
	cpufreq/boost intel_pstate/no_turbo intel_pstate/status amd_pstate/status; do
	copy /sys "$cpu/$f"
done
copy /sys devices/cpu_core/cpus
copy /sys devices/cpu_atom/cpus
for d in /sys/$cpu/cpu[0-9]*; do
	n=${d#/sys/}
	for f in online topology/physical_package_id topology/die_id topology/core_id \
		topology/core_cpus_list topology/thread_siblings_list topology/cluster_cpus_list \
		cpufreq/scaling_governor cpufreq/scaling_driver cpufreq/scaling_available_governors; do
		copy /sys "$n/$f"
	done
	for i in "$d"/cache/index*; do
		[ -d "$i" ] || continue
		for f in level type shared_cpu_list size id; do
			copy /sys "${i#/sys/}/$f"
		done
	done
done
for f in cpuinfo stat loadavg; do
	copy /proc "$f"
done
