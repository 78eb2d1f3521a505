#!/bin/bash
# rig/qemu/test.sh: the conformance suite of the emulated x86 PMU.
#
# Builds QEMU with the PMU (rig/qemu/build.sh, nothing to do when it is
# up to date) and the bare-metal test (rig/qemu/mbtest), then boots the
# test with two vCPUs on each CPU model, under -icount shift=0 and again
# without icount (-append noicount: there cycles follow the virtual clock,
# so the test checks only that they count; instructions are exact either
# way):
#
#   intel       -cpu max,vendor=GenuineIntel,pmu=on     (arch LBRs with event
#               logging, patch 0024)
#   amd         -cpu max,vendor=AuthenticAMD,pmu=on     (PerfCtrExtCore, PerfMonV2)
#   amd-legacy  -cpu max,vendor=AuthenticAMD,pmu=on,perfctr-core=off  (K7 counters)
#   intel-nolbr -cpu max,vendor=GenuineIntel,pmu=on,arch-lbr=off  (no Arch LBR;
#               icount only, "nolbr" on the command line)
#   intel-nopebs -cpu max,vendor=GenuineIntel,pmu=on,pebs=off  (no PEBS, no DS;
#               icount only, "nopebs" on the command line)
#
# and zen3 below, whose IBS (patch 0017) no other run checks; with
# IDENTITIES=1 (make qemu-test sets it; make check, which runs this suite
# too, does not, to keep its time) the other real parts' identities too,
# whose PMU follows CPUID family/model (patch 0014; icount only, "id=..."
# on the command line says what the identity must present; about 10 s
# each, 45 s for icl and spr):
#
#   skl   -cpu Skylake-Client,pmu=on      06_5EH: v4, 4 GP, AnyThread, PEBS fmt 3,
#                                         legacy LBRs (LBR_FMT 5)
#   icl   -cpu Icelake-Server,model=106,stepping=6,pmu=on
#                                         06_6AH: v5, 8 GP, PEBS fmt 4, legacy LBRs
#   spr   -cpu Icelake-Server,model=143,stepping=8,pmu=on
#                                         06_8FH: as icl, with arch LBRs, no legacy ones
#   zen3  -cpu EPYC-Milan,pmu=on,ibs=on,brs=on
#                                         19_01H: PerfCtrExtCore, no PerfMonV2,
#                                         IBS (patch 0017; "ibs" on the command
#                                         line), Branch Sampling (patch 0022;
#                                         "brs" on the command line)
#   zen4  -cpu EPYC-Milan,model=17,pmu=on,ibs=on
#                                         19_11H: PerfCtrExtCore, PerfMonV2,
#                                         LbrExtV2 (16 entries), IBS
#   bdw   -cpu Broadwell-noTSX,pmu=on     06_3DH: v3, PEBS fmt 2, LBR_FMT 4
#                                         (patch 0020)
#   ivb   -cpu IvyBridge,pmu=on           06_3AH: v3, PEBS fmt 1, LBR_FMT 3
#                                         (patch 0023)
#
# and zen3 once more without icount (zen3/noicount: IBS counts
# instructions, so its samples are exact there too).  The other AMD runs
# have no IBS and no BRS: their MSRs must #GP there.
#
# Prints each run's TAP (its tests named "model:" under icount and
# "model/noicount:" without) and "N passed, N failed"; exits non-zero on
# any failure, and when a guest does not finish (TIMEOUT, default 300 s).
source "$(dirname "$0")/../lib.sh"
source "$RIG/qemu/tap.sh"

out=$BUILD/qemu-pmu
mkdir -p "$out"
qemu=$("$RIG/qemu/build.sh")
make -s -C "$RIG/qemu/mbtest" O="$out" >&2
timeout=${TIMEOUT:-300}

declare -A cpus=(
	[intel]=max,vendor=GenuineIntel,pmu=on
	[amd]=max,vendor=AuthenticAMD,pmu=on
	[amd-legacy]=max,vendor=AuthenticAMD,pmu=on,perfctr-core=off
	[intel-nolbr]=max,vendor=GenuineIntel,pmu=on,arch-lbr=off
	[intel-nopebs]=max,vendor=GenuineIntel,pmu=on,pebs=off
	[skl]=Skylake-Client,pmu=on
	[icl]=Icelake-Server,model=106,stepping=6,pmu=on
	[spr]=Icelake-Server,model=143,stepping=8,pmu=on
	[zen3]=EPYC-Milan,pmu=on,ibs=on,brs=on
	[zen4]=EPYC-Milan,model=17,pmu=on,ibs=on
	[bdw]=Broadwell-noTSX,pmu=on
	[ivb]=IvyBridge,pmu=on
)
passed=0 failed=0
runs="intel amd amd-legacy intel-nolbr intel-nopebs zen3"
noicount="intel/noicount amd/noicount amd-legacy/noicount"
if [ "${IDENTITIES:-0}" = 1 ]; then
	runs="$runs skl icl spr bdw ivb zen4"
	noicount="$noicount zen3/noicount"
fi
for run in $runs $noicount; do
	model=${run%/noicount}
	if [ "$run" = "$model" ]; then
		accel=(-icount shift=0) append=
	else
		accel=() append=noicount
	fi
	# the Intel model without Arch LBR: its MSRs #GP, CPUID shows none
	[ "$model" = intel-nolbr ] && append="$append nolbr"
	# the Intel model without PEBS: no DS, its MSRs #GP
	[ "$model" = intel-nopebs ] && append="$append nopebs"
	# a real part's identity: what it must present
	case $model in skl|icl|spr|bdw|ivb|zen3|zen4) append="$append id=$model" ;; esac
	# with IBS (patch 0017)
	case $model in zen3|zen4) append="$append ibs" ;; esac
	# with Branch Sampling (patch 0022)
	[ "$model" = zen3 ] && append="$append brs"
	log="$out/mbtest-${run/\//-}.log"
	rm -f "$log"
	set +e
	timeout "$timeout" "$qemu" -M pc -accel tcg "${accel[@]}" \
		-cpu "${cpus[$model]}" -smp 2 -m 64 \
		-display none -nodefaults -no-reboot \
		-debugcon "file:$log" \
		-device isa-debug-exit,iobase=0xf4,iosize=1 \
		-kernel "$out/mbtest.elf" -append "$append" </dev/null 2>"$log.stderr"
	rc=$?
	set -e
	echo "# $run: -cpu ${cpus[$model]}${accel[*]:+ ${accel[*]}}"
	# a named model's features TCG lacks are warnings: expected, not shown
	grep -v "warning: TCG doesn't support requested feature" "$log.stderr" | sed 's/^/# /' || true
	# isa-debug-exit: status (v << 1) | 1; the test writes 0 when all passed
	tap_run "$run" "$log" "$rc" 1
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
