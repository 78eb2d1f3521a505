#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile.sh: make profile. Where each kernel spends the time of some
# rig/bench rows: boots upstream's kernel, then ours (x86_64, -icount),
# runs perf_bench on only those rows under Debian's perf sampling the
# whole guest (rig/guest/profile.sh), and prints both reports.
#
# Usage: rig/profile.sh ROWS [SCALE]   e.g. rig/profile.sh read-group-8 x4
#
# Uses the kernels in build/ref-x86_64 and build/ours-x86_64 (builds
# whichever is missing). Environment: PERIOD (sampling period, default
# 50000 ns of cpu-clock), EVENT (the event sampled, default cpu-clock;
# instructions:k profiles the kernel alone), LIMIT (the report's percent
# limit, default 0.3), SMP (vCPUs, default 2; make bench boots 8),
# VARIANTS (default "ref ours").
source "$(dirname "$0")/lib.sh"

ROWS=${1:?usage: rig/profile.sh ROWS [SCALE]}
SCALE=${2:-1}
ARCH=x86_64
export ICOUNT=1 TIMEOUT=${TIMEOUT:-3000}
arch_setup "$ARCH"
[ -x /usr/bin/perf ] || die "no perf on the host (make setup)"

for v in ${VARIANTS:-ref ours}; do
	O=$(variant_dir $v "$ARCH" 0)
	if [ ! -f "$O/$IMAGE" ] || [ ! -d "$O/usr/include/linux" ]; then
		"$RIG/build-kernel.sh" $v "$ARCH" 0 || die "$v kernel did not build"
	fi
	"$RIG/mkinitramfs.sh" $v "$ARCH" 0
	KPERF_APPEND="PROFILE_ROWS=$ROWS PROFILE_SCALE=$SCALE PROFILE_PERIOD=${PERIOD:-50000} PROFILE_EVENT=${EVENT:-cpu-clock} PROFILE_LIMIT=${LIMIT:-0.3}" \
		"$RIG/qemu.sh" $v "$ARCH" 0 profile || log "$v: qemu exit $?"
	echo "=== $v: $ROWS"
	grep -v '^KPERF-\|^# *$' "$O/profile-tap.log"
done
