#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-ibs.sh: Debian's perf tool on AMD IBS (arch/x86/events/amd/ibs.c),
# in the boots of the identities whose model has IBS (zen3, zen4; rig/qemu
# patch 17; list line "tool ... tool/perf-ibs", results
# tool/perf-ibs/<test>), run from the host's root as rig/perf-tool.sh
# does.
#
# Tests: precise (perf record -e cycles:pp, which the core PMU hands to
# ibs_op: every sample has the exact-IP bit in its header, and nearly all
# are in rig/guest/hotspots.c's hot loops), mem (perf mem record, which
# on AMD records ibs_op// in frequency mode, and perf mem report, whose
# data symbol of nearly all loads and stores is rig/guest/ibswork.c's
# ibs_array).
#
# Without IBS ("ibs" in /proc/cpuinfo), a host share or perf on the host
# every test is reported as skipped.
SECS=${1:-0.3}
TESTS="precise mem"
. /tests/hostperf.sh
tap_plan
grep -q ' ibs' /proc/cpuinfo || skip_all "no IBS on this CPU"
[ -x /tests/tool/hotspots ] && [ -x /tests/tool/ibswork ] ||
	skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
cp /tests/tool/hotspots /tests/tool/ibswork /host/tmp/
echo "# perf: $(chroot /host "$PERF" version 2>&1)"

# 1. perf record -e cycles:pp: ibs_op samples (its period a multiple of
# 16). perf report -D prints each sample's header.misc, in which 0x4000
# is PERF_RECORD_MISC_EXACT_IP; perf script the symbol of each IP. IBS
# has no privilege filter: the kernel's samples count in the total.
precise() {
	hp_precise ibs cycles:pp 100000 hotspots "$SECS" 80
}
if precise; then
	result ok precise
else
	result not-ok precise "see the counts above"
	tail -3 /tmp/ibs.log | sed 's/^/# /'
	head -3 /tmp/ibs.raw | sed 's/^/# /'
fi

# 2. perf mem record / report: ibs_array is the data symbol of at least
# 3 in 4 samples of a load or store (report rows whose memory access is
# not "N/A"; each offset of the array is a row of its own)
mem() {
	hp_mem mem ibswork "$SECS" ibs_array 75 "" 0
}
if mem; then
	result ok mem
else
	result not-ok mem "see the report above"
	tail -3 /tmp/mem.log | sed 's/^/# /'
fi
