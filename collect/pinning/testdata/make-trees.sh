#!/bin/sh
# make-trees.sh: writes the two machines the pinning tests read, laid out as
# the kernel documents sysfs (Documentation/ABI/stable/sysfs-devices-system-cpu,
# Documentation/ABI/testing/sysfs-devices-system-cpu, admin-guide/cputopology):
#   ryzen-16c32t   AMD Ryzen 9 5950X: 16 cores, 32 threads; the second thread
#                  of core n is CPU n+16; two CCDs, each with its own 32 MiB L3
#                  (cores 0-7 and 8-15); acpi-cpufreq, schedutil, boost on.
#   intel-hybrid   Intel Core i9-12900K: 8 P-cores with SMT (CPUs 0-15, the
#                  threads of a P-core numbered next to each other) and 8
#                  E-cores without (CPUs 16-23, L2 shared by clusters of
#                  four); one 30 MiB L3; intel_pstate, powersave, turbo on.
# Run it from testdata/ to write them again.
set -eu
put() { # put FILE VALUE
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}
cache() { # cache CPUDIR INDEX LEVEL TYPE SIZE SHARED
	put "$1/cache/index$2/level" "$3"
	put "$1/cache/index$2/type" "$4"
	put "$1/cache/index$2/size" "$5"
	put "$1/cache/index$2/shared_cpu_list" "$6"
}
machine() { # machine DIR ONLINE SMT
	rm -rf "$1"
	cpu=$1/sys/devices/system/cpu
	for f in online possible present; do put "$cpu/$f" "$2"; done
	put "$cpu/offline" ""
	put "$cpu/isolated" ""
	put "$cpu/kernel_max" 8191
	put "$cpu/smt/control" "$3"
	put "$cpu/smt/active" 1
	: >"$1/cpuinfo.tmp"
}
topology() { # topology DIR N CORE SIBLINGS
	d=$1/sys/devices/system/cpu/cpu$2
	put "$d/topology/physical_package_id" 0
	put "$d/topology/die_id" 0
	put "$d/topology/core_id" "$3"
	put "$d/topology/core_cpus_list" "$4"
	put "$d/topology/thread_siblings_list" "$4"
	printf 'processor\t: %s\nmodel name\t: %s\nphysical id\t: 0\ncore id\t\t: %s\n\n' "$2" "$model" "$3" >>"$1/cpuinfo.tmp"
}
cpufreq() { # cpufreq DIR N DRIVER GOVERNOR
	d=$1/sys/devices/system/cpu/cpu$2/cpufreq
	put "$d/scaling_driver" "$3"
	put "$d/scaling_governor" "$4"
}
finish() { # finish DIR
	mkdir -p "$1/proc"
	mv "$1/cpuinfo.tmp" "$1/proc/cpuinfo"
}

r=ryzen-16c32t
model="AMD Ryzen 9 5950X 16-Core Processor"
machine $r 0-31 on
put $r/sys/devices/system/cpu/cpufreq/boost 1
for n in $(seq 0 31); do
	c=$((n % 16))
	d=$r/sys/devices/system/cpu/cpu$n
	topology $r $n $c "$c,$((c + 16))"
	cache $d 0 1 Data 32K "$c,$((c + 16))"
	cache $d 1 1 Instruction 32K "$c,$((c + 16))"
	cache $d 2 2 Unified 512K "$c,$((c + 16))"
	if [ $c -lt 8 ]; then l3=0-7,16-23; else l3=8-15,24-31; fi
	cache $d 3 3 Unified 32768K $l3
	cpufreq $r $n acpi-cpufreq schedutil
done
finish $r

i=intel-hybrid
model="12th Gen Intel(R) Core(TM) i9-12900K"
machine $i 0-23 on
put $i/sys/devices/system/cpu/intel_pstate/no_turbo 0
put $i/sys/devices/cpu_core/cpus 0-15
put $i/sys/devices/cpu_atom/cpus 16-23
for n in $(seq 0 23); do
	d=$i/sys/devices/system/cpu/cpu$n
	if [ $n -lt 16 ]; then
		c=$((n / 2 * 4))
		sib="$((n / 2 * 2))-$((n / 2 * 2 + 1))"
		l1=48K
		l2=1280K
		l2shared=$sib
	else
		c=$((n + 16))
		sib=$n
		l1=32K
		l2=2048K
		if [ $n -lt 20 ]; then l2shared=16-19; else l2shared=20-23; fi
	fi
	topology $i $n $c "$sib"
	cache $d 0 1 Data $l1 "$sib"
	cache $d 1 1 Instruction 32K "$sib"
	cache $d 2 2 Unified $l2 "$l2shared"
	cache $d 3 3 Unified 30720K 0-23
	cpufreq $i $n intel_pstate powersave
done
finish $i
