#!/bin/bash
# check.sh: build, boot and test one variant on one or more arches.
#
# Usage: rig/check.sh VARIANT "ARCHES" DEBUG [MODE]
#
# For each arch: build the kernel, build the initramfs, run the ABI check
# (ours only: it compares our uapi header with the base tree's), boot the
# guest (on x86_64 three times: the hardware-counter suites boot again
# under -icount, and once more on each real part's identity
# (X86_IDENTITIES); on arm64 five times: the heterogeneous-PMU suite boots
# again on a device tree with two CPU PMUs, the ACPI suite on UEFI
# firmware, KVM's vPMU selftest at EL2, and the SPE suite on the rig's
# QEMU model of FEAT_SPE (SPE_QEMU); on both, the lockdown suite
# boots with lockdown=confidentiality and the SELinux suite with SELinux
# on; see rig/mkinitramfs.sh), and turn its logs
# into
# build/VARIANT-ARCH/results.tsv. Prints how long each stage took, one
# summary per arch (and one for the emulated x86 PMU's own suite,
# rig/qemu/test.sh, when x86_64 is one of them), and a last line "N passed, N failed, N skipped" over all of them. Exit
# status non-zero on any failure, build failure, guest crash, hang or
# kernel splat.
source "$(dirname "$0")/lib.sh"

VARIANT=$1 ARCHES=$2 DEBUG=${3:-0} MODE=${4:-check}
BASE=$(base_tree)
log "base tree: $(base_describe "$BASE")"

stage() { # name command...
	local name=$1 t0=$SECONDS rc=0
	shift
	"$@" || rc=$?
	printf '[rig] stage %-28s %4ds%s\n' "$name" $((SECONDS - t0)) \
		"$([ $rc = 0 ] || echo "  (exit $rc)")" >&2
	return $rc
}

# The real parts' identities whose emulated PMU the x86_64 hardware suites
# boot once more on (rig/qemu.sh MODE id-<name>): every one in a plain
# check, none in a DEBUG=1 one (the debug kernel's boots are slow and the
# identities test the drivers' model paths, not the core's locking).
# IDENTITIES='...' chooses others, IDENTITIES= none.
if [ "$MODE" = check ] && [ "$DEBUG" != 1 ]; then
	X86_IDENTITIES=${IDENTITIES-ivybridge broadwell skylake icelake sapphirerapids zen3 zen4}
else
	X86_IDENTITIES=${IDENTITIES-}
fi
export X86_IDENTITIES

summaries=()
total_fail=0
for ARCH in $ARCHES; do
	arch_setup "$ARCH"
	O=$(variant_dir "$VARIANT" "$ARCH" "$DEBUG")
	mkdir -p "$O"
	rm -f "$O/results.tsv" "$O/abi-tap.log" "$O/exports-tap.log"
	# SKIP_KERNEL=1 reuses the kernel already built (to iterate on tests)
	if [ "${SKIP_KERNEL:-0}" = 1 ] && [ -f "$O/$IMAGE" ]; then
		log "SKIP_KERNEL=1: reusing $O/$IMAGE"
	elif ! stage "kernel $VARIANT-$ARCH" "$RIG/build-kernel.sh" "$VARIANT" "$ARCH" "$DEBUG"; then
		printf 'build/kernel\tfail\tthe kernel did not build\n' > "$O/results.tsv"
		summaries+=("$VARIANT $ARCH: 0 passed, 1 failed, 0 skipped (kernel build failed)")
		total_fail=1
		continue
	fi
	# never boot a stale initramfs: its tests are not the ones asked for
	if ! stage "initramfs $VARIANT-$ARCH" "$RIG/mkinitramfs.sh" "$VARIANT" "$ARCH" "$DEBUG"; then
		printf 'build/initramfs\tfail\tthe initramfs was not built\n' > "$O/results.tsv"
		summaries+=("$VARIANT $ARCH: 0 passed, 1 failed, 0 skipped (initramfs failed)")
		total_fail=1
		continue
	fi
	if [ "$VARIANT" = ours ] && [ -x "$RIG/abi/abi-check.sh" ]; then
		stage "abi-check $ARCH" "$RIG/abi/abi-check.sh" \
			"$REPO/include/uapi/linux/perf_event.h" \
			"$BASE/include/uapi/linux/perf_event.h" --cc "$TARGET_CC" \
			> "$O/abi-tap.log" || true
		# what upstream's perf exports to modules, ours exports
		stage "export-check $ARCH" python3 "$RIG/abi/export_check.py" \
			"$ARCH" "$O" "$BASE" "$RIG/remove.list" \
			"$RIG/abi/exports-missing.list" > "$O/exports-tap.log" || true
	fi
	# an ONLY= run may have left nothing for this boot, only for the next
	boots=()
	if [ "$MODE" != check ] || [ -s "$O/initramfs/tests/check.list" ]; then
		stage "boot+tests $VARIANT-$ARCH" "$RIG/qemu.sh" "$VARIANT" "$ARCH" "$DEBUG" "$MODE" || true
		boots+=("$MODE")
	fi
	# the hardware-counter suites that need exact counts (x86_64: the
	# emulated PMU's cycles are one per instruction only under -icount),
	# in a second boot under -icount shift=0, unless the first one had it
	# (ICOUNT=1): see rig/mkinitramfs.sh
	if [ "$MODE" = check ] && [ -s "$O/initramfs/tests/icount.list" ]; then
		stage "boot+tests $VARIANT-$ARCH icount" "$RIG/qemu.sh" "$VARIANT" "$ARCH" "$DEBUG" icount || true
		boots+=(icount)
	fi
	for id in $X86_IDENTITIES; do
		[ "$MODE" = check ] && [ -s "$O/initramfs/tests/id-$id.list" ] || continue
		stage "boot+tests $VARIANT-$ARCH $id" "$RIG/qemu.sh" "$VARIANT" "$ARCH" "$DEBUG" "id-$id" || true
		boots+=("id-$id")
	done
	# the suites that need their own boot (rig/mkinitramfs.sh): on arm64
	# a device tree with two kinds of CPU PMU, ACPI, and EL2 for KVM; on
	# both, lockdown=confidentiality and SELinux
	for extra in hetero acpi kvm spe lockdown selinux; do
		[ "$MODE" = check ] && [ -s "$O/initramfs/tests/$extra.list" ] || continue
		# the SPE suite needs a QEMU that models FEAT_SPE: the rig's
		# (rig/qemu/patches-arm64, built on first use) unless SPE_QEMU
		# names another; SPE_QEMU= (empty) leaves the boot out
		if [ "$extra" = spe ] && [ -z "${SPE_QEMU+set}" ]; then
			SPE_QEMU=$(TARGET=aarch64 "$RIG/qemu/build.sh") ||
				{ log "cannot build the rig's qemu-system-aarch64"; SPE_QEMU=; }
			export SPE_QEMU
		fi
		if [ "$extra" = spe ] && [ -z "$SPE_QEMU" ]; then
			log "SPE_QEMU empty: no spe boot (selftests/hw_spe not run)"
			continue
		fi
		stage "boot+tests $VARIANT-$ARCH $extra" "$RIG/qemu.sh" "$VARIANT" "$ARCH" "$DEBUG" $extra || true
		boots+=("$extra")
	done
	out=$(python3 "$RIG/results.py" "$O" "$VARIANT" "$ARCH" "${boots[@]}") || total_fail=1
	printf '%s\n' "$out" | sed '$d'
	summaries+=("$(printf '%s\n' "$out" | tail -1)")
done

# The rig QEMU's models have their own conformance suites, run on bare
# metal under the rig's QEMU builds: independent of the kernel, so once
# per make check that includes the arch, and not for ONLY= runs. The
# emulated x86 PMU (rig/qemu/patches) and the Statistical Profiling
# Extension (rig/qemu/patches-arm64, about 5 s once QEMU is built).
# model_suite NAME ARCH SCRIPT: run SCRIPT, whose last "N passed, M
# failed" line is the result, into NAME-tap.log of ARCH's variant.
model_suite() {
	local name=$1 arch=$2 script=$3 o log a b
	[[ " $ARCHES " == *" $arch "* ]] && [ "$MODE" = check ] && [ -z "${ONLY:-}" ] || return 0
	o=$(variant_dir "$VARIANT" "$arch" "$DEBUG")
	log=$o/$name-tap.log
	stage "$name model" "$script" > "$log" 2>&1 || true
	grep '^not ok' "$log" || true
	read -r a b <<<"$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)"
	if [ -z "$a" ]; then
		a=0 b=1
		tail -5 "$log"
	fi
	summaries+=("$name model: $a passed, $b failed, 0 skipped ($log)")
	[ "$b" = 0 ] || total_fail=1
}
model_suite qemu-pmu x86_64 "$RIG/qemu/test.sh"
model_suite qemu-spe arm64 "$RIG/qemu/spe-test.sh"

# The clean-room gate (rig/clean-room.py): none of our code or comments
# repeats upstream's perf files. Ours only, once per make check, and not
# for ONLY= runs; it reads files, so it takes a few seconds.
if [ "$VARIANT" = ours ] && [ "$MODE" = check ] && [ -z "${ONLY:-}" ]; then
	O=$(variant_dir "$VARIANT" "$(set -- $ARCHES; echo "$1")" "$DEBUG")
	if stage "clean-room" "$RIG/clean-room.sh" > "$O/clean-room.log" 2>&1; then
		summaries+=("clean-room: 1 passed, 0 failed, 0 skipped ($O/clean-room.log)")
	else
		grep -E '^not ok|error' "$O/clean-room.log" | head -40 || true
		tail -1 "$O/clean-room.log"
		summaries+=("clean-room: 0 passed, 1 failed, 0 skipped ($O/clean-room.log)")
		total_fail=1
	fi
fi

echo
echo "== summary ($VARIANT$([ "$DEBUG" = 1 ] && echo ", DEBUG=1"))"
p=0 f=0 s=0
for line in "${summaries[@]}"; do
	echo "$line"
	read -r a b c <<<"$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")"
	p=$((p + a)) f=$((f + b)) s=$((s + c))
done
echo "$p passed, $f failed, $s skipped"
[ $f = 0 ] && [ $total_fail = 0 ]
