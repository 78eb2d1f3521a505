#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-modes.sh: Debian's perf tool in the modes a distribution's users
# reach for beyond record/report (perf-tool.sh has those): cgroups,
# scheduler and syscall tracing, every software event system-wide. Runs
# inside the x86_64 guest as one program of `make check` (list line "tool
# ... tool/perf-modes"), from the host's root over 9p, and prints TAP that
# rig/results.py collects as tool/perf-modes/<test>.
#
# The workload is rig/guest/hotspots.c, run inside a cgroup2 cgroup
# kperf_w (mounted at /sys/fs/cgroup if nothing is there; pids is enabled
# in the root's subtree_control first, as systemd does, so that new
# cgroups get the implicit perf_event controller).
#
# Tests:
#   stat-G         perf stat -a -G kperf_w: cpu-clock of the cgroup is the
#                  workload's CPU time (within 30%), not scaled (100%)
#   for-each       perf stat --for-each-cgroup kperf_w,kperf_idle: the busy
#                  cgroup counts, the idle one (no task) nothing
#   all-cgroups    perf record -a --all-cgroups, perf report -s cgroup: a
#                  cgroup made during the record (its CGROUP record names
#                  it) has its workload's share of the samples
#   sw-events      perf stat -a with every software event: each one counted
#                  (no "<not supported>" or "<not counted>")
#   sched          perf sched record of the workload, perf sched latency
#                  lists it
#   trace          perf trace of a short command shows its openat calls
#   probe          perf probe -x on hotspot_minor of the workload, perf
#                  record -e probe_hotspots:hotspot_minor counts its calls
#                  (uprobes: F20)
TESTS="stat-G for-each all-cgroups sw-events sched trace probe"
# result, skip_all and the host share's mount (rig/guest/hostperf.sh)
. /tests/hostperf.sh
tap_plan
[ -x /tests/tool/hotspots ] || skip_all "no workload in this initramfs"
hostperf_mount > /tmp/hostperf.why || skip_all "$(cat /tmp/hostperf.why)"
cp /tests/tool/hotspots /host/tmp/hotspots

show() { sed 's/^/#   /' "$1" | tail -"${2:-6}"; }

# the cgroup2 hierarchy, seen at /sys/fs/cgroup inside the chroot too
CG=/host/sys/fs/cgroup
[ -f $CG/cgroup.procs ] || mount -t cgroup2 none $CG
echo +pids > $CG/cgroup.subtree_control
mkdir -p $CG/kperf_w $CG/kperf_idle

# perf stat's command for the cgroup tests: the workload, for 2 seconds,
# in kperf_w. It is perf's own child, so the count covers all of it
# however long the shell and the workload take to load over 9p (a
# workload started beside a fixed sleep overran it on a loaded host).
WORKLOAD="echo \$\$ > /sys/fs/cgroup/kperf_w/cgroup.procs; exec /tmp/hotspots 2"

# 1. perf stat -G: a cgroup's CPU time, unscaled
echo "# stat-G"
hp stat -a -x, -e cpu-clock -G kperf_w -- /bin/sh -c "$WORKLOAD" \
	> /tmp/stat.txt 2>&1
show /tmp/stat.txt
# value,unit,event,cgroup,run time,run percentage,...
ms=$(awk -F, '$3 == "cpu-clock" && $4 == "kperf_w" { printf "%d", $1 }' /tmp/stat.txt)
pct=$(awk -F, '$3 == "cpu-clock" && $4 == "kperf_w" { print $6 }' /tmp/stat.txt)
if [ "${ms:-0}" -gt 1400 ] && [ "${ms:-0}" -lt 2600 ] && [ "$pct" = 100.00 ]; then
	result ok stat-G "$ms ms"
else
	result not-ok stat-G "kperf_w cpu-clock ${ms:-none} ms at ${pct:-?}%, the workload ran 2000"
fi

# 2. --for-each-cgroup: the busy one counts, the idle one does not
echo "# for-each"
hp stat -a -x, -e cpu-clock --for-each-cgroup kperf_w,kperf_idle -- \
	/bin/sh -c "$WORKLOAD" > /tmp/each.txt 2>&1
show /tmp/each.txt
busy=$(awk -F, '$3 == "cpu-clock" && $4 == "kperf_w" { printf "%d", $1 }' /tmp/each.txt)
idle=$(awk -F, '$3 == "cpu-clock" && $4 == "kperf_idle" { printf "%d", $1 }' /tmp/each.txt)
if [ "${busy:-0}" -gt 1400 ] && [ -n "$idle" ] && [ "$idle" -lt 50 ]; then
	result ok for-each "kperf_w $busy ms, kperf_idle $idle ms"
else
	result not-ok for-each "kperf_w ${busy:-none} ms, kperf_idle ${idle:-none} ms"
fi

# 3. perf record --all-cgroups: the samples name their cgroup.  perf
# names cgroups made before the record from the cgroup mount it finds,
# which it cannot see from inside the chroot; one made during the record
# is named by its PERF_RECORD_CGROUP: the workload makes kperf_r first.
echo "# all-cgroups"
# perf's own command makes it, once perf's events are open, however
# long perf takes to start (a workload started beside a fixed sleep made
# the cgroup before perf was recording on a loaded host)
rmdir $CG/kperf_r 2>/dev/null
hp record -a --all-cgroups -e cpu-clock -F 499 -o /tmp/cg.data -- \
	/bin/sh -c "mkdir /sys/fs/cgroup/kperf_r;
	echo \$\$ > /sys/fs/cgroup/kperf_r/cgroup.procs; exec /tmp/hotspots 2" \
	> /tmp/cgrec.txt 2>&1
hp report -i /tmp/cg.data --stdio -s cgroup 2>/dev/null | grep '%' |
	grep -v '^#' > /tmp/cgrep.txt
show /tmp/cgrep.txt
# the workload's 2 s of the 2 CPUs' 2 s (cpu-clock samples idle too)
pct=$(awk '$2 == "/kperf_r" { sub(/%/, "", $1); printf "%d", $1 }' /tmp/cgrep.txt)
if [ "${pct:-0}" -ge 20 ]; then
	result ok all-cgroups "/kperf_r has $pct%"
else
	result not-ok all-cgroups "/kperf_r has ${pct:-no}% of the samples"
	show /tmp/cgrec.txt 3
fi

# 4. every software event, system-wide
echo "# sw-events"
SW=cpu-clock,task-clock,page-faults,minor-faults,major-faults,context-switches
SW=$SW,cpu-migrations,alignment-faults,emulation-faults,dummy,bpf-output
SW=$SW,cgroup-switches
hp stat -a -x, -e $SW -- /tmp/hotspots 1 > /tmp/sw.txt 2>&1
show /tmp/sw.txt 14
lines=$(grep -c ',' /tmp/sw.txt)
bad=$(grep -c 'not supported\|not counted' /tmp/sw.txt)
if [ "$lines" -ge 12 ] && [ "$bad" = 0 ]; then
	result ok sw-events
else
	result not-ok sw-events "$lines lines, $bad not counted"
fi

# 5. perf sched record and latency
echo "# sched"
hp sched record -o /tmp/sched.data -- /tmp/hotspots 1 > /tmp/schedrec.txt 2>&1
hp sched latency -i /tmp/sched.data > /tmp/schedlat.txt 2>&1
show /tmp/schedlat.txt 8
if grep -q 'hotspots' /tmp/schedlat.txt; then
	result ok sched
else
	result not-ok sched "hotspots not in perf sched latency"
	show /tmp/schedrec.txt 3
fi

# 6. perf trace of a short command
echo "# trace"
hp trace -- /bin/cat /etc/hostname > /tmp/trace.txt 2>&1
show /tmp/trace.txt 4
if grep -q 'openat(' /tmp/trace.txt; then
	result ok trace
else
	result not-ok trace "no openat in perf trace"
fi

# 7. perf probe -x: a uprobe on the workload, counted by perf record
echo "# probe"
hp probe -x /tmp/hotspots hotspot_minor > /tmp/probe.txt 2>&1
hp record -e probe_hotspots:hotspot_minor -o /tmp/probe.data -- /tmp/hotspots 1 \
	> /tmp/proberec.txt 2>&1
hits=$(hp report -i /tmp/probe.data --stdio 2>/dev/null |
	sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -1)
hp probe -d 'probe_hotspots:*' > /dev/null 2>&1
if [ "${hits:-0}" -gt 0 ]; then
	result ok probe "$hits hits"
else
	result not-ok probe "no probe hits"
	show /tmp/probe.txt 2
fi
exit 0
