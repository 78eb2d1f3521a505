#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-tool.sh: Debian's own perf tool against the guest kernel. Runs
# inside the x86_64 guest (busybox sh) as one program of `make check`
# (list line "tool ... tool/perf-tool"), and prints TAP that
# rig/results.py collects as tool/perf-tool/<test>.
#
# The host's root is shared read-only over 9p (rig/qemu.sh, tag
# hostroot), so perf runs chrooted into it with its own libraries; the
# guest's proc, sys, dev and a tmpfs /tmp are mounted over the share.
# The workload is rig/guest/hotspots.c, built static on the host by
# rig/mkinitramfs.sh: hotspot_major does three times the work of
# hotspot_minor, both called from main, frame pointers throughout.
#
# Tests: record (perf record -g wrote samples), report (perf report
# --stdio lists both functions), order (hotspot_major first,
# hotspot_minor second), script (perf script prints the samples),
# callchain (the callchains of the hot samples reach main), top (perf
# top --stdio shows hotspot_major while the workload runs), branches
# (perf stat -e branches:u,branch-misses:u,instructions:u counts branches,
# fewer than the instructions, and no misses: the rig's emulated PMU
# counts every retired branch and never mispredicts, rig/qemu patch 11),
# brstack (perf record -b: the branch stacks perf script prints are
# mostly hotspot loops' own back edges), lbr_callchain (perf record
# --call-graph lbr: the LBR call stacks of the hot samples reach main).
# precise (perf record -e instructions:upp: PEBS samples, every one with
# the exact-IP bit in its header and nearly all in the hotspot loops)
# needs PEBS (pebs in /proc/cpuinfo: the Intel model, rig/qemu patch 13)
# and is skipped without it.
# The last two need an LBR (arch_lbr in /proc/cpuinfo: the Intel model,
# rig/qemu patch 12; or a family 6 model with the model-specific LBR,
# which CPUID does not enumerate: the Skylake and Ice Lake identities,
# rig/qemu patch 15; or AMD's LbrExtV2, amd_lbr_v2: the Zen 4 identity,
# rig/qemu patch 16) and are skipped without one. LbrExtV2 has no
# call-stack mode: there lbr_callchain checks that perf record
# --call-graph lbr is refused.
#
# Without a host share or without perf on the host every test is
# reported as skipped, never failed.
SECS=${1:-5}
TESTS="record report order script callchain top branches precise brstack lbr_callchain"
# result, skip_all and the host share's mount (rig/guest/hostperf.sh)
. /tests/hostperf.sh
tap_plan
[ -x /tests/tool/hotspots ] || skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
cp /tests/tool/hotspots /host/tmp/hotspots
echo "# perf: $(chroot /host "$PERF" version 2>&1)"


# 1. perf record -g on cpu-clock at a fixed frequency: a software event,
# the same on every kernel whatever its x86 PMU driver (and without
# -icount the emulated PMU's cycles follow the virtual clock anyway).
hp record -N -e cpu-clock -F 999 -g -o /tmp/perf.data /tmp/hotspots "$SECS" \
	> /tmp/record.log 2>&1
rc=$?
sed 's/^/# record: /' /tmp/record.log | tail -3
nsamples=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/record.log | tail -1)
if [ $rc = 0 ] && [ "${nsamples:-0}" -gt 0 ]; then
	result ok record
else
	result not-ok record "exit $rc, ${nsamples:-no} samples"
fi

# 2, 3. perf report: the two functions, in that order, on top
hp report -i /tmp/perf.data --stdio --no-children --sort sym -g none \
	2>/dev/null | grep '%' | grep -v '^#' > /tmp/report.txt
sed 's/^/# report: /' /tmp/report.txt | head -6
first=$(sed -n '1s/.*\] //p' /tmp/report.txt | tr -d ' ')
second=$(sed -n '2s/.*\] //p' /tmp/report.txt | tr -d ' ')
if grep -q hotspot_major /tmp/report.txt && grep -q hotspot_minor /tmp/report.txt; then
	result ok report
else
	result not-ok report "hot functions missing from perf report"
fi
if [ "$first" = hotspot_major ] && [ "$second" = hotspot_minor ]; then
	result ok order
else
	result not-ok order "top two are '$first', '$second'"
fi

# 4, 5. perf script: samples with callchains; the hot ones reach main
hp script -i /tmp/perf.data -F comm,ip,sym > /tmp/script.txt 2>/dev/null
rc=$?
if [ $rc = 0 ] && grep -q hotspot_ /tmp/script.txt; then
	result ok script
else
	result not-ok script "exit $rc, no hot samples in perf script"
fi
# blocks are separated by blank lines: count the hot ones, and those of
# them whose callchain has main
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(awk '
	/^$/ { if (hot) { nhot++; if (m) nmain++ } hot = 0; m = 0; next }
	/hotspot_(major|minor)/ { hot = 1 }
	/[ \t]main$/ || / main\+/ { m = 1 }
	END { if (hot) { nhot++; if (m) nmain++ } print nhot + 0, nmain + 0 }
' /tmp/script.txt)
echo "# callchain: $2 of $1 hot samples reach main"
# a sample taken in a prologue, before the frame is set up, skips its
# caller: allow a few percent of those
if [ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 90)) ]; then
	result ok callchain
else
	result not-ok callchain "$2 of $1 hot samples have main in the callchain"
	grep -B1 -A4 hotspot_ /tmp/script.txt | head -12 | sed 's/^/# /'
fi

# 6. perf top --stdio for a few seconds while the workload runs
chroot /host /tmp/hotspots $((SECS + 8)) &
wl=$!
sleep 1
timeout -s INT 8 chroot /host "$PERF" top --stdio -e cpu-clock -F 999 -d 2 -K \
	> /tmp/top.txt 2>&1
kill $wl 2>/dev/null
wait $wl 2>/dev/null
grep hotspot_ /tmp/top.txt | head -4 | sed 's/^/# top: /'
if grep -q hotspot_major /tmp/top.txt; then
	result ok top
else
	result not-ok top "hotspot_major not in perf top output"
	tail -5 /tmp/top.txt | sed 's/^/# /'
fi

# 7. perf stat of the branch events (-x, : value,unit,event,...): a
# "<not supported>" value, no branches or any miss fails
hp stat -x, -e branches:u,branch-misses:u,instructions:u /tmp/hotspots 1 \
	> /dev/null 2> /tmp/stat.txt
sed 's/^/# stat: /' /tmp/stat.txt | tail -3
br=$(sed -n 's/^\([0-9]*\),[^,]*,branches:u,.*/\1/p' /tmp/stat.txt)
miss=$(sed -n 's/^\([0-9]*\),[^,]*,branch-misses:u,.*/\1/p' /tmp/stat.txt)
ins=$(sed -n 's/^\([0-9]*\),[^,]*,instructions:u,.*/\1/p' /tmp/stat.txt)
if [ -n "$br" ] && [ -n "$miss" ] && [ -n "$ins" ] && [ "$br" -gt 0 ] &&
   [ "$br" -lt "$ins" ] && [ "$miss" = 0 ]; then
	result ok branches
else
	result not-ok branches "branches '$br', misses '$miss', instructions '$ins'"
fi

# 8. perf record -e instructions:upp: precise samples (PEBS). perf
# report -D prints each sample's header.misc, in which 0x4000 is
# PERF_RECORD_MISC_EXACT_IP; perf script the symbol of each IP.
precise() {
	hp_precise pebs instructions:upp 100003 hotspots 1 90
}
if ! grep -q ' pebs' /proc/cpuinfo; then
	result ok precise "SKIP no PEBS on this CPU"
elif precise; then
	result ok precise
else
	result not-ok precise "see the counts above"
	tail -3 /tmp/pebs.log | sed 's/^/# /'
	head -3 /tmp/pebs.raw | sed 's/^/# /'
fi

# the family 6 models of LBR_FMT 3 to 5 (SDM), as perf_test.h's
# cpu_has_lbr()
legacy_lbr() {
	grep -q '^vendor_id.*GenuineIntel' /proc/cpuinfo &&
		grep -q '^cpu family[[:space:]]*: 6$' /proc/cpuinfo &&
		grep -q ' pdcm' /proc/cpuinfo || return 1
	model=$(sed -n 's/^model[[:space:]]*: \([0-9]*\)$/\1/p' /proc/cpuinfo |
		head -1)
	case " 42 45 58 62 60 63 69 70 61 71 79 86 78 94 85 142 158 165 166 106 108 125 126 140 141 167 " in
	*" $model "*) return 0 ;;
	esac
	return 1
}

# AMD's LbrExtV2: a branch stack, no call-stack mode
amd_lbr=0
grep -q ' amd_lbr_v2' /proc/cpuinfo && ! grep -q ' arch_lbr' /proc/cpuinfo &&
	amd_lbr=1
if ! grep -q ' arch_lbr' /proc/cpuinfo && ! legacy_lbr && [ $amd_lbr = 0 ]; then
	result ok brstack "SKIP no LBR on this CPU"
	result ok lbr_callchain "SKIP no LBR on this CPU"
	exit 0
fi

# 9. perf record -b: the taken branches before each sample
if hp_brstack brstack instructions:u 100003 90; then
	result ok brstack
else
	result not-ok brstack "see the counts above"
fi

# 10. perf record --call-graph lbr: callchains from the LBR call stack;
# refused where the LBR has no call-stack mode (AMD's LbrExtV2, the
# LBR_FMT 3 of Sandy and Ivy Bridge)
no_cs=$amd_lbr
legacy_lbr && case " 42 45 58 62 " in *" $model "*) no_cs=1 ;; esac
if [ $no_cs = 1 ]; then
	hp record -N --call-graph lbr -e instructions:u -c 100003 \
		-o /tmp/lbr.data /tmp/hotspots 1 > /tmp/lbr.log 2>&1
	rc=$?
	echo "# lbr_callchain: no call-stack mode, perf record --call-graph lbr exit $rc"
	if [ $rc != 0 ]; then
		result ok lbr_callchain "refused: the LBR has no call-stack mode"
	else
		result not-ok lbr_callchain "the LBR has no call-stack mode, yet perf record --call-graph lbr succeeded"
	fi
	tail -3 /tmp/lbr.log | sed 's/^/# /'
	exit 0
fi
hp record -N --call-graph lbr -e instructions:u -c 100003 -o /tmp/lbr.data \
	/tmp/hotspots 1 > /tmp/lbr.log 2>&1
rc=$?
hp script -i /tmp/lbr.data -F comm,ip,sym > /tmp/lbr.txt 2>/dev/null
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(awk '
	/^$/ { if (hot) { nhot++; if (m) nmain++ } hot = 0; m = 0; next }
	/hotspot_(major|minor)/ { hot = 1 }
	/[ \t]main$/ || / main\+/ { m = 1 }
	END { if (hot) { nhot++; if (m) nmain++ } print nhot + 0, nmain + 0 }
' /tmp/lbr.txt)
echo "# lbr_callchain: exit $rc, $2 of $1 hot samples reach main"
if [ $rc = 0 ] && [ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 90)) ]; then
	result ok lbr_callchain
else
	result not-ok lbr_callchain "exit $rc, $2 of $1 hot samples reach main"
	tail -3 /tmp/lbr.log | sed 's/^/# /'
	head -12 /tmp/lbr.txt | sed 's/^/# /'
fi
exit 0
