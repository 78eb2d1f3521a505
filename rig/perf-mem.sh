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
# cpu/mem-stores/P: mem_array again; not on Sapphire Rapids, whose
# mem-stores, MEM_TRANS_RETIRED.STORE_SAMPLE, the model does not count).
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

hp() { chroot /host "$PERF" "$@"; }

# perf mem record -t $1, then perf mem report by memory level, symbol
# and data symbol: at least 19 in 20 samples (report rows whose memory
# access is not "N/A") name mem_array, and at least 3 in 4 are at the
# level $2 (a pattern of the report's "Memory access" column). The
# samples that do not are the kernel's: with the counters' reload after
# each record left at the sample period, a fifth of the stores' were the
# NMI entry's own (intel/pebs.c now reloads 0, as upstream does).
mem() {
	hp mem record -t "$1" -o "/tmp/mem-$1.data" /tmp/memwork "$SECS" \
		> "/tmp/mem-$1.log" 2>&1 || return 1
	hp mem report -i "/tmp/mem-$1.data" --stdio \
		--sort=mem,sym,symbol_daddr > "/tmp/mem-$1.txt" 2>/dev/null ||
		return 1
	grep -v '^#' "/tmp/mem-$1.txt" | grep -v '^$' | head -4 |
		sed "s/^/# $1: /"
	grep -v -e '^#' -e 'N/A or N/A' -e '^$' "/tmp/mem-$1.txt" \
		> "/tmp/mem-$1.ls"
	total=$(awk 'NF > 2 { n += $2 } END { print n + 0 }' "/tmp/mem-$1.ls")
	array=$(grep 'mem_array' "/tmp/mem-$1.ls" |
		awk '{ n += $2 } END { print n + 0 }')
	level=$(grep -E "$2" "/tmp/mem-$1.ls" |
		awk '{ n += $2 } END { print n + 0 }')
	echo "# $1: $array of $total samples name mem_array, $level at $2"
	[ "$total" -gt 0 ] && [ $((array * 20)) -ge $((total * 19)) ] &&
		[ $((level * 4)) -ge $((total * 3)) ]
}

# 1. loads: each misses both caches of the model (DRAM, encoding 0AH)
if mem load 'RAM hit'; then
	result ok loads
else
	result not-ok loads "see the report above"
	tail -3 /tmp/mem-load.log | sed 's/^/# /'
fi

# 2. stores: the store of memwork's read-modify-write finds the line
# its load brought in, an L1 hit
if [ -e /sys/bus/event_source/devices/cpu/events/mem-loads-aux ]; then
	result ok stores "SKIP the model has no MEM_TRANS_RETIRED.STORE_SAMPLE"
elif mem store 'L1.* hit'; then
	result ok stores
else
	result not-ok stores "see the report above"
	tail -3 /tmp/mem-store.log | sed 's/^/# /'
fi
