#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# papi.sh: PAPI (Debian's papi-tools and libpapi) against the guest
# kernel. Runs inside the x86_64 guest (busybox sh) as one program of
# `make check` (list line "tool ... tool/papi"), and prints TAP that
# rig/results.py collects as tool/papi/<test>.
#
# PAPI runs chrooted into the host's root, shared read-only over 9p,
# like perf in rig/perf-tool.sh (rig/guest/hostperf.sh mounts it). Its
# perf_event component asks libpfm4 what the CPU's PMU is and opens,
# with perf_event_open, the events its preset table (papi_events.csv,
# compiled into libpapi) names for that PMU.
#
# Two things of the guest stand in PAPI's way, and the script works
# around both:
#
# - PAPI 7.0 disables its perf_event component whenever
#   perf_event_paranoid is 3 (Debian's default, and the guest's), even
#   for root ("perf_event support disabled by Linux with paranoid=3"),
#   so PAPI runs at 2 (root may do at 2 all it may do at 3), and the
#   boot's value is restored at the end.
#
# - libpfm4 names the PMU from CPUID family and model, and the rig's
#   guest is QEMU's TCG "max" CPU, family 15 model 0x6b: family 15 is
#   the Pentium 4's, so libpfm4 takes the architectural PMU for a
#   Pentium 4 one ("netburst"), and PAPI encodes PAPI_TOT_INS and
#   PAPI_BR_INS as Pentium 4 ESCR/CCCR pairs (PAPI_TOT_INS is raw
#   config 0x4c00020f00039000), which mean nothing to an architectural
#   PMU: of the low 32 bits the kernel keeps, event select 0 with unit
#   mask 0x90. The upstream kernel takes that and counts nothing on a
#   general-purpose counter (papi_command_line prints 0); ours refuses
#   it with EINVAL (event select 0 is the fixed counters' pseudo
#   encoding, and unit mask 0x90 names none), so PAPI cannot add the
#   event. Either way PAPI is of no use on this CPU as it stands, and
#   libpfm4's own architectural PMU model (ix86arch) is no way out:
#   with netburst disabled or ix86arch forced, PAPI finds no default
#   PMU at all. So on GenuineIntel every PAPI command runs with
#   LIBPFM_FORCE_PMU=skl (libpfm4's Skylake), the way rig/rr.sh names
#   rr a microarchitecture: PAPI_TOT_INS is then INST_RETIRED.ANY_P
#   (0xc0), PAPI_BR_INS BR_INST_RETIRED.ALL_BRANCHES (0xc4), PAPI_BR_CN
#   BR_INST_RETIRED.CONDITIONAL (0x1c4), which the rig's QEMU counts
#   exactly (rig/qemu patch 11). The run without it is shown as
#   comments (identity). On AuthenticAMD (X86_PMU=amd) libpfm4 takes
#   family 15 for a K8 (amd64_k8_revg), whose retired instructions and
#   branches (0xc0, 0xc2) are the rig's AMD model's: PAPI runs as it
#   is, without PAPI_BR_CN, which the K8 lacks.
#
# Tests: avail (papi_avail lists PAPI_TOT_INS, PAPI_BR_INS and
# PAPI_TOT_CYC as available, and PAPI_BR_CN on Intel; what it says of
# the other branch and cycle presets is printed), component
# (papi_component_avail lists the perf_event component among the
# active ones, not disabled), count (rig/guest/papiwork.c, PAPI's
# low-level API: PAPI_TOT_INS, PAPI_BR_INS and on Intel PAPI_BR_CN,
# user domain, one event set, around an asm loop of N iterations of 4
# instructions and 1 conditional branch, for N = 1000, 2000 and 101000,
# three times each: every count is exactly N * k plus one constant per
# event, the user-mode code of PAPI_start and PAPI_stop around the loop,
# and that constant is printed; PAPI reads the counters with RDPMC from
# the mmapped page and scales each count by time_enabled / time_running,
# so this holds the page's times to upstream's too: when it fails, the
# workload runs once more with rdpmc 0, PAPI then reading with read(),
# for comparison), command_line (papi_command_line
# PAPI_TOT_INS PAPI_BR_INS exits 0, adds both and prints a nonzero
# count of each).
#
# PAPIWORK_EXTRA=n (a kernel parameter: KPERF_APPEND) adds n to the
# instructions the count test expects per iteration, to see it fail.
#
# Without the share or without papi-tools on the host every test is
# reported as skipped; any other failure, PAPI's or the kernel's, fails.
TESTS="avail component count command_line"
. /tests/hostperf.sh
tap_plan
hostshare_or_skip
[ -x /host/usr/bin/papi_avail ] ||
	skip_all "no papi-tools on the host (apt-get install papi-tools)"
[ -x /tests/tool/papiwork ] || fail_all "no workload in this initramfs"
cp /tests/tool/papiwork /host/tmp/papiwork
export HOME=/tmp
t0=$(date +%s)

pc() { # timeout-seconds program args...: a PAPI program in the host's root
	t=$1
	shift
	timeout "$t" chroot /host "$@"
}

# PAPI refuses paranoid 3, even for root (see the top)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$paranoid" -gt 2 ]; then
	echo 2 > /proc/sys/kernel/perf_event_paranoid
	trap 'echo $paranoid > /proc/sys/kernel/perf_event_paranoid' EXIT
	trap 'exit 1' INT TERM
	echo "# perf_event_paranoid $paranoid -> 2 for PAPI"
fi

# what PAPI and libpfm4 make of this CPU on their own (comments)
pc 60 papi_version 2>&1 | sed 's/^/# /'
grep -m1 'model name' /proc/cpuinfo | sed 's/^/# cpu: /'
grep -m2 -E '^(cpu family|model)[[:space:]]*:' /proc/cpuinfo | tr -s '\t ' ' ' |
	sed 's/^/# cpu: /'
pc 60 papi_component_avail 2>&1 | grep -A3 '^Name: *perf_event ' |
	grep -E 'Disabled|PMUs supported' | tr -s ' ' | sed 's/^/# identity: /'
pc 60 papi_command_line PAPI_TOT_INS PAPI_BR_INS 2>&1 |
	grep -E '^(Failed|because|Successfully|PAPI_)' | sed 's/^/# identity: /'
pc 60 env LIBPFM_VERBOSE=1 LIBPFM_DEBUG=1 papi_command_line PAPI_TOT_INS 2>&1 |
	grep -m1 '^PERF.*INSTR_RETIRED' | cut -d' ' -f1,2 |
	sed 's/^/# identity: PAPI_TOT_INS is /'

# libpfm4 would take an Intel CPU of family 15 for a Pentium 4: name it
# one whose events the rig's model counts (see the top). An AMD one of
# family 15 (X86_PMU=amd) it takes for a K8, whose events (0xc0, 0xc2)
# are right as they are; the K8 has no PAPI_BR_CN.
WORK="PAPI_TOT_INS:$((4 + ${PAPIWORK_EXTRA:-0})) PAPI_BR_INS:1"
NEED="PAPI_TOT_INS PAPI_BR_INS PAPI_TOT_CYC"
if grep -qs GenuineIntel /proc/cpuinfo; then
	WORK="$WORK PAPI_BR_CN:1"
	NEED="$NEED PAPI_BR_CN"
	export LIBPFM_FORCE_PMU=skl
	echo "# LIBPFM_FORCE_PMU=skl from here on"
fi

# 1. papi_avail: the presets PAPI can count here
pc 120 papi_avail > /tmp/avail.out 2>&1
rc=$?
grep -E '^(Vendor|Model|CPUID|Number Hardware|Fast counter)' /tmp/avail.out |
	sed 's/^/# avail: /'
avail() { # PRESET: Yes, No or nothing
	awk -v e="$1" '$1 == e { print $3; exit }' /tmp/avail.out
}
missing=
for e in PAPI_TOT_INS PAPI_BR_INS PAPI_BR_CN PAPI_BR_TKN PAPI_BR_NTK \
	PAPI_BR_MSP PAPI_BR_UCN PAPI_TOT_CYC PAPI_REF_CYC; do
	a=$(avail $e)
	echo "# avail: $e ${a:-absent}"
	case " $NEED " in
	*" $e "*) [ "$a" = Yes ] || missing="$missing $e" ;;
	esac
done
if [ $rc = 0 ] && [ -z "$missing" ]; then
	result ok avail
else
	result not-ok avail "papi_avail exit $rc, not available:${missing:- none}"
	tail -5 /tmp/avail.out | sed 's/^/# avail: /'
fi

# 2. papi_component_avail: perf_event among the active components
pc 120 papi_component_avail > /tmp/comp.out 2>&1
rc=$?
sed -n '/^Compiled-in components/,$p' /tmp/comp.out | grep -v '^ *$' |
	sed 's/^/# component: /'
active=$(sed -n '/^Active components/,$p' /tmp/comp.out |
	grep -c '^Name: *perf_event ')
# the line after the compiled-in perf_event names why it is disabled
disabled=$(sed -n '/^Compiled-in components/,/^Active components/p' \
	/tmp/comp.out | grep -A1 '^Name: *perf_event ' | grep 'Disabled')
if [ $rc = 0 ] && [ "$active" = 1 ] && [ -z "$disabled" ]; then
	result ok component
else
	result not-ok component "exit $rc, perf_event ${disabled:-not active}"
fi

# 3. exact counts through the low-level API (rig/guest/papiwork.c)
# shellcheck disable=SC2086 # WORK is a list of arguments
pc 120 /tmp/papiwork $WORK > /tmp/work.out 2>&1
rc=$?
sed 's/^/# count: /' /tmp/work.out
if [ $rc = 0 ] && grep -q '^papiwork: PASS$' /tmp/work.out; then
	result ok count
else
	result not-ok count "papiwork exit $rc"
	# a hint for whoever looks: the same with PAPI reading the counts
	# with read() instead of RDPMC from user space
	rdpmc=/sys/bus/event_source/devices/cpu/rdpmc
	if [ "$(cat $rdpmc 2>/dev/null)" = 1 ] && echo 0 > $rdpmc; then
		# shellcheck disable=SC2086 # WORK is a list of arguments
		pc 120 /tmp/papiwork $WORK 2>&1 |
			grep -E '^papiwork: (PAPI_[A-Z_]+ = N|PASS$|FAIL$)' |
			sed 's/^/# count, rdpmc 0: /'
		echo 1 > $rdpmc
	fi
fi

# 4. papi_command_line: both presets counted, nonzero
pc 120 papi_command_line PAPI_TOT_INS PAPI_BR_INS > /tmp/cl.out 2>&1
rc=$?
grep -v '^ *$' /tmp/cl.out | grep -v -e '^---' | sed 's/^/# command_line: /'
ins=$(sed -n 's/^PAPI_TOT_INS[[:space:]]*:[[:space:]]*\([0-9]*\).*/\1/p' /tmp/cl.out)
br=$(sed -n 's/^PAPI_BR_INS[[:space:]]*:[[:space:]]*\([0-9]*\).*/\1/p' /tmp/cl.out)
if [ $rc = 0 ] && [ "${ins:-0}" -gt 0 ] && [ "${br:-0}" -gt 0 ] &&
	! grep -q -i -e 'fail' -e 'not supported' /tmp/cl.out; then
	result ok command_line
else
	result not-ok command_line "exit $rc, PAPI_TOT_INS ${ins:-none}, PAPI_BR_INS ${br:-none}"
fi
echo "# $(($(date +%s) - t0)) s"
exit 0
