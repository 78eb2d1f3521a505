#!/bin/bash
# rig/qemu/linux-smoke.sh KERNEL: boot an x86_64 kernel image (a bzImage
# the rig built, e.g. build/ref-x86_64/arch/x86/boot/bzImage or
# build/ours-x86_64/...) on the emulated PMU, Intel and AMD models, under
# -icount shift=0 and again without icount, with two vCPUs, with an
# initramfs whose /init is rig/qemu/linux/pmu-smoke.c (static, host gcc):
# counting with exclude_kernel/exclude_user, cycles, sampling and PMIs
# through the kernel's perf_events and its x86 PMU driver. Builds no
# kernel; builds QEMU if needed. Prints TAP per run ("model:" under
# icount, "model/noicount:" without) and "N passed, N failed"; exits
# non-zero on any failure, on an unchecked MSR access or a WARNING.
source "$(dirname "$0")/../lib.sh"

kernel=${1:?usage: rig/qemu/linux-smoke.sh path/to/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel"
out=$BUILD/qemu-pmu
mkdir -p "$out/smoke-root/proc"
qemu=$("$RIG/qemu/build.sh")
gcc -O1 -Wall -static -o "$out/smoke-root/init" "$RIG/qemu/linux/pmu-smoke.c"
(cd "$out/smoke-root" && find . | cpio -o -H newc --quiet) > "$out/smoke.cpio"

passed=0 failed=0
for run in intel amd intel/noicount amd/noicount; do
	model=${run%/noicount}
	case $model in
	intel) cpu=max,vendor=GenuineIntel,pmu=on ;;
	amd) cpu=max,vendor=AuthenticAMD,pmu=on ;;
	esac
	if [ "$run" = "$model" ]; then
		accel=(-icount shift=0) append=
	else
		accel=() append=" kperf_noicount"
	fi
	log="$out/smoke-${run/\//-}.log"
	rm -f "$log"
	timeout "${TIMEOUT:-300}" "$qemu" -M pc -accel tcg "${accel[@]}" \
		-cpu "$cpu" -smp 2 -m 512 -display none -nodefaults -no-reboot \
		-serial "file:$log" -kernel "$kernel" -initrd "$out/smoke.cpio" \
		-append "console=ttyS0 panic=-1$append" </dev/null || true
	echo "# $run: -cpu $cpu${accel[*]:+ ${accel[*]}}"
	grep -a 'Performance Events:' "$log" | sed 's/^/# /' || true
	grep -a -E '^(not )?ok |^#' "$log" | sed "s|^\(\(not \)\{0,1\}ok [0-9]* - \)|\1$run: |"
	p=$(grep -a -c '^ok ' "$log" || true)
	f=$(grep -a -c '^not ok ' "$log" || true)
	if grep -a -q -E 'unchecked MSR access|WARNING:|BUG:|Oops' "$log"; then
		echo "not ok - $run: the kernel log has an MSR error, WARNING, BUG or Oops"
		f=$((f + 1))
	fi
	if ! grep -a -q '^# PASS' "$log" && [ "$f" = 0 ]; then
		echo "not ok - $run: the guest did not finish"
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
