#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trinity.sh SECONDS SEED: Debian's trinity system-call fuzzer aimed at
# perf_events, run in the guest by `make fuzz` (rig/fuzz.sh; list line
# "trinity ... trinity.sh SECONDS SEED"). Prints TAP that
# rig/results.py collects as trinity/trinity.sh/<test>.
#
# Two runs of SECONDS/2 each: as an unprivileged user (uid 65534, through
# /tests/runas: no /etc/passwd here) and as root (--dangerous: trinity
# refuses root without it). Each calls only perf_event_open, ioctl, read,
# mmap, munmap, poll and prctl; trinity's own children fork, get killed
# and exit all the time, so fork and exit with perf fds open come with
# it (trinity never calls fork, close or exit as a fuzzed syscall).
# Its fd pool is perf events plus pipes, eventfd, memfd and test files:
# not the /dev, /proc and /sys files, whose ioctls as root could take the
# console (the test output) or the guest down on any kernel.
#
# A run passes when trinity started, made syscalls and stopped on the
# SIGINT at the end of its time (busybox timeout; a KILL 30 s later if
# not). The kernel log is judged by rig/results.py like any other run.
# mkinitramfs.sh puts trinity and its libc in the initramfs only for
# make fuzz; without them both tests are skipped.
SECS=${1:-60}
SEED=${2:-1}
T=/usr/bin/trinity
n=0

echo "TAP version 13"
echo "1..2"
if [ ! -x $T ]; then
	echo "ok 1 user # SKIP no trinity in this initramfs"
	echo "ok 2 root # SKIP no trinity in this initramfs"
	exit 0
fi

half=$((SECS / 2))
[ $half -lt 5 ] && half=5
args="-q -l off --stats -N 1000000000 -C 4 -s $SEED
	--enable-fds=perf,pipes,eventfd,testfile,memfd
	-c perf_event_open -c ioctl -c read -c mmap -c munmap -c poll -c prctl"
# 64-bit entry points only: the guest kernels have no 32-bit compat
[ "$(uname -m)" = x86_64 ] && args="$args -a64"

run() { # name, command prefix (runas for the user run), extra options, delay
	name=$1 prefix=$2 extra=$3 limit=$((half + $4))
	n=$((n + 1))
	dir=/tmp/trinity-$name
	mkdir -p "$dir"
	chmod 777 "$dir"
	cd "$dir" || return
	start=$(date +%s)
	# shellcheck disable=SC2086 # word lists on purpose
	timeout -s INT -k 30 $limit $prefix $T $args $extra > "$dir/log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	cd /tmp || return
	ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$dir/log" | tail -1)
	echo "# trinity $name: seed $SEED, ${limit}s, exit $rc after ${took}s"
	grep -E 'Ran [0-9]+ syscalls|tainted|Bailing|refus' "$dir/log" | sort -u | sed 's/^/#   /'
	# --stats: per syscall, the calls, successes and failures by errno
	# (what follows its last "Ran N syscalls" line)
	awk '/Ran [0-9]+ syscalls/ { n = 0; next } { line[n++] = $0 }
	     END { for (i = 0; i < n; i++) print "#   " line[i] }' "$dir/log"
	if [ "${ran:-0}" -gt 0 ] && [ "$took" -le $((limit + 20)) ]; then
		echo "ok $n $name"
	else
		tail -15 "$dir/log" | sed 's/^/#   /'
		echo "not ok $n $name # ran ${ran:-no} syscalls, stopped after ${took}s of ${limit}s"
	fi
}

run user "/tests/runas 65534" "" 0
# as root trinity counts down 10 s before it starts, whatever the options
run root "" --dangerous 10
exit 0
