#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rr.sh: Debian's rr (record and replay) against the guest kernel. Runs
# inside the x86_64 guest (busybox sh) as one program of `make check`
# (list line "tool ... tool/rr"), and prints TAP that rig/results.py
# collects as tool/rr/<test>.
#
# rr runs chrooted into the host's root, shared read-only over 9p, like
# perf in rig/perf-tool.sh (rig/guest/hostperf.sh mounts it). It counts
# the tracee's progress in retired conditional branches with a raw PMU
# event (0x5101c4 on Intel), user only, and stops it at a given branch
# with an overflow interrupt whose period it sets with
# PERF_EVENT_IOC_PERIOD and whose signal it receives through F_SETSIG;
# the rig's QEMU counts those branches exactly (rig/qemu patch 11).
#
# rr names the CPU's microarchitecture from CPUID family/model and
# refuses one it does not know; the rig's default guest is QEMU's TCG
# "max" CPU (family 0xf, model 0x6b: "Intel CPU type 0x60fb0 unknown"),
# so there every rr command here names one whose ticks event the rig's
# model counts, with rr's global option -A (--microarch): 'Intel
# Skylake' (0x5101c4) on GenuineIntel, 'AMD Zen' (0x5100d1) on
# AuthenticAMD (X86_PMU=amd). On a real part's identity (family 6, or
# AMD's 17H and later: rig/qemu patch 0014, the id-* boots of make
# check) rr is left to name it itself. The run without -A is shown as a
# comment (identity).
#
# rr record runs with -n, without rr's syscall buffer (its preload
# library filters syscalls with seccomp), and with -c 50000, a time
# slice of 50,000 branches, so that rr preempts the workload's threads
# at branch-count overflow interrupts many times. rr installs a seccomp
# filter in its first tracee even with -n; on a kernel without
# CONFIG_SECCOMP (the rig's configuration, rig/configs/) it runs with
# rig/guest/rr-noseccomp.c preloaded, which turns that one prctl into a
# no-op, and rr then stops the tracee at every syscall with
# PTRACE_SYSCALL instead. Nothing of the PMU's use changes.
#
# The workload is rig/guest/rrwork.c, built static on the host by
# rig/mkinitramfs.sh: two threads racing on a shared word, a pipe
# between them, SIGUSR1 from one to the other, the time, random bytes
# and its pid, all mixed into a checksum it prints.
#
# Tests: record (rr record exits 0 and the workload printed its
# checksum), replay (rr replay -a, autopilot, exits 0 and the replayed
# workload printed its checksum), same_output (the
# replay printed exactly the recording's workload lines), ps (rr ps
# lists the recorded process from the trace), preempt (rr dump shows
# SCHED events in the trace: rr preempted a thread at a branch-count
# overflow interrupt, and the replay, which passed, stopped it at the
# same branch).
#
# Without rr on the host every test is reported as skipped; any other
# failure, rr's or the kernel's, fails.
ITER=${1:-1000000}
# "icount": the guest runs under -icount (the id-* boots), where how often
# rr's time slice expires between two system calls of a thread follows
# host timing (rr reschedules at each), on either kernel: 0 SCHED in some
# runs, 19 in others. The preempt test is then skipped; the check boot
# runs it.
ICOUNT_BOOT=${2:-}
TESTS="record replay same_output ps preempt"
UARCH="Intel Skylake"
grep -qs AuthenticAMD /proc/cpuinfo && UARCH="AMD Zen"
# a real part's identity: rr knows it (no -A)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
[ "${family:-15}" != 15 ] && UARCH=
. /tests/hostperf.sh
tap_plan
hostshare_or_skip
[ -x /host/usr/bin/rr ] || skip_all "no rr on the host (apt-get install rr)"
[ -x /tests/tool/rrwork ] || fail_all "no workload in this initramfs"
cp /tests/tool/rrwork /host/tmp/rrwork
export _RR_TRACE_DIR=/tmp/rr-traces
echo "# rr: $(chroot /host rr --version 2>&1), --microarch '${UARCH:-none: rr names the CPU}'"
grep -m1 'model name' /proc/cpuinfo | sed 's/^/# cpu: /'
grep -m2 -E '^(cpu family|model)[[:space:]]*:' /proc/cpuinfo | tr -s '\t ' ' ' |
	sed 's/^/# cpu: /'

rrc() { # timeout-seconds args...: rr in the host's root
	t=$1
	shift
	# shellcheck disable=SC2086 # PRELOAD is empty or "env LD_PRELOAD=..."
	timeout "$t" chroot /host $PRELOAD rr "$@"
}

rra() { # timeout-seconds args...: rrc, naming the CPU with -A if need be
	t=$1
	shift
	if [ -n "$UARCH" ]; then
		rrc "$t" -A "$UARCH" "$@"
	else
		rrc "$t" "$@"
	fi
}

# no CONFIG_SECCOMP (no Seccomp: line in /proc/PID/status): rr with
# rig/guest/rr-noseccomp.c preloaded (see the top)
PRELOAD=
if ! grep -q '^Seccomp:' /proc/self/status; then
	if [ -f /tests/tool/rr-noseccomp.so ]; then
		cp /tests/tool/rr-noseccomp.so /host/tmp/rr-noseccomp.so
		PRELOAD="env LD_PRELOAD=/tmp/rr-noseccomp.so"
		echo "# no CONFIG_SECCOMP: rr runs with rig/guest/rr-noseccomp.c preloaded"
	else
		echo "# no CONFIG_SECCOMP and no rr-noseccomp.so: rr record will fail"
	fi
fi

# identity: what rr says of this CPU on its own (a comment, not a test)
rrc 120 record -o /tmp/rr-identity /bin/true > /tmp/identity.log 2>&1
echo "# identity: rr record /bin/true without --microarch: exit $?"
grep -v '^$' /tmp/identity.log | head -4 | sed 's/^/# identity: /'
# a real part's identity that this rr does not know (Debian 12's rr 5.6
# predates Sapphire Rapids): nothing to test, on any kernel
if [ -z "$UARCH" ] && grep -q 'CPU type .* unknown' /tmp/identity.log; then
	skip_all "rr $(chroot /host rr --version 2>&1 | sed 's/.* //') does not know this CPU"
fi
# rr's PMU checks (branch counts, overflow, IOC_PERIOD), in its debug log
RR_LOG=PerfCounters:debug rra 120 record -n -o /tmp/rr-pmu /bin/true \
	> /tmp/pmu.log 2>&1
echo "# pmu: rr record -n /bin/true with RR_LOG=PerfCounters:debug: exit $?"
grep -v -e '^$' -e 'ing counters with period' /tmp/pmu.log | cut -c1-200 |
	head -12 | sed 's/^/# pmu: /'

# 1. record
rra 400 record -n -c 50000 -o /tmp/rr-trace /tmp/rrwork "$ITER" \
	> /tmp/record.out 2> /tmp/record.err
rc=$?
grep '^rrwork:' /tmp/record.out > /tmp/record.lines
sed 's/^/# record: /' /tmp/record.lines
grep -v '^$' /tmp/record.err | tail -12 | sed 's/^/# record: /'
if [ $rc = 0 ] && grep -q '^rrwork: checksum ' /tmp/record.lines; then
	result ok record
else
	result not-ok record "rr record exit $rc"
fi

# 2. replay on autopilot: the tracee's output goes to stdout again
if [ -d /host/tmp/rr-trace ]; then
	rra 400 replay -a /tmp/rr-trace \
		> /tmp/replay.out 2> /tmp/replay.err
	rc=$?
else
	echo "no trace" > /tmp/replay.err
	: > /tmp/replay.out
	rc=none
fi
grep '^rrwork:' /tmp/replay.out > /tmp/replay.lines
sed 's/^/# replay: /' /tmp/replay.lines
grep -v '^$' /tmp/replay.err | tail -12 | sed 's/^/# replay: /'
if [ "$rc" = 0 ] && grep -q '^rrwork: checksum ' /tmp/replay.lines; then
	result ok replay
else
	result not-ok replay "rr replay -a exit $rc"
fi

# 3. the replay's output is the recording's, line for line
if [ -s /tmp/record.lines ] && cmp -s /tmp/record.lines /tmp/replay.lines; then
	result ok same_output
else
	result not-ok same_output "$(wc -l < /tmp/record.lines) recorded lines, $(wc -l < /tmp/replay.lines) replayed, differing"
fi

# 4. rr ps: the trace's processes (PID PPID EXIT CMD)
rra 120 ps /tmp/rr-trace > /tmp/ps.out 2>&1
rc=$?
sed 's/^/# ps: /' /tmp/ps.out | head -4
if [ $rc = 0 ] && grep -q 'rrwork' /tmp/ps.out; then
	result ok ps
else
	result not-ok ps "rr ps exit $rc"
fi

# 5. time-slice preemptions: rr records each as a SCHED event at the
# ticks count where the overflow interrupt stopped the thread
rra 200 dump /tmp/rr-trace > /tmp/dump.out 2>&1
rc=$?
nsched=$(grep -c 'SCHED' /tmp/dump.out)
nev=$(grep -c 'global_time:' /tmp/dump.out)
echo "# dump: exit $rc, $nev events, $nsched SCHED"
if [ "$ICOUNT_BOOT" = icount ] && [ $rc = 0 ]; then
	result ok preempt "SKIP under -icount the slices rr preempts at follow host timing"
elif [ $rc = 0 ] && [ "$nsched" -gt 0 ]; then
	result ok preempt
else
	result not-ok preempt "rr dump exit $rc, $nsched SCHED events"
	grep -v '^$' /tmp/dump.out | tail -4 | sed 's/^/# dump: /'
fi
exit 0
