# SPDX-License-Identifier: GPL-2.0
# hostperf.sh: sourced by the guest scripts that run Debian's perf from
# the host (rig/guest/demo.sh, rig/perf-tool.sh, rig/guest/profile.sh)
# and the other host clients (rig/rr.sh, rig/papi.sh);
# installed as /tests/hostperf.sh by rig/mkinitramfs.sh.
#
# hostperf_mount mounts the host's root (qemu -virtfs, tag hostroot)
# read-only at /host with the guest's proc, sys, dev and a tmpfs /tmp
# over it, and sets PERF to the perf binary to run there with chroot.
# On failure it prints why on stdout and returns 1.
#
# The tool scripts (rig/perf-tool.sh, perf-modes.sh, bpftrace.sh) also
# share their TAP output: tap_plan prints the plan for the names in
# $TESTS, result reports one test, skip_all reports every test as skipped
# with a reason and exits, fail_all reports every test as failed and
# exits. hostshare_or_skip mounts the share for the clients that need
# only it, not perf (rr.sh, papi.sh), or skips them all.
tap_plan() {
	n=0
	echo "TAP version 13"
	echo "1..$(echo $TESTS | wc -w)"
}

result() { # ok|not-ok name [comment]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2${3:+ # $3}"
	else
		echo "not ok $n $2${3:+ # $3}"
	fi
}

skip_all() {
	for t in $TESTS; do
		result ok "$t" "SKIP $1"
	done
	exit 0
}

fail_all() {
	for t in $TESTS; do
		result not-ok "$t" "$1"
	done
	exit 0
}

hostshare_or_skip() {
	# a host without perf is perf-tool.sh's concern
	hostperf_mount > /tmp/hostperf.why ||
		grep -qs ' /host 9p ' /proc/mounts ||
		skip_all "$(cat /tmp/hostperf.why)"
}

hostperf_mount() {
	grep -qs hostroot /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag ||
		{ echo "no host share (qemu -virtfs hostroot)"; return 1; }
	mkdir -p /host
	# an earlier script of the same boot may have mounted it all already
	if ! grep -qs ' /host 9p ' /proc/mounts; then
		mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose \
			hostroot /host ||
			{ echo "cannot mount the host share"; return 1; }
		mount -t proc proc /host/proc
		mount -t sysfs sysfs /host/sys
		mount -t devtmpfs devtmpfs /host/dev
		mount -t tmpfs tmpfs /host/tmp
		mount -t debugfs debugfs /host/sys/kernel/debug 2>/dev/null
		mount -t tracefs tracefs /host/sys/kernel/tracing 2>/dev/null
	fi
	[ -x /host/usr/bin/perf ] ||
		{ echo "no perf on the host (make setup)"; return 1; }
	export HOME=/tmp PAGER=cat
	# Debian's perf is a wrapper script picking perf_<version> of the
	# host's running kernel; the guest's kernel version differs, so call
	# the real binary directly when the wrapper would fail.
	PERF=perf
	if ! chroot /host perf version >/dev/null 2>&1; then
		for p in /host/usr/bin/perf_*; do
			[ -x "$p" ] && PERF=${p#/host}
		done
	fi
	return 0
}
