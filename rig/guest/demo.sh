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

if ! grep -qs hostroot /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag; then
	echo "== no host share: skipping the perf tool ($arch)"
	exit 0
fi
mkdir -p /host
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose hostroot /host || exit 1
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
mount -t devtmpfs devtmpfs /host/dev
mount -t tmpfs tmpfs /host/tmp
mount -t debugfs debugfs /host/sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /host/sys/kernel/tracing 2>/dev/null
cp /tests/samples/workload /host/tmp/workload
export HOME=/tmp PAGER=cat
echo
echo "== perf stat (Debian's perf tool, from the host)"
chroot /host perf stat -e task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions \
	/tmp/workload 3000000
echo
echo "== perf record -g, then perf report --stdio"
chroot /host perf record -F 999 -g -o /tmp/perf.data /tmp/workload 3000000 2>&1 | tail -3
chroot /host perf report -i /tmp/perf.data --stdio --no-children --sort sym 2>/dev/null \
	| grep -v '^$' | head -30
