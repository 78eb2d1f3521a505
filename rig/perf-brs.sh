#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-brs.sh: Debian's perf tool on AMD Branch Sampling
# (arch/x86/events/amd/brs.c), in the boot of the identity whose model has
# it (zen3; rig/qemu patch 22; list line "tool ... tool/perf-brs", results
# tool/perf-brs/<test>), run from the host's root as rig/perf-tool.sh
# does.
#
# Tests: brstack (perf record -b -e cpu/branch-brs/u, as perf's
# documentation has it for Zen 3: nearly every branch perf script prints
# lies within rig/guest/hotspots.c's hot loops), default (perf record -b
# with perf's default event, cycles, which BRS cannot sample: refused on
# both kernels, as on a real Zen 3).
#
# Without BRS ("brs" in /proc/cpuinfo), a host share or perf on the host
# every test is reported as skipped.
TESTS="brstack default"
. /tests/hostperf.sh
tap_plan
grep -q ' brs' /proc/cpuinfo || skip_all "no Branch Sampling on this CPU"
[ -x /tests/tool/hotspots ] || skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
cp /tests/tool/hotspots /host/tmp/
echo "# perf: $(chroot /host "$PERF" version 2>&1)"

# 1. perf record -b with the event BRS samples with
if hp_brstack brstack cpu/branch-brs/u 100003 90; then
	result ok brstack
else
	result not-ok brstack "see the counts above"
fi

# 2. perf record -b of cycles: BRS cannot give those samples a stack
if hp record -N -b -e cycles:u -c 100003 -o /tmp/brsdef.data \
	/tmp/hotspots 1 > /tmp/brsdef.log 2>&1; then
	result not-ok default "perf record -b -e cycles:u succeeded"
else
	result ok default
fi
