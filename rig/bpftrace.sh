#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bpftrace.sh: Debian's bpftrace against the guest kernel: BPF programs on
# perf events, as a profiler or tracer uses them. Runs inside the x86_64
# guest (busybox sh) as one program of `make check` (list line "tool ...
# tool/bpftrace"), from the host's root over 9p as perf-tool.sh does, and
# prints TAP that rig/results.py collects as tool/bpftrace/<test>.
#
# Tests (each one a probe type, and what the kernel does for it):
#   profile     profile:hz: samples of rig/guest/hotspots.c with user
#               stacks: cpu-clock events per CPU, a perf_event program,
#               bpf_get_stackid() through our callchain code; the hottest
#               stack is in hotspot_major
#   tracepoint  tracepoint:sched:sched_process_fork counts 5 forks of a
#               shell loop: a tracepoint program attached with SET_BPF
#   kprobe      kprobe: and kretprobe: on do_sys_openat2 fire as often as
#               each other for a command's opens: the kprobe PMU
#   uprobe      uprobe: on hotspot_minor of the test binary: the uprobe
#               PMU (F20)
#   software    software:page-faults:1 counts a command's page faults: a
#               software event sampling every fault
#   interval    interval:ms:100 fires 5 times and the END probe prints
#               them: a cpu-clock event on one CPU
#
# Without a host share or bpftrace on the host every test is reported as
# skipped, never failed.
TESTS="profile tracepoint kprobe uprobe software interval"
# result, skip_all and the host share's mount (rig/guest/hostperf.sh)
. /tests/hostperf.sh
tap_plan
[ -x /tests/tool/hotspots ] || skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
[ -x /host/usr/bin/bpftrace ] || skip_all "no bpftrace on the host (make setup)"
cp /tests/tool/hotspots /host/tmp/hotspots
echo "# bpftrace: $(chroot /host bpftrace --version 2>&1)"

# bpftrace SCRIPT [-c CMD]: run in the host's root, output in /tmp/bt.out
bt() {
	chroot /host timeout -s INT 120 bpftrace "$@" > /tmp/bt.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/bt.out | tail -6
	return $rc
}

# 1. a stack profile of the workload (user stacks, frame pointers); it
# must still run when bpftrace prints, which resolves symbols then. On a
# loaded host bpftrace's start (LLVM under TCG) can outlast a short
# workload, so it runs far longer than needed and is killed at the end.
echo "# profile"
chroot /host /tmp/hotspots 60 &
wl=$!
bt -e 'profile:hz:199 /pid == $1/ { @[ustack] = count(); }
	interval:s:4 { exit(); }' "$wl"
kill $wl 2>/dev/null
wait $wl 2>/dev/null
# the map prints the smallest count first: the last stack is the hottest
hot=$(awk '/^@\[/ { s = "" } { s = s $0 "\n" } /^\]: / { last = s } END { printf "%s", last }' \
	/tmp/bt.out | grep -o 'hotspot_[a-z]*' | head -1)
if [ "$hot" = hotspot_major ]; then
	result ok profile
else
	result not-ok profile "hottest stack is in '${hot:-nothing}'"
fi

# 2. a tracepoint: the forks of a shell loop
echo "# tracepoint"
echo 'for i in 1 2 3 4 5; do /bin/true; done' > /host/tmp/forks.sh
bt -e 'tracepoint:sched:sched_process_fork /pid == cpid/ { @forks = count(); }' \
	-c '/bin/sh /tmp/forks.sh'
forks=$(sed -n 's/^@forks: \([0-9]*\)$/\1/p' /tmp/bt.out)
if [ "${forks:-0}" = 5 ]; then
	result ok tracepoint
else
	result not-ok tracepoint "${forks:-no} forks counted, 5 made"
fi

# 3. kprobe and kretprobe on the same function, for one command
echo "# kprobe"
bt -e 'kprobe:do_sys_openat2 /pid == cpid/ { @entry = count(); }
	kretprobe:do_sys_openat2 /pid == cpid/ { @ret = count(); }' \
	-c '/bin/cat /etc/hostname /etc/passwd'
entry=$(sed -n 's/^@entry: \([0-9]*\)$/\1/p' /tmp/bt.out)
ret=$(sed -n 's/^@ret: \([0-9]*\)$/\1/p' /tmp/bt.out)
if [ "${entry:-0}" -ge 2 ] && [ "$entry" = "$ret" ]; then
	result ok kprobe "$entry opens"
else
	result not-ok kprobe "entries ${entry:-none}, returns ${ret:-none}"
fi

# 4. a uprobe on the test binary's hotspot_minor (called once per round)
echo "# uprobe"
bt -e 'uprobe:/tmp/hotspots:hotspot_minor { @calls = count(); }' \
	-c '/tmp/hotspots 1'
calls=$(sed -n 's/^@calls: \([0-9]*\)$/\1/p' /tmp/bt.out)
if [ "${calls:-0}" -gt 0 ]; then
	result ok uprobe "$calls calls"
else
	result not-ok uprobe "no hits"
fi

# 5. a software event sampling every page fault of a command
echo "# software"
bt -e 'software:page-faults:1 /pid == cpid/ { @faults = count(); }' \
	-c '/bin/ls -l /usr/lib'
faults=$(sed -n 's/^@faults: \([0-9]*\)$/\1/p' /tmp/bt.out)
if [ "${faults:-0}" -gt 10 ]; then
	result ok software "$faults faults"
else
	result not-ok software "${faults:-no} faults"
fi

# 6. interval probes, and END
echo "# interval"
bt -e 'interval:ms:100 { @ticks++; if (@ticks == 5) { exit(); } }
	END { printf("ticks %d\n", @ticks); clear(@ticks); }'
if grep -qx 'ticks 5' /tmp/bt.out; then
	result ok interval
else
	result not-ok interval "no 'ticks 5' line"
fi
exit 0
