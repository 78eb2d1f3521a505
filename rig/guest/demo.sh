#!/bin/sh
# demo.sh: what `make run` shows a person. Runs inside the guest (busybox sh).
#
# 1. our example program counts software events of a small workload;
# 2. on x86_64, the host's own Debian perf tool (through a read-only 9p
#    share of the host root) runs perf stat and perf record/report.
arch=$1
echo "== $(uname -sr) on $(uname -m), $(grep -c ^processor /proc/cpuinfo) CPUs"
echo "== PMUs: $(ls /sys/bus/event_source/devices 2>/dev/null | tr '\n' ' ')"
echo
echo "== samples/perf_events/perf_count: software counters of a workload"
/tests/samples/perf_count /tests/samples/workload 2000000

. /tests/hostperf.sh
if ! hostperf_mount > /tmp/hostperf.why; then
	echo "== $(cat /tmp/hostperf.why): skipping the perf tool ($arch)"
	exit 0
fi
cp /tests/samples/workload /host/tmp/workload
echo
echo "== perf stat (Debian's perf tool, from the host)"
chroot /host "$PERF" stat -e task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions \
	/tmp/workload 3000000
echo
echo "== perf record -g, then perf report --stdio"
chroot /host "$PERF" record -F 999 -g -o /tmp/perf.data /tmp/workload 3000000 2>&1 | tail -3
chroot /host "$PERF" report -i /tmp/perf.data --stdio --no-children --sort sym 2>/dev/null \
	| grep -v '^$' | head -30
