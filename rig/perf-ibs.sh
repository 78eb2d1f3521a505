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

hp() { chroot /host "$PERF" "$@"; }

# 1. perf record -e cycles:pp: ibs_op samples (its period a multiple of
# 16). perf report -D prints each sample's header.misc, in which 0x4000
# is PERF_RECORD_MISC_EXACT_IP; perf script the symbol of each IP. IBS
# has no privilege filter: the kernel's samples count in the total.
precise() {
	hp record -N -e cycles:pp -c 100000 -o /tmp/ibs.data \
		/tmp/hotspots "$SECS" > /tmp/ibs.log 2>&1 || return 1
	hp script -i /tmp/ibs.data -F ip,sym > /tmp/ibs.txt 2>/dev/null
	hp report -i /tmp/ibs.data -D 2>/dev/null |
		grep 'PERF_RECORD_SAMPLE(' > /tmp/ibs.raw
	total=$(grep -c . /tmp/ibs.txt)
	hot=$(grep -c 'hotspot_\(major\|minor\)' /tmp/ibs.txt)
	raw=$(grep -c . /tmp/ibs.raw)
	exact=$(grep -c '(IP, 0x[4-7][0-9a-f][0-9a-f][0-9a-f])' /tmp/ibs.raw)
	echo "# precise: $hot of $total samples in hotspot_*, $exact of $raw exact"
	[ "$total" -gt 0 ] && [ "$raw" = "$total" ] && [ "$exact" = "$raw" ] &&
		[ $((hot * 100)) -ge $((total * 80)) ]
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
	hp mem record -o /tmp/mem.data /tmp/ibswork "$SECS" \
		> /tmp/mem.log 2>&1 || return 1
	hp mem report -i /tmp/mem.data --stdio --sort=mem,sym,symbol_daddr \
		> /tmp/mem.txt 2>/dev/null || return 1
	grep -v '^#' /tmp/mem.txt | grep -v '^$' | head -5 | sed 's/^/# mem: /'
	grep -v -e '^#' -e 'N/A or N/A' /tmp/mem.txt > /tmp/mem.ls
	total=$(awk 'NF > 2 { n += $2 } END { print n + 0 }' /tmp/mem.ls)
	array=$(grep 'ibs_array' /tmp/mem.ls | awk '{ n += $2 } END { print n + 0 }')
	echo "# mem: $array of $total load and store samples name ibs_array"
	[ "$total" -gt 0 ] && [ $((array * 4)) -ge $((total * 3)) ]
}
if mem; then
	result ok mem
else
	result not-ok mem "see the report above"
	tail -3 /tmp/mem.log | sed 's/^/# /'
fi
