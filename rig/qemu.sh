#!/bin/bash
# qemu.sh: boot one kernel build in QEMU (TCG: no KVM needed).
#
# Usage: rig/qemu.sh VARIANT ARCH DEBUG MODE
#   MODE check|icount|id-*|hetero|acpi|kvm|spe|lockdown|selinux|bench|profile|fuzz:
#        run the tests
#        non-interactively; the kernel console goes to
#        build/.../MODE-console.log and the test output (virtio console) to
#        build/.../MODE-tap.log; icount runs the hardware-counter suites
#        (tests/icount.list) under -icount shift=0; hetero (arm64) runs
#        tests/hetero.list on a device tree with two kinds of CPU PMU
#        (rig/hetero-dtb.py); acpi (arm64) runs tests/acpi.list on UEFI
#        firmware (Debian's qemu-efi-aarch64) with ACPI tables, no DT;
#        kvm (arm64) runs tests/kvm.list with the kernel at EL2 (VHE);
#        lockdown runs tests/lockdown.list with lockdown=confidentiality;
#        selinux runs tests/selinux.list with SELinux on; spe (arm64)
#        runs tests/spe.list under -icount shift=0 on the QEMU with
#        FEAT_SPE (SPE_QEMU below); id-<identity>
#        (x86_64) runs tests/id-<identity>.list under -icount on the
#        emulated PMU of that X86_PMU identity (skylake, icelake, ...)
#   MODE run|shell: the console is this terminal
#
# Environment: ICOUNT=1 boots with -icount shift=0 (guest time counts
# instructions: deterministic and repeatable, but single-threaded);
# SMP=N gives the guest N vCPUs (default 2; rig/bench.sh sets 8: under
# -icount QEMU runs all vCPUs round-robin in one host thread and skips
# over idle time, so idle vCPUs cost little);
# TIMEOUT=seconds kills a guest that runs longer (default 2400 for check;
# rig/fuzz.sh sets it from MINUTES);
# FAULT=panic|hang|warn injects a fault after the tests (rig self-test);
# LOAD=N runs N busy loops on the host beside the guest for as long as it
# runs, so that its vCPUs are preempted for whole host time slices, as on
# a busy machine (races between overflows, task work and context switches
# show up that a quiet host hides);
# X86_PMU=intel|amd|amd-legacy|off: the x86 CPU model of the rig's QEMU
# with the emulated PMU (rig/qemu; built here when it is missing): Intel
# arch perfmon v5 (GenuineIntel, the default), the AMD core PMU with
# PerfMonV2 (AuthenticAMD), the same with only the four legacy counters
# (perfctr-core=off), or -cpu max without a PMU; or a real part's
# identity, whose PMU follows its family/model (rig/qemu patches 0014 to
# 0016): skylake (Skylake-Client: perfmon v4, 4 GP counters, AnyThread,
# PEBS format 3, model-specific LBRs), icelake (Icelake-Server as model
# 0x6A: v5, 8 GP counters, PEBS format 4, model-specific LBRs),
# sapphirerapids (Icelake-Server's features, family 6 model 0x8F: v5,
# PEBS format 4, arch LBRs), zen3 (EPYC-Milan: PerfCtrExtCore, no
# PerfMonV2), zen4 (EPYC-Milan's features, model 0x11: PerfMonV2,
# LbrExtV2 with 16 entries); both with Instruction-Based Sampling
# (ibs=on, patch 0017; nowhere else), zen3 with Branch Sampling too
# (brs=on, patch 0022; nowhere else); broadwell (Broadwell-noTSX: v3,
# PEBS format 2, LBR_FMT 4; patch 0020), ivybridge (IvyBridge: v3, PEBS
# format 1, LBR_FMT 3; patch 0023).
# SPE_QEMU=/path/qemu-system-aarch64: a QEMU whose arm64 CPU models the
# Statistical Profiling Extension (-cpu max,spe=on, with the SPE node in
# its device tree), for MODE spe: by default the rig's
# (TARGET=aarch64 rig/qemu/build.sh, as rig/check.sh sets it).
# Exit status: 0 when the guest powered itself off, 124 on timeout.
source "$(dirname "$0")/lib.sh"

VARIANT=$1 ARCH=$2 DEBUG=${3:-0} MODE=${4:-check}
arch_setup "$ARCH"
O=$(variant_dir "$VARIANT" "$ARCH" "$DEBUG")
[ -f "$O/$IMAGE" ] || die "no kernel at $O/$IMAGE"
[ -f "$O/initramfs.cpio" ] || die "no initramfs at $O/initramfs.cpio"

# KPERF_APPEND: extra kernel parameters; NAME=value ones reach the tests
# as environment variables (e.g. PERF_STRESS_SECONDS=60)
append="panic=-1 KPERF_VARIANT=$VARIANT kperf.mode=$MODE${FAULT:+ kperf.fault=$FAULT}${KPERF_APPEND:+ $KPERF_APPEND}"
mem=1G
if [ "$DEBUG" = 1 ]; then
	mem=2G
	# Unpacking the 47 MB initramfs on the KASAN kernel under TCG takes
	# 35 s on one vCPU without a reschedule point (PREEMPT_NONE), and the
	# RCU kthread waiting behind it gets reported as a stall.  Only
	# stalls before init starts are suppressed (that includes the boot
	# KUnit run, which the non-debug kernel still checks); any during
	# the kselftests fails the run (guest/clean-log).
	append="$append rcupdate.rcu_cpu_stall_suppress_at_boot=1"
fi
# MODE id-<identity> (x86_64): the hardware-counter suites again, under
# -icount, on the emulated PMU of a real part's identity (X86_PMU below)
case "$MODE" in
id-*)
	[ "$ARCH" = x86_64 ] || die "MODE $MODE is x86_64 only"
	X86_PMU=${MODE#id-} ICOUNT=1 ;;
esac
case "$ARCH" in
x86_64)
	case "${X86_PMU:-intel}" in
	intel) cpu=max,vendor=GenuineIntel,pmu=on ;;
	amd) cpu=max,vendor=AuthenticAMD,pmu=on ;;
	amd-legacy) cpu=max,vendor=AuthenticAMD,pmu=on,perfctr-core=off ;;
	# QEMU's max CPU turns its PMU on itself: off must say so
	off) cpu=max,pmu=off ;;
	# real parts' identities: the PMU follows family/model (patch 0014)
	skylake) cpu=Skylake-Client,pmu=on ;;
	# QEMU 7.2's Icelake-Server says model 134 (06_86H: Snow Ridge's,
	# a Tremont); Ice Lake-SP is 06_6AH
	icelake) cpu=Icelake-Server,model=106,stepping=6,pmu=on ;;
	sapphirerapids)
		# QEMU 7.2 has no SapphireRapids model: Ice Lake's features
		# with Sapphire Rapids' identity (06_8FH, stepping 8)
		cpu="Icelake-Server,family=6,model=143,stepping=8,model-id=Intel Xeon Processor (SapphireRapids),pmu=on" ;;
	# Broadwell (06_3DH; patch 0020: perfmon v3, PEBS fmt 2, LBR_FMT 4)
	broadwell) cpu=Broadwell-noTSX,pmu=on ;;
	# Ivy Bridge (06_3AH; patch 0023: perfmon v3, PEBS fmt 1, LBR_FMT 3)
	ivybridge) cpu=IvyBridge,pmu=on ;;
	# with Instruction-Based Sampling (patch 0017: ibs=on, off by
	# default) and Branch Sampling (patch 0022: brs=on, off by default)
	zen3) cpu=EPYC-Milan,pmu=on,ibs=on,brs=on ;;
	# QEMU 7.2 has no EPYC-Genoa: Milan's features, Genoa's identity (19_11H)
	zen4) cpu="EPYC-Milan,model=17,model-id=AMD EPYC-Genoa Processor,pmu=on,ibs=on" ;;
	*) die "unknown X86_PMU '$X86_PMU' (intel, amd, amd-legacy, off, skylake, icelake, sapphirerapids, broadwell, ivybridge, zen3 or zen4)" ;;
	esac
	# the rig's QEMU with the emulated x86 PMU: built on first use
	# (make setup builds it; with nothing changed this does nothing)
	qemu_bin=$("$RIG/qemu/build.sh") ||
		die "cannot build QEMU with the emulated x86 PMU (rig/qemu/build.sh)"
	qemu=("$qemu_bin" -M pc -cpu "$cpu" -smp "${SMP:-2}" -m $mem)
	# The perf hard-lockup detector (CONFIG_HARDLOCKUP_DETECTOR_PERF)
	# would hold a pinned cycles counter on every CPU, which changes
	# every test that fills the counters: off unless a test turns it
	# on (/proc/sys/kernel/nmi_watchdog; KPERF_APPEND comes later on
	# the command line, so nmi_watchdog=1 there wins). The soft-lockup
	# detector it brings is off too: under TCG a vCPU the host starves
	# looks stuck, and an RCU stall reports a real one anyway.
	append="console=ttyS0 nmi_watchdog=0 nosoftlockup $append"
	vser=virtio-serial-pci; v9p=virtio-9p-pci ;;
arm64)
	# -cpu max has the emulated PMUv3; impdef pointer auth is much
	# cheaper to emulate than the architected algorithm
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth-impdef=on
	      -smp "${SMP:-2}" -m $mem)
	# PMU overflows as pseudo-NMIs; the perf hard-lockup detector off
	# as on x86 (above)
	append="console=ttyAMA0 irqchip.gicv3_pseudo_nmi=1 nmi_watchdog=0 nosoftlockup $append"
	vser=virtio-serial-device; v9p=virtio-9p-device ;;
esac
qemu+=(-kernel "$O/$IMAGE" -initrd "$O/initramfs.cpio" -no-reboot)
# MODE icount: the hardware-counter suites, which need exact counts
[ "$MODE" = icount ] && ICOUNT=1
[ "${ICOUNT:-0}" = 1 ] && qemu+=(-icount shift=0)
# its KUnit suites ran in the check boot already
[ "$MODE" = icount ] && append="$append kunit.enable=0"
[[ "$MODE" = id-* ]] && append="$append kunit.enable=0"
# MODE hetero: QEMU's own device tree, its one PMU node split into one
# per CPU type (rig/hetero-dtb.py), with the dtc of this kernel build
if [ "$MODE" = hetero ]; then
	[ "$ARCH" = arm64 ] || die "MODE hetero is arm64 only"
	"${qemu[@]}" -machine dumpdtb="$O/virt.dtb" -display none > /dev/null 2>&1 ||
		die "QEMU did not dump its device tree"
	python3 "$RIG/hetero-dtb.py" "$O/scripts/dtc/dtc" "$O/virt.dtb" "$O/hetero.dtb" ||
		die "cannot build the hetero device tree"
	qemu+=(-dtb "$O/hetero.dtb")
	append="$append kunit.enable=0"
fi
# MODE spe: the QEMU that models FEAT_SPE (SPE_QEMU), under -icount so
# that the runs of both kernels see the same scheduling and timestamps
# (the model counts operations in instructions, so the sampled PCs are
# exact either way)
if [ "$MODE" = spe ]; then
	[ "$ARCH" = arm64 ] || die "MODE spe is arm64 only"
	[ -n "${SPE_QEMU+set}" ] || SPE_QEMU=$(TARGET=aarch64 "$RIG/qemu/build.sh") ||
		die "cannot build the rig's qemu-system-aarch64 (rig/qemu/build.sh)"
	[ -x "$SPE_QEMU" ] || die "MODE spe needs SPE_QEMU=/path/to/qemu-system-aarch64 with FEAT_SPE"
	qemu[0]=$SPE_QEMU
	qemu[4]=${qemu[4]},spe=on
	# (ICOUNT=0 boots it without)
	[ -z "${ICOUNT:-}" ] && qemu+=(-icount shift=0)
	append="$append kunit.enable=0"
	# Debian's arm64 perf (rig/perf-arm64.sh) for rig/perf-spe.sh
	perf_root=$KPERF_CACHE/perf-arm64/root
	# (-virtfs would add a PCI device: the guest's virtio is MMIO)
	[ -x "$perf_root/usr/bin/perf" ] &&
		qemu+=(-fsdev "local,id=perfarm64,path=$perf_root,security_model=none,readonly=on,multidevs=remap"
		       -device "$v9p,fsdev=perfarm64,mount_tag=perfarm64")
fi
# MODE kvm: EL2 for the kernel (virtualization=on), so that KVM runs
# guests whose vPMU counts on our PMU
if [ "$MODE" = kvm ]; then
	[ "$ARCH" = arm64 ] || die "MODE kvm is arm64 only"
	qemu+=(-machine virtualization=on)
	append="$append kunit.enable=0"
fi
# MODE acpi: EDK2 loads the kernel (from fw_cfg) and hands it ACPI
# tables; acpi=force keeps the kernel off the device tree
if [ "$MODE" = acpi ]; then
	[ "$ARCH" = arm64 ] || die "MODE acpi is arm64 only"
	fw=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd
	[ -f "$fw" ] || die "no UEFI firmware at $fw (make setup installs qemu-efi-aarch64)"
	qemu+=(-bios "$fw")
	append="$append acpi=force kunit.enable=0"
fi

# MODE lockdown: the lockdown LSM in confidentiality mode from boot on,
# as a secure-boot distribution kernel runs
[ "$MODE" = lockdown ] && append="$append lockdown=confidentiality kunit.enable=0"
# MODE selinux: SELinux as the one major LSM (the configs build it but
# do not list it in CONFIG_LSM); the test loads the policy
[ "$MODE" = selinux ] && append="$append lsm=lockdown,selinux kunit.enable=0"

case "$MODE" in
check|icount|id-*|hetero|acpi|kvm|spe|lockdown|selinux|bench|profile|fuzz)
	qemu+=(-display none -monitor none
	       -serial "file:$O/$MODE-console.log"
	       -device "$vser" -chardev "file,id=tap,path=$O/$MODE-tap.log"
	       -device virtconsole,chardev=tap)
	# the host root, read-only, for rig/perf-tool.sh (check on x86_64)
	# and make profile.
	# multidevs=remap: the host's / spans several filesystems (proc,
	# sys, ...) whose inode numbers collide; without it the guest's 9p
	# client takes /host/proc and /host/sys for one directory and the
	# guest's proc ends up mounted on /host/sys
	# (not for bench, nor for fuzz: trinity runs as root there)
	# Not for DEBUG=1 kernels either: their mount of the share never
	# returns (the guest idles in mount -t 9p, upstream's debug kernel
	# as well as ours, 6.12.117); mkinitramfs.sh leaves the tool
	# suites out there.
	[ "$ARCH" = x86_64 ] && [ "$DEBUG" != 1 ] &&
		[ "$MODE" != bench ] && [ "$MODE" != fuzz ] &&
		[ "$MODE" != icount ] && [ "$MODE" != hetero ] && [ "$MODE" != lockdown ] &&
		[ "$MODE" != selinux ] &&
		qemu+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
	timeout=${TIMEOUT:-2400} ;;
run|shell)
	qemu+=(-nographic)
	# the host root, read-only, for Debian's perf tool
	[ "$ARCH" = x86_64 ] && qemu+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
	[ "$MODE" = run ] && qemu+=(-device "$vser" -chardev null,id=tap -device virtconsole,chardev=tap)
	timeout=${TIMEOUT:-3600} ;;
*) die "unknown mode $MODE" ;;
esac
qemu+=(-append "$append")

log "booting $VARIANT $ARCH$([ "$DEBUG" = 1 ] && echo " debug") ($MODE$([ "${ICOUNT:-0}" = 1 ] && echo ", icount")${cpu:+, -cpu $cpu}${LOAD:+, host load $LOAD})"
rm -f "$O/$MODE-console.log" "$O/$MODE-tap.log"
hogs=()
stop_hogs() {
	[ ${#hogs[@]} = 0 ] || kill "${hogs[@]}" 2>/dev/null || true
}
trap stop_hogs EXIT
for ((i = 0; i < ${LOAD:-0}; i++)); do
	# same priority as QEMU: the point is to take CPU time from it
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
start=$(date +%s)
rc=0
if [ "$MODE" = shell ]; then
	"${qemu[@]}" || rc=$?
else
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" </dev/null || rc=$?
fi
[ $rc = 124 ] && log "guest did not finish within ${timeout}s: killed"
log "guest ran $(( $(date +%s) - start ))s"
exit $rc
