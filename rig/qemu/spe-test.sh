#!/bin/bash
# rig/qemu/spe-test.sh: the conformance suite of the rig QEMU's Statistical
# Profiling Extension model (rig/qemu/patches-arm64, -cpu max,spe=on).
#
# Builds qemu-system-aarch64 with the model (TARGET=aarch64
# rig/qemu/build.sh: nothing to do when it is up to date) and the
# bare-metal test (rig/qemu/spetest), then boots the test on -M virt:
#
#   el1           at EL1 (no EL2), under -icount shift=0
#   el1/noicount  the same without icount: the model counts operations,
#                 not time, so every check is the same
#   el2           entered at EL2 (virtualization=on), which hands the
#                 buffer to EL1 as a kernel does (MDCR_EL2.E2PB 0b11,
#                 PMSCR_EL2 PA|PCT), under -icount shift=0
#   off           -cpu max without spe=on: no SPE at all, as Debian's
#                 QEMU (the test's semihosting command line says "off")
#
# Prints each run's TAP (tests prefixed with the run's name) and
# "N passed, N failed"; exits non-zero on any failure, and when a guest
# does not finish (TIMEOUT, default 120 s). The test exits through
# semihosting with its failure count.
source "$(dirname "$0")/../lib.sh"
source "$RIG/qemu/tap.sh"

out=$BUILD/qemu-spe
mkdir -p "$out"
qemu=$(TARGET=aarch64 "$RIG/qemu/build.sh")
make -s -C "$RIG/qemu/spetest" O="$out" >&2
timeout=${TIMEOUT:-120}

passed=0 failed=0
for run in el1 el1/noicount el2 off; do
	machine=virt,gic-version=3 accel=(-icount shift=0) cpu=max,spe=on
	semi=enable=on,arg=spetest
	[ "$run" = el2 ] && machine=$machine,virtualization=on
	[ "$run" = el1/noicount ] && accel=()
	[ "$run" = off ] && cpu=max semi=$semi,arg=off
	log="$out/spetest-${run/\//-}.log"
	rm -f "$log"
	set +e
	timeout "$timeout" "$qemu" -M "$machine" -cpu "$cpu" "${accel[@]}" \
		-m 64 -display none -nodefaults -no-reboot -semihosting-config "$semi" \
		-serial "file:$log" -kernel "$out/spetest.elf" </dev/null 2>"$log.stderr"
	rc=$?
	set -e
	echo "# $run: -M $machine -cpu $cpu${accel[*]:+ ${accel[*]}}"
	sed 's/^/# /' "$log.stderr" || true
	tap_run "$run" "$log" "$rc" 0
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
