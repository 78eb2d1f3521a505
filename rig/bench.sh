#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: make bench. The cost perf_events adds to context switches,
# read() and ioctl(ENABLE/DISABLE), ours against upstream.
#
# Usage: rig/bench.sh [ARCH]   (x86_64 by default, or arm64)
#
# Uses the kernels already in build/ref-ARCH and build/ours-ARCH (builds
# whichever is missing through build-kernel.sh, which takes the build
# lock; SKIP_KERNEL=0 rebuilds both first), builds both bench initramfs
# images, then boots ref, ours, ref, ours, ... (ROUNDS pairs, the same
# order every time) with MODE=bench under -icount shift=0. Each guest runs
# rig/bench/perf_bench, which prints "bench <row> <ns-per-op> iters=<n>".
#
# Prints one table line per row: the upstream and our ns per operation
# (mean over the rounds), ratio ours/upstream, and how far the rounds of
# each kernel spread; then a verdict. Exit status non-zero when a guest
# fails, a row is missing, or ours is slower than upstream by more than
# MARGIN percent on any row.
#
# Environment: ROUNDS (pairs of boots, default 2), MARGIN (percent,
# default 1; see Documentation/perf_events/rig.rst for why), ICOUNT=0
# (wall-clock guest time instead: noisy, for curiosity only), TIMEOUT
# (seconds per guest, default 1800), BUILD, KSRC as for the rest of the rig.
source "$(dirname "$0")/lib.sh"

ARCH=${1:-x86_64}
ROUNDS=${ROUNDS:-2}
MARGIN=${MARGIN:-1}
export ICOUNT=${ICOUNT:-1}
export TIMEOUT=${TIMEOUT:-1800}
arch_setup "$ARCH"
BASE=$(base_tree)
log "base tree: $(base_describe "$BASE")"

for v in ref ours; do
	O=$(variant_dir $v "$ARCH" 0)
	if [ "${SKIP_KERNEL:-1}" != 0 ] && [ -f "$O/$IMAGE" ] &&
	   [ -d "$O/usr/include/linux" ]; then
		log "reusing $O/$IMAGE ($(date -r "$O/$IMAGE" '+%F %T'))"
	else
		"$RIG/build-kernel.sh" $v "$ARCH" 0 || die "$v $ARCH kernel did not build"
	fi
	"$RIG/mkinitramfs.sh" $v "$ARCH" 0
done

# ref first in every pair, so both kernels see the same host history
runs=()
fail=0
for r in $(seq "$ROUNDS"); do
	for v in ref ours; do
		O=$(variant_dir $v "$ARCH" 0)
		rc=0
		"$RIG/qemu.sh" $v "$ARCH" 0 bench || rc=$?
		# keep every round's logs; an absent log reads as a failed run
		for f in tap console; do
			cp "$O/bench-$f.log" "$O/bench-$f-$r.log" 2>/dev/null ||
				: > "$O/bench-$f-$r.log"
		done
		if [ $rc != 0 ]; then
			log "$v round $r: qemu exit $rc"
			fail=1
		fi
		runs+=("$v" "$O/bench-tap-$r.log" "$O/bench-console-$r.log")
	done
done

rc=0
python3 - "$RIG" "$ARCH" "$MARGIN" "$ICOUNT" "${runs[@]}" <<'PY' || rc=$?
import sys
sys.path.insert(0, sys.argv[1])
from results import SPLAT_RE

arch, margin, icount = sys.argv[2], float(sys.argv[3]), sys.argv[4]
args = sys.argv[5:]
vals = {'ref': {}, 'ours': {}}
order = []
bad = []
for i in range(0, len(args), 3):
    variant, tap, console = args[i:i + 3]
    text = open(tap, errors='replace').read()
    if 'KPERF-END bench perf_bench exit=0' not in text or 'KPERF-DONE' not in text:
        bad.append(f'{tap}: the benchmark did not finish cleanly')
    for line in open(console, errors='replace'):
        if SPLAT_RE.search(line):
            bad.append(f'{console}: {line.strip()}')
            break
    for line in text.splitlines():
        if line.startswith('# '):
            print(line)
        f = line.split()
        if len(f) >= 3 and f[0] == 'bench':
            if f[1] not in order:
                order.append(f[1])
            vals[variant].setdefault(f[1], []).append(float(f[2]))

def mean(v):
    return sum(v) / len(v)

def spread(v):
    return 100.0 * (max(v) - min(v)) / min(v) if v and min(v) > 0 else 0.0

unit = 'guest ns (icount: ~instructions)' if icount == '1' else 'guest ns (wall clock)'
print(f'== make bench, {arch}: ns per operation, {unit}')
print(f'{"row":16} {"upstream":>10} {"ours":>10} {"ours/up":>8} '
      f'{"spread up":>9} {"spread ours":>11}')
slower = []
worst = 0.0
for row in order:
    a, b = vals['ref'].get(row, []), vals['ours'].get(row, [])
    if not a or not b:
        bad.append(f'row {row}: missing for {"upstream" if not a else "ours"}')
        continue
    ratio = mean(b) / mean(a)
    worst = max(worst, spread(a), spread(b))
    mark = ''
    if ratio > 1 + margin / 100:
        slower.append(row)
        mark = '  SLOWER'
    print(f'{row:16} {mean(a):10.1f} {mean(b):10.1f} {ratio:8.3f} '
          f'{spread(a):8.2f}% {spread(b):10.2f}%{mark}')
for msg in bad:
    print(f'error: {msg}')
boots = len(vals['ref'].get(order[0], [])) if order else 0
print(f'{len(order)} rows, {boots} boot(s) of each kernel; largest repeat '
      f'spread {worst:.2f}%, margin {margin:g}%')
if boots < 2:
    print('note: one boot of each kernel: no repeats to check the margin against')
elif worst > margin / 2:
    print(f'note: repeats spread {worst:.2f}%, more than half the margin: '
          'the margin may be too tight for this run')
if bad:
    print('verdict: FAIL (a guest or a row failed)')
    sys.exit(1)
if slower:
    print(f'verdict: FAIL, ours slower than upstream by more than {margin:g}% on: '
          + ' '.join(slower))
    sys.exit(1)
print(f'verdict: PASS, ours within {margin:g}% of upstream or faster on every row')
PY
[ $fail = 0 ] || { log "a guest did not power off cleanly"; rc=1; }
exit $rc
