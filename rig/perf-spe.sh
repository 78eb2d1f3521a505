#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-spe.sh: Debian's arm64 perf tool records Arm SPE through upstream's
# arm_spe_pmu driver on the guest kernel, and decodes it with its own SPE
# decoder.  Runs inside the arm64 guest's spe boot (rig/qemu.sh MODE spe,
# list line "tool ... tool/perf-spe"), TAP, collected as
# tool/perf-spe/<test>.
#
# Debian's linux-perf for arm64 and its libraries are unpacked on the
# host into $KPERF_CACHE/perf-arm64/root (rig/perf-arm64.sh, run by make
# setup) and shared read-only over 9p (tag perfarm64); perf runs chrooted
# there with the guest's proc, sys, dev and a tmpfs /tmp mounted over it.
# The workload is rig/guest/spework.c: a loop of 64 loads and 64 stores
# at known offsets of one array.
#
# Tests: record (perf record -e arm_spe/jitter=0,ts_enable=0/u wrote AUX
# data), script (perf script decodes samples, and every sample in the
# loop has the data address its instruction accesses), report (perf
# report --mem-mode names the loop and the array, from a second
# recording with timestamps).  A "digest" line sums
# up the loop's decoded samples (PC and data address, in order) so that
# the runs on both kernels can be compared.
TESTS="record script report"
. /tests/hostperf.sh
tap_plan
[ -x /tests/tool/spework ] || fail_all "no workload in this initramfs"
grep -qs perfarm64 /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag ||
	fail_all "no perfarm64 share (rig/qemu.sh MODE spe)"
R=/perfroot
mkdir -p $R
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose perfarm64 $R ||
	fail_all "cannot mount the perfarm64 share"
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mount -t tmpfs tmpfs $R/tmp
export HOME=/tmp PAGER=cat
cp /tests/tool/spework $R/tmp/spework
# the workload's user operations before the loop must not depend on
# where the kernel put its stack: the samples are compared across boots
aslr=$(cat /proc/sys/kernel/randomize_va_space)
echo 0 > /proc/sys/kernel/randomize_va_space
# hw_spe loads the driver earlier in this boot; load it if it did not
if ! ls -d /sys/bus/event_source/devices/arm_spe* > /dev/null 2>&1; then
	insmod /tests/modules/arm_spe_pmu.ko 2>&1 | sed 's/^/# insmod: /'
fi
hp() { chroot $R /usr/bin/perf "$@"; }
echo "# perf: $(hp version 2>&1)"

# 1. record: one interval of 1024 operations, user only, no jitter or
# timestamps (the samples are then the same on every run)
hp record -e arm_spe/jitter=0,ts_enable=0/u -c 1024 -o /tmp/spe.data \
	/tmp/spework 20000 > /tmp/record.log 2>&1
rc=$?
sed 's/^/# record: /' /tmp/record.log | tail -4
# shellcheck disable=SC2046 # four words: the addresses spework printed
set -- $(sed -n 's/^loop \([0-9a-f]*\) \([0-9a-f]*\) array \([0-9a-f]*\) \([0-9a-f]*\)$/\1 \2 \3 \4/p' /tmp/record.log)
lo=$((0x${1:-0})) hi=$((0x${2:-0})) alo=$((0x${3:-0}))
if [ $rc = 0 ] && [ $hi -gt $lo ] && grep -q 'perf record: Captured' /tmp/record.log; then
	result ok record
else
	result not-ok record "perf record exit $rc"
fi

# 2. script: the decoded memory samples, ip and data address
hp script -i /tmp/spe.data -F event,addr,ip > /tmp/script.all 2> /tmp/script.err
# one "memory" event per sampled load or store (perf also synthesizes
# l1d-access and tlb-access ones for the same operations)
sed -n 's/^ *memory: *//p' /tmp/script.all > /tmp/script.txt
grep -m 12 ' 4007[89]' /tmp/script.all | sed 's/^/# X: /'
rc=$?
sed 's/^/# script: /' /tmp/script.err | tail -3
head -3 /tmp/script.txt | sed 's/^/# script: /'
total=0 inloop=0 bad=0
: > /tmp/loop.txt
while read -r a b; do
	total=$((total + 1))
	# perf script prints the data address first for -F ip,addr
	addr=$((0x$a)) ip=$((0x$b))
	[ $ip -ge $lo ] && [ $ip -lt $hi ] || continue
	inloop=$((inloop + 1))
	echo "$((ip - lo)) $((addr - alo))" >> /tmp/loop.txt
	# pair k: load at 8k reads 16k, store at 8k + 4 writes 16k + 8
	off=$((ip - lo))
	[ $off -lt 512 ] || continue
	[ $((addr - alo)) = $((off * 2)) ] && continue
	bad=$((bad + 1))
	[ $bad -le 5 ] && echo "# script: ip $b addr $a: not its instruction's"
done < /tmp/script.txt
echo "# script: $total samples, $inloop in the loop, $bad with another data address"
echo "# digest perf-spe: $inloop $(md5sum < /tmp/loop.txt | cut -d' ' -f1)"
if [ $rc = 0 ] && [ $inloop -gt 1000 ] && [ $bad = 0 ]; then
	result ok script
else
	result not-ok script "exit $rc, $inloop samples in the loop, $bad wrong"
fi

# 3. report --mem-mode: the loop and the array it touches.  Without
# CONTEXT packets (CONFIG_PID_IN_CONTEXTIDR is off in the rig's config)
# perf tells whose a sample is by its timestamp and the context switch
# records, so this recording keeps the timestamps; -d records the data
# mappings too, where perf finds the array's symbol.
hp record -d -e arm_spe/jitter=0/u -c 1024 -o /tmp/spe-ts.data \
	/tmp/spework 20000 > /tmp/record-ts.log 2>&1
hp report -i /tmp/spe-ts.data --mem-mode --stdio --sort=sym,symbol_daddr \
	> /tmp/report.txt 2>&1
rc=$?
grep -m 3 '%' /tmp/report.txt | sed 's/^/# report: /'
if [ $rc = 0 ] && grep -q 'spework_loop.*spework_array' /tmp/report.txt; then
	result ok report
else
	result not-ok report "exit $rc"
fi
echo "$aslr" > /proc/sys/kernel/randomize_va_space
