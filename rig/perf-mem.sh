#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-mem.sh: Debian's perf mem on Intel PEBS memory sampling
# (arch/x86/events/intel/pebs_mem.c), in the boots of the identities
# whose model has it (skylake, icelake, sapphirerapids; rig/qemu patch
# 0019; list line "tool ... tool/perf-mem", results tool/perf-mem/<test>),
# run from the host's root as rig/perf-tool.sh does.
#
# Tests: loads (perf mem record -t load, which records cpu/mem-loads,
# ldlat=30/P, behind cpu/mem-loads-aux/ where sysfs has it, and perf mem
# report, whose data symbol of nearly all load samples is
# rig/guest/memwork.c's mem_array, each a load that missed the caches
# and whose weight is above 30), stores (perf mem record -t store,
# cpu/mem-stores/P, MEM_TRANS_RETIRED.STORE_SAMPLE on Sapphire Rapids:
# mem_array again, as L1 hits).
#
# Without PEBS, a host share or perf on the host every test is reported
# as skipped.
SECS=${1:-0.3}
TESTS="loads stores"
. /tests/hostperf.sh
tap_plan
grep -q ' pebs' /proc/cpuinfo || skip_all "no PEBS on this CPU"
[ -x /tests/tool/memwork ] || skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
cp /tests/tool/memwork /host/tmp/
echo "# perf: $(chroot /host "$PERF" version 2>&1)"

# 1. loads: each misses both caches of the model (DRAM, encoding 0AH).
# At least 19 in 20 samples name mem_array: the others are the
# kernel's; with PEBS counters reloaded with the sample period after each
# record, a fifth of the stores' were the NMI entry's own (intel/pebs.c
# now reloads 0, as upstream does).
if hp_mem load memwork "$SECS" mem_array 95 'RAM hit' 75 -t load; then
	result ok loads
else
	result not-ok loads "see the report above"
	tail -3 /tmp/load.log | sed 's/^/# /'
fi

# 2. stores: the store of memwork's read-modify-write finds the line
# its load brought in, an L1 hit (MEM_INST_RETIRED.ALL_STORES' status
# bit; MEM_TRANS_RETIRED.STORE_SAMPLE's data source on Sapphire Rapids)
if hp_mem store memwork "$SECS" mem_array 95 'L1.* hit' 75 -t store; then
	result ok stores
else
	result not-ok stores "see the report above"
	tail -3 /tmp/store.log | sed 's/^/# /'
fi
