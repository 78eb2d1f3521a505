#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# profile.sh: where the kernel spends a bench row's time. Runs inside the
# x86_64 guest for `make profile` (rig/profile.sh): Debian's perf, from
# the host's read-only 9p share, samples the whole guest on cpu-clock
# while rig/bench/perf_bench runs only the rows asked for, then prints
# the hottest symbols. Under -icount guest time counts instructions, so
# the profile is one of instructions and repeats from boot to boot.
#
# Environment (kernel parameters through KPERF_APPEND): PROFILE_ROWS, a
# comma-separated list of bench rows; PROFILE_SCALE, perf_bench's scale
# argument (x4 runs each row four times as long); PROFILE_PERIOD, the
# sampling period (default 50000: ns of cpu-clock); PROFILE_EVENT, the
# event sampled instead of cpu-clock (instructions:k, on the rig's PMU
# model, profiles the kernel alone, exactly); PROFILE_LIMIT, the report's
# percent limit (default 0.3).
ROWS=${PROFILE_ROWS:-read-group-8}
SCALE=${PROFILE_SCALE:-1}
PERIOD=${PROFILE_PERIOD:-50000}

. /tests/hostperf.sh
hostperf_mount > /tmp/hostperf.why || { echo "# $(cat /tmp/hostperf.why)"; exit 1; }
cp /tests/bench/perf_bench /host/tmp/perf_bench
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid

chroot /host "$PERF" record -a -m 1024 -e "${PROFILE_EVENT:-cpu-clock}" -c "$PERIOD" -o /tmp/perf.data \
	/tmp/perf_bench "$SCALE" "$ROWS" 2>&1 | sed 's/^/# /'
chroot /host "$PERF" report -i /tmp/perf.data --stdio --sort sym \
	--percent-limit "${PROFILE_LIMIT:-0.3}" 2>/dev/null | grep -v '^$'
