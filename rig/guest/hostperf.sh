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

# Debian's perf, run in the host's root (after hostperf_mount)
hp() { chroot /host "$PERF" "$@"; }

# hp_precise NAME EVENT PERIOD WORKLOAD SECS PCT: perf record -e EVENT
# -c PERIOD of /tmp/WORKLOAD SECS (files /tmp/NAME.*): true when every
# sample is exact (0x4000, PERF_RECORD_MISC_EXACT_IP, in each header.misc
# that perf report -D prints) and at least PCT% of them are in
# rig/guest/hotspots.c's hot loops
hp_precise() {
	hp record -N -e "$2" -c "$3" -o "/tmp/$1.data" "/tmp/$4" "$5" \
		> "/tmp/$1.log" 2>&1 || return 1
	hp script -i "/tmp/$1.data" -F ip,sym > "/tmp/$1.txt" 2>/dev/null
	hp report -i "/tmp/$1.data" -D 2>/dev/null |
		grep 'PERF_RECORD_SAMPLE(' > "/tmp/$1.raw"
	total=$(grep -c . "/tmp/$1.txt")
	hot=$(grep -c 'hotspot_\(major\|minor\)' "/tmp/$1.txt")
	raw=$(grep -c . "/tmp/$1.raw")
	exact=$(grep -c '(IP, 0x[4-7][0-9a-f][0-9a-f][0-9a-f])' "/tmp/$1.raw")
	echo "# precise: $hot of $total samples in hotspot_*, $exact of $raw exact"
	[ "$total" -gt 0 ] && [ "$raw" = "$total" ] && [ "$exact" = "$raw" ] &&
		[ $((hot * 100)) -ge $((total * $6)) ]
}

# hp_mem NAME WORKLOAD SECS SYMBOL PCT LEVEL LPCT [perf mem record
# options]: perf mem record of /tmp/WORKLOAD SECS, then perf mem report
# by memory level, symbol and data symbol (files /tmp/NAME.*): true when
# of the samples of a memory access (report rows not "N/A or N/A") at
# least PCT% name the data symbol SYMBOL and, unless LEVEL is empty, at
# least LPCT% are at the level LEVEL (a pattern of the report's memory
# access column)
hp_mem() {
	_n=$1 _w=$2 _s=$3 _sym=$4 _pct=$5 _lvl=$6 _lpct=$7
	shift 7
	hp mem record "$@" -o "/tmp/$_n.data" "/tmp/$_w" "$_s" \
		> "/tmp/$_n.log" 2>&1 || return 1
	hp mem report -i "/tmp/$_n.data" --stdio \
		--sort=mem,sym,symbol_daddr > "/tmp/$_n.txt" 2>/dev/null ||
		return 1
	grep -v '^#' "/tmp/$_n.txt" | grep -v '^$' | head -4 |
		sed "s/^/# $_n: /"
	grep -v -e '^#' -e 'N/A or N/A' -e '^$' "/tmp/$_n.txt" > "/tmp/$_n.ls"
	total=$(awk 'NF > 2 { n += $2 } END { print n + 0 }' "/tmp/$_n.ls")
	array=$(grep "$_sym" "/tmp/$_n.ls" | awk '{ n += $2 } END { print n + 0 }')
	level=$total
	[ -n "$_lvl" ] && level=$(grep -E "$_lvl" "/tmp/$_n.ls" |
		awk '{ n += $2 } END { print n + 0 }')
	echo "# $_n: $array of $total samples name $_sym${_lvl:+, $level at $_lvl}"
	[ "$total" -gt 0 ] && [ $((array * 100)) -ge $((total * _pct)) ] &&
		[ $((level * 100)) -ge $((total * _lpct)) ]
}

# hp_brstack NAME EVENT PERIOD PCT: perf record -b -e EVENT -c PERIOD of
# /tmp/hotspots 1, then perf script's branch stacks (files /tmp/NAME.*):
# true when at least PCT% of the branches are within hotspot_*. In the
# hotspot loops nearly every taken branch is a loop's back edge, from and
# to the same function.
hp_brstack() {
	hp record -N -b -e "$2" -c "$3" -o "/tmp/$1.data" /tmp/hotspots 1 \
		> "/tmp/$1.log" 2>&1
	_rc=$?
	hp script -i "/tmp/$1.data" -F brstacksym 2>/dev/null | tr ' ' '\n' |
		grep / > "/tmp/$1.txt"
	_total=$(wc -l < "/tmp/$1.txt")
	_loop=$(grep -c '^hotspot_\(major\|minor\)+0x[0-9a-f]*/hotspot_\(major\|minor\)+' "/tmp/$1.txt")
	echo "# $1: exit $_rc, $_loop of $_total branches within hotspot_*"
	if [ $_rc = 0 ] && [ "$_total" -gt 0 ] &&
		[ $((_loop * 100)) -ge $((_total * $4)) ]; then
		return 0
	fi
	tail -3 "/tmp/$1.log" | sed 's/^/# /'
	head -5 "/tmp/$1.txt" | sed 's/^/# /'
	return 1
}
