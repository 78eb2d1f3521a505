#!/bin/bash
# mkinitramfs.sh: build the guest's initramfs for one kernel build.
#
# Usage: rig/mkinitramfs.sh VARIANT ARCH DEBUG [fuzz]
#
# Contents: /init (guest/init.c), our kselftests
# (tools/testing/selftests/perf_events/*.c), the base tree's own perf_events
# kselftests, unmodified, our sample programs (samples/perf_events/*.c),
# busybox when we have one for the arch, and the lists init runs for each
# mode. Every program is static and compiled against the uapi headers of
# the kernel build it boots with (make headers in that build).
#
# With "fuzz" (rig/fuzz.sh) it also holds Debian's trinity and the libc it
# links against (about 12 MB, so only then), and fuzz.list runs our fuzzer
# for FUZZ_SECONDS and trinity for TRINITY_SECONDS with seed TRINITY_SEED.
source "$(dirname "$0")/lib.sh"

VARIANT=$1 ARCH=$2 DEBUG=${3:-0} WITH_FUZZ=${4:-}
arch_setup "$ARCH"
BASE=$(base_tree)
O=$(variant_dir "$VARIANT" "$ARCH" "$DEBUG")
[ -d "$O/usr/include/linux" ] || die "$O has no installed headers: build the kernel first"
ROOT=$O/initramfs
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,tests/base,tests/selftests,tests/samples,proc,sys,dev,tmp}

# -I.../perf_events makes the in-tree form "../kselftest_harness.h" resolve
CFLAGS="-static -O2 -g -fno-omit-frame-pointer -Wall -pthread -I$O/usr/include -I$BASE/tools/testing/selftests/perf_events"
"$TARGET_CC" -static -O2 -Wall -o "$ROOT/init" "$RIG/guest/init.c"

# compile SRC into DIR; a program that fails to compile becomes a failing
# entry in the list rather than silently vanishing
build_prog() { # suite dir src extra-cflags...
	local suite=$1 dir=$2 src=$3 name
	shift 3
	name=$(basename "$src" .c)
	# shellcheck disable=SC2086
	if "$TARGET_CC" $CFLAGS "$@" -o "$ROOT/tests/$dir/$name" "$src" -lpthread -lm \
		2> "$O/initramfs-$name.err"; then
		rm -f "$O/initramfs-$name.err"
	else
		log "cannot compile $src (see $O/initramfs-$name.err)"
		sed 's/^/[rig]   /' "$O/initramfs-$name.err" | head -5 >&2
	fi
	echo "$suite 300 $dir/$name" >> "$ROOT/tests/check.list"
}

: > "$ROOT/tests/check.list"
for src in "$REPO"/tools/testing/selftests/perf_events/*.c; do
	[ -f "$src" ] && build_prog selftests selftests "$src" -I"$REPO/tools/testing/selftests/perf_events"
done
# the base tree's tests with the flags their own Makefile uses (no -O2)
for t in $(sed -n 's/^TEST_GEN_PROGS := //p' "$BASE/tools/testing/selftests/perf_events/Makefile"); do
	CFLAGS="-static -Wl,-no-as-needed -Wall -pthread -I$O/usr/include" \
		build_prog base base "$BASE/tools/testing/selftests/perf_events/$t.c"
done
# a sample program that tests itself (compiled below with the other
# samples): proc_profile profiles a workload of its own the process-wide
# way and the upstream way, TAP
echo "samples 120 samples/proc_profile --self-test" >> "$ROOT/tests/check.list"

# the PMU module of selftests/pmu_module (perf_events/module/), built
# against this kernel's build directory, in a copy: an external module
# build writes its objects beside its sources
mkdir -p "$ROOT/tests/modules"
if grep -q '^CONFIG_MODULES=y' "$O/.config"; then
	mdir=$O/pmu-module
	rm -rf "$mdir"
	cp -r "$REPO/tools/testing/selftests/perf_events/module" "$mdir"
	if make -s -C "$O" ARCH="$KARCH" CROSS_COMPILE="$CROSS" M="$mdir" \
		modules > "$O/initramfs-module.err" 2>&1; then
		cp "$mdir"/*.ko "$ROOT/tests/modules/"
		rm -f "$O/initramfs-module.err"
	else
		log "cannot build the PMU module (see $O/initramfs-module.err)"
	fi
fi

# upstream's SPE driver (CONFIG_ARM_SPE_PMU=m in configs/arm64.config),
# built in the kernel's own build on either kernel: selftests/hw_spe
# loads it in the spe boot, the only one whose QEMU models FEAT_SPE
if [ -f "$O/drivers/perf/arm_spe_pmu.ko" ]; then
	cp "$O/drivers/perf/arm_spe_pmu.ko" "$ROOT/tests/modules/"
elif [ "$ARCH" = arm64 ]; then
	log "no drivers/perf/arm_spe_pmu.ko in $O: selftests/hw_spe skips (and fails)"
fi

# the base tree's mmap test looks for a PMU with an AUX area for its AUX
# variants: it runs with the AUX test PMU loaded (rig/guest/with_module.c),
# on both kernels, under its own name so that its results keep their names
if [ -x "$ROOT/tests/base/mmap" ] && [ -f "$ROOT/tests/modules/perf_aux_pmu.ko" ]; then
	mkdir -p "$ROOT/tests/base-real"
	mv "$ROOT/tests/base/mmap" "$ROOT/tests/base-real/mmap"
	if ! "$TARGET_CC" -static -O2 -Wall \
		-DMODULE='"/tests/modules/perf_aux_pmu.ko"' \
		-DPROG='"/tests/base-real/mmap"' \
		-o "$ROOT/tests/base/mmap" "$RIG/guest/with_module.c"; then
		log "cannot compile rig/guest/with_module.c: base/mmap runs without the AUX PMU"
		mv "$ROOT/tests/base-real/mmap" "$ROOT/tests/base/mmap"
	fi
fi

# the host's perf tool and bpftrace against this kernel (rig/perf-tool.sh,
# rig/perf-modes.sh, rig/bpftrace.sh): x86_64
# only, where the guest can run the host's binaries from its 9p share,
# and not on DEBUG=1 kernels, which get no share (rig/qemu.sh says why)
if [ "$ARCH" = x86_64 ] && [ "$DEBUG" = 1 ]; then
	log "DEBUG=1: no tool/* suites (a debug kernel hangs mounting the host share)"
elif [ "$ARCH" = x86_64 ]; then
	mkdir -p "$ROOT/tests/tool"
	# tool_suite NAME SECS: rig/NAME.sh as tool/NAME, SECS its time limit
	tool_suite() {
		cp "$RIG/$1.sh" "$ROOT/tests/tool/$1"
		chmod +x "$ROOT/tests/tool/$1"
		echo "tool $2 tool/$1" >> "$ROOT/tests/check.list"
	}
	# -O0: see rig/guest/hotspots.c for why, frame pointers throughout
	if "$TARGET_CC" -static -O0 -fno-omit-frame-pointer -Wall \
		-o "$ROOT/tests/tool/hotspots" "$RIG/guest/hotspots.c"; then
		tool_suite perf-tool 600
		# Debian's bpftrace on the same workload (rig/bpftrace.sh)
		tool_suite bpftrace 900
		# perf's cgroup, sched, trace and probe modes (rig/perf-modes.sh)
		tool_suite perf-modes 900
		# perf record cycles:pp and perf mem on AMD IBS
		# (rig/perf-ibs.sh), moved to the IBS identities' boots below
		if "$TARGET_CC" -static -O2 -Wall \
			-o "$ROOT/tests/tool/ibswork" "$RIG/guest/ibswork.c"; then
			tool_suite perf-ibs 600
		else
			log "cannot compile rig/guest/ibswork.c: no perf-ibs check"
		fi
		# perf record -b on AMD's Branch Sampling (rig/perf-brs.sh),
		# moved to the zen3 identity's boot below
		tool_suite perf-brs 300
		# perf mem on Intel PEBS (rig/perf-mem.sh), moved to the
		# boots of the identities with PEBS memory sampling below
		if "$TARGET_CC" -static -O2 -Wall \
			-o "$ROOT/tests/tool/memwork" "$RIG/guest/memwork.c"; then
			tool_suite perf-mem 600
		else
			log "cannot compile rig/guest/memwork.c: no perf-mem check"
		fi
	else
		log "cannot compile rig/guest/hotspots.c: no perf tool check"
	fi
	# Debian's rr recording and replaying rig/guest/rrwork.c
	# (rig/rr.sh), when the host has rr (make setup installs it)
	if [ -x /usr/bin/rr ]; then
		"$TARGET_CC" -static -O2 -Wall -pthread \
			-o "$ROOT/tests/tool/rrwork" "$RIG/guest/rrwork.c" ||
			log "cannot compile rig/guest/rrwork.c: tool/rr fails"
		# for kernels without CONFIG_SECCOMP (rig/guest/rr-noseccomp.c)
		gcc -shared -fPIC -O2 -Wall -o "$ROOT/tests/tool/rr-noseccomp.so" \
			"$RIG/guest/rr-noseccomp.c" ||
			log "cannot compile rig/guest/rr-noseccomp.c"
		cp "$RIG/rr.sh" "$ROOT/tests/tool/rr"
		chmod +x "$ROOT/tests/tool/rr"
		echo "tool 900 tool/rr" >> "$ROOT/tests/check.list"
	fi
	# PAPI's tools and rig/guest/papiwork.c, linked with the host's
	# libpapi and run in its root (rig/papi.sh), when the host has
	# papi-tools and libpapi-dev (make setup installs them)
	if [ -x /usr/bin/papi_avail ]; then
		gcc -O2 -Wall -o "$ROOT/tests/tool/papiwork" \
			"$RIG/guest/papiwork.c" -lpapi ||
			log "cannot compile rig/guest/papiwork.c: tool/papi fails"
		cp "$RIG/papi.sh" "$ROOT/tests/tool/papi"
		chmod +x "$ROOT/tests/tool/papi"
		echo "tool 300 tool/papi" >> "$ROOT/tests/check.list"
	fi
fi

# Debian's arm64 perf recording SPE (rig/perf-spe.sh), in the spe boot
# (moved to spe.list below), when make setup unpacked it
# (rig/perf-arm64.sh): rig/qemu.sh shares it with that boot.  Not on
# DEBUG=1 kernels, whose mount of a 9p share hangs (see above).
if [ "$ARCH" = arm64 ] && [ "$DEBUG" != 1 ] &&
	[ -x "$KPERF_CACHE/perf-arm64/root/usr/bin/perf" ]; then
	mkdir -p "$ROOT/tests/tool"
	if "$TARGET_CC" -static -O2 -Wall -o "$ROOT/tests/tool/spework" \
		"$RIG/guest/spework.c"; then
		cp "$RIG/perf-spe.sh" "$ROOT/tests/tool/perf-spe"
		chmod +x "$ROOT/tests/tool/perf-spe"
		echo "tool 600 tool/perf-spe" >> "$ROOT/tests/check.list"
	else
		log "cannot compile rig/guest/spework.c: no perf-spe check"
	fi
fi

# ONLY='glob ...' keeps only the check-list entries whose suite/name
# matches one of the globs (e.g. base/sigtrap_threads); REPEAT=N runs each
# entry N times (soaking one test under LOAD=N)
if [ -n "${ONLY:-}" ] || [ "${REPEAT:-1}" != 1 ]; then
	read -ra globs <<< "${ONLY:-*}"
	while read -r suite tmo prog rest; do
		for glob in "${globs[@]}"; do
			# shellcheck disable=SC2053
			[[ "$suite/$(basename "$prog")" == $glob ]] || continue
			for ((i = 0; i < ${REPEAT:-1}; i++)); do
				echo "$suite $tmo $prog${rest:+ $rest}"
			done
			break
		done
	done < "$ROOT/tests/check.list" > "$ROOT/tests/check.list.new"
	mv "$ROOT/tests/check.list.new" "$ROOT/tests/check.list"
	[ -s "$ROOT/tests/check.list" ] ||
		die "ONLY='$ONLY' matches no suite/program (e.g. selftests/ctx_swap, base/sigtrap_threads)"
	log "check list: $(wc -l < "$ROOT/tests/check.list") entries (ONLY=${ONLY:-*} REPEAT=${REPEAT:-1})"
fi

# selftests/hw_ibs and tool/perf-ibs need AMD IBS, which only the zen3
# and zen4 identities' model has (rig/qemu patch 17): they run in those
# boots below and in no other (every other boot would only skip them)
IBS_IDS="zen3 zen4"
ibs_lines=$(grep -E ' (selftests/hw_ibs|tool/perf-ibs)$' "$ROOT/tests/check.list" || true)
sed -i -E '\@ (selftests/hw_ibs|tool/perf-ibs)$@d' "$ROOT/tests/check.list"
# selftests/hw_brs and tool/perf-brs need AMD's Branch Sampling, which
# only the zen3 identity's model has (rig/qemu patch 22)
BRS_IDS="zen3"
brs_lines=$(grep -E ' (selftests/hw_brs|tool/perf-brs)$' "$ROOT/tests/check.list" || true)
sed -i -E '\@ (selftests/hw_brs|tool/perf-brs)$@d' "$ROOT/tests/check.list"
# tool/perf-mem needs PEBS memory sampling, which the Intel identities'
# model has (rig/qemu patch 0019): it runs in their boots only
MEM_IDS="broadwell skylake icelake sapphirerapids"
mem_lines=$(grep -E ' tool/perf-mem$' "$ROOT/tests/check.list" || true)
sed -i -E '\@ tool/perf-mem$@d' "$ROOT/tests/check.list"

# The hardware-counter suites. On x86_64 the rig's emulated PMU counts
# instructions exactly with or without -icount, but its cycles are one
# per instruction, and guest time a count of instructions, only under
# -icount, which the exact-count tests assert; so unless the whole check
# boots under -icount (ICOUNT=1) they move to icount.list, which
# rig/check.sh runs in a second, short boot under -icount shift=0
# (rig/qemu.sh MODE icount).
HW_SUITES="selftests/hw_counting selftests/hw_branches selftests/hw_pebs selftests/hw_pebs_mem selftests/user_rdpmc base/remove_on_exec"
: > "$ROOT/tests/icount.list"
if [ "$ARCH" = x86_64 ] && [ "${ICOUNT:-0}" != 1 ]; then
	: > "$ROOT/tests/check.list.new"
	while read -r suite tmo prog rest; do
		out=$ROOT/tests/check.list.new
		[[ " $HW_SUITES " == *" $suite/$(basename "$prog") "* ]] &&
			out=$ROOT/tests/icount.list
		echo "$suite $tmo $prog${rest:+ $rest}" >> "$out"
	done < "$ROOT/tests/check.list"
	mv "$ROOT/tests/check.list.new" "$ROOT/tests/check.list"
fi

# The same suites, with the branch-stack and counter-placement ones, on the
# emulated PMU of each real part's identity (rig/qemu.sh MODE id-<name>,
# rig/check.sh IDENTITIES): upstream's driver takes its model paths there,
# and ours its per-model tables, LBR and PEBS formats; and rr, which
# picks its ticks event from the CPU's family and model there by itself. The list is taken
# from what this build runs, so ONLY= narrows it as it does the others.
ID_SUITES="$HW_SUITES selftests/hw_lbr selftests/hw_sched selftests/msr_pmu tool/rr"
for id in ${X86_IDENTITIES:-}; do
	: > "$ROOT/tests/id-$id.list"
done
if [ "$ARCH" = x86_64 ] && [ -n "${X86_IDENTITIES:-}" ]; then
	: > "$ROOT/tests/identity.list"
	cat "$ROOT/tests/check.list" "$ROOT/tests/icount.list" |
	while read -r suite tmo prog rest; do
		[[ " $ID_SUITES " == *" $suite/$(basename "$prog") "* ]] || continue
		# rr.sh: the boot is under -icount (see there)
		[ "$prog" = tool/rr ] && rest="1000000 icount"
		echo "$suite $tmo $prog${rest:+ $rest}"
	done > "$ROOT/tests/identity.list"
	for id in $X86_IDENTITIES; do
		cp "$ROOT/tests/identity.list" "$ROOT/tests/id-$id.list"
		if [[ " $IBS_IDS " == *" $id "* ]] && [ -n "$ibs_lines" ]; then
			echo "$ibs_lines" >> "$ROOT/tests/id-$id.list"
		fi
		if [[ " $BRS_IDS " == *" $id "* ]] && [ -n "$brs_lines" ]; then
			echo "$brs_lines" >> "$ROOT/tests/id-$id.list"
		fi
		if [[ " $MEM_IDS " == *" $id "* ]] && [ -n "$mem_lines" ]; then
			echo "$mem_lines" >> "$ROOT/tests/id-$id.list"
		fi
	done
	rm -f "$ROOT/tests/identity.list"
fi

# KVM (arm64): the base tree's own vPMU selftest, and ours of host/guest
# event splitting and guest samples
# (tools/testing/selftests/perf_events/kvm/), built static with the KVM
# selftest library from the assembled tree (the build generates headers,
# which must not land in the base tree; ours is copied in beside the
# KVM tests as a new file), run in the kvm boot (rig/qemu.sh MODE kvm)
: > "$ROOT/tests/kvm.list"
if [ "$ARCH" = arm64 ] && grep -q '^CONFIG_KVM=y' "$O/.config"; then
	mkdir -p "$ROOT/tests/kvm"
	kvm_src=$("$RIG/assemble.sh")/tools/testing/selftests/kvm
	kvm_out=$O/kvm-selftests
	kvm_progs="aarch64/vpmu_counter_access"
	for src in "$REPO"/tools/testing/selftests/perf_events/kvm/*.c; do
		rm -f "$kvm_src/aarch64/$(basename "$src")"
		cp "$src" "$kvm_src/aarch64/"
		kvm_progs="$kvm_progs aarch64/$(basename "$src" .c)"
	done
	if make -s -C "$kvm_src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		OUTPUT="$kvm_out" KHDR_INCLUDES="-isystem $O/usr/include" \
		EXTRA_CFLAGS=-static LDFLAGS=-static \
		TEST_GEN_PROGS_aarch64="$kvm_progs" TEST_GEN_PROGS_EXTENDED_aarch64= \
		$(for p in $kvm_progs; do echo "$kvm_out/$p"; done) \
		> "$O/initramfs-kvm.err" 2>&1; then
		rm -f "$O/initramfs-kvm.err"
	else
		log "cannot build the KVM selftests (see $O/initramfs-kvm.err)"
	fi
	for p in $kvm_progs; do
		cp "$kvm_out/$p" "$ROOT/tests/kvm/" 2>/dev/null || true
		echo "kvm 600 kvm/$(basename "$p")" >> "$ROOT/tests/kvm.list"
	done
fi

# Suites that need a boot of their own, each run by rig/check.sh in an
# extra boot (rig/qemu.sh MODE=the list's name): hetero (arm64), a device
# tree with two kinds of CPU PMU (rig/hetero-dtb.py); acpi (arm64), UEFI
# firmware and ACPI tables instead of a device tree; lockdown (both
# arches), lockdown=confidentiality, which cannot be undone at run time;
# selinux (both arches), SELinux enforcing rig/guest/selinux-perf.cil,
# loaded by the test, after which the whole boot is under that policy.
# spe (arm64), QEMU's CPU with FEAT_SPE and its device tree node
# (SPE_QEMU, rig/qemu.sh), under -icount, with Debian's arm64 perf.
# The arm64-only ones are left out on x86 (it has none of them here).
BOOT_SUITES="hetero:selftests/hw_hetero acpi:selftests/hw_acpi spe:selftests/hw_spe spe:tool/perf-spe lockdown:selftests/lsm_lockdown selinux:selftests/lsm_selinux"
mkdir -p "$ROOT/tests/selinux"
secilc -o "$ROOT/tests/selinux/policy" -f /dev/null "$RIG/guest/selinux-perf.cil" ||
	die "cannot compile rig/guest/selinux-perf.cil (make setup installs secilc)"
for entry in $BOOT_SUITES; do
	: > "$ROOT/tests/${entry%%:*}.list"
done
: > "$ROOT/tests/check.list.new"
while read -r suite tmo prog rest; do
	out=$ROOT/tests/check.list.new
	for entry in $BOOT_SUITES; do
		[ "$suite/$(basename "$prog")" = "${entry#*:}" ] || continue
		out=$ROOT/tests/${entry%%:*}.list
		case ${entry%%:*} in hetero | acpi | spe) [ "$ARCH" = arm64 ] || out= ;; esac
	done
	[ -n "$out" ] && echo "$suite $tmo $prog${rest:+ $rest}" >> "$out"
done < "$ROOT/tests/check.list"
mv "$ROOT/tests/check.list.new" "$ROOT/tests/check.list"

: > "$ROOT/tests/run.list"
for src in "$REPO"/samples/perf_events/*.c; do
	[ -f "$src" ] || continue
	"$TARGET_CC" $CFLAGS -o "$ROOT/tests/samples/$(basename "$src" .c)" "$src" \
		|| die "cannot compile $src"
done
cp "$RIG/guest/demo.sh" "$ROOT/tests/demo.sh"
# the host perf mount, for demo.sh, perf-tool.sh and profile.sh
cp "$RIG/guest/hostperf.sh" "$ROOT/tests/hostperf.sh"
echo "demo 900 /bin/sh /tests/demo.sh $ARCH" >> "$ROOT/tests/run.list"

# make bench: the benchmark programs (rig/bench/), one list line each
mkdir -p "$ROOT/tests/bench"
: > "$ROOT/tests/bench.list"
for src in "$RIG"/bench/*.c; do
	[ -f "$src" ] || continue
	"$TARGET_CC" $CFLAGS -o "$ROOT/tests/bench/$(basename "$src" .c)" "$src" \
		|| die "cannot compile $src"
	# BENCH_ROWS=a,b: only those rows (perf_bench's second argument)
	echo "bench 1800 bench/$(basename "$src" .c)${BENCH_ROWS:+ 1 $BENCH_ROWS}" \
		>> "$ROOT/tests/bench.list"
done
# make profile: perf_bench under Debian's perf (x86_64, host share)
cp "$RIG/guest/profile.sh" "$ROOT/tests/profile.sh"
echo "profile 3000 /bin/sh /tests/profile.sh" > "$ROOT/tests/profile.list"

# make fuzz (rig/fuzz.sh): our fuzzer (built above with the other
# kselftests; it reads PERF_FUZZ_SECONDS and PERF_FUZZ_SEED from the
# environment, i.e. the kernel command line), then trinity. Each list
# timeout is the run's length plus room for the debug kernel's slowness.
fs=${FUZZ_SECONDS:-60} ts=${TRINITY_SECONDS:-60}
echo "fuzz $((fs + 300)) selftests/fuzz" > "$ROOT/tests/fuzz.list"
"$TARGET_CC" -static -O2 -Wall -o "$ROOT/tests/runas" "$RIG/guest/runas.c" \
	|| die "cannot compile rig/guest/runas.c"
cp "$RIG/guest/trinity.sh" "$ROOT/tests/trinity.sh"
chmod +x "$ROOT/tests/trinity.sh"
if [ "$ts" -gt 0 ]; then
	echo "trinity $((ts + 300)) trinity.sh $ts ${TRINITY_SEED:-1}" \
		>> "$ROOT/tests/fuzz.list"
fi
if [ "$WITH_FUZZ" = fuzz ]; then
	# trinity is dynamic: the binary, libc and the loader at the paths
	# the binary names (the loader finds libc in its multiarch directory)
	case "$ARCH" in
	x86_64) tr=/ libs="lib64/ld-linux-x86-64.so.2 lib/x86_64-linux-gnu/libc.so.6" ;;
	arm64) tr=$KPERF_CACHE/trinity-arm64
		libs="lib/ld-linux-aarch64.so.1 lib/aarch64-linux-gnu/libc.so.6" ;;
	esac
	if [ -x "$tr/usr/bin/trinity" ]; then
		for f in usr/bin/trinity $libs; do
			mkdir -p "$ROOT/$(dirname "$f")"
			cp -L "$tr/$f" "$ROOT/$f"
		done
	else
		log "no trinity for $ARCH (make setup): make fuzz runs our fuzzer only"
	fi
fi

# busybox: a shell for make shell and the demo script
bb=
case "$ARCH" in
x86_64) [ -x /bin/busybox ] && bb=/bin/busybox ;;
arm64) [ -x "$KPERF_CACHE/busybox-arm64" ] && bb=$KPERF_CACHE/busybox-arm64 ;;
esac
if [ -n "$bb" ]; then
	cp "$bb" "$ROOT/bin/busybox"
	for app in $(/bin/busybox --list 2>/dev/null); do
		# the list names busybox itself: linking it would replace the binary
		case "$app" in init|linuxrc|busybox) continue ;; esac
		ln -sf busybox "$ROOT/bin/$app"
	done
else
	log "no busybox for $ARCH: make shell and the demo script are unavailable"
	# without a shell, run the sample programs directly
	: > "$ROOT/tests/run.list"
	for p in "$ROOT"/tests/samples/*; do
		[ -f "$p" ] && echo "demo 120 samples/$(basename "$p")" >> "$ROOT/tests/run.list"
	done
fi

(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$O/initramfs.cpio"
log "initramfs: $O/initramfs.cpio ($(du -h "$O/initramfs.cpio" | cut -f1))"
