#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: make bench. The cost perf_events adds to context switches,
# read() and ioctl(ENABLE/DISABLE), how some costs grow with the number of
# events (the scaling rows), what sampling costs and sustains, and what
# attaching to and profiling a process of many threads costs (the process
# rows), ours against upstream.
#
# Usage: rig/bench.sh [ARCH]   (x86_64 by default, or arm64)
#
# Uses the kernels already in build/ref-ARCH and build/ours-ARCH (builds
# whichever is missing through build-kernel.sh, which takes the build
# lock; SKIP_KERNEL=0 rebuilds both first), builds both bench initramfs
# images, then boots ref, ours, ref, ours, ... (ROUNDS pairs, the same
# order every time) with MODE=bench under -icount shift=0. Each guest runs
# rig/bench/perf_bench, which prints
# "bench <row> <value> iters=<n> [unit=<u>] [better=higher] [key=value...]"
# (ns per operation and lower is better unless the line says otherwise).
#
# Prints one table line per row: the upstream and our value (mean over
# the rounds), ratio ours/upstream, which direction is better, and how far
# the rounds of each kernel spread; then two tables for the scaling rows:
# the cost each ctxsw row adds over ctxsw-0, and each scaling family's
# slope, (value at the largest N - value at the smallest N) / (largest N -
# smallest N) in ns per extra event; then three tables for the process
# rows (attach-thread-T and attach-process-T side by side: time,
# descriptors, locked memory; the same for profile-*-T with the samples
# read and lost; ctxsw-1, ctxsw-inherit-1 and ctxsw-process-1 over
# ctxsw-0); then each row's extra fields and the sample-rate-max steps of
# the last boot, and a verdict. Exit status non-zero when a guest fails,
# a row is missing, or ours is worse than upstream by more than the
# margin on any row but the new aux-write-256, hw-sample-1, lbr-sample-32
# and pebs-sample-1,
# the scaling rows (ctxsw-cpu-*, ctxsw-sys-*,
# mmap-sys-*, fork-sys-*, tick-freq-*, bp-open-*) and the process rows
# (attach-*, profile-*, ctxsw-process-*): those are new and report only,
# marked "worse (report only)" in the table, and never fail the run.
# ctxsw-inherit-1 is held to the margin like ctxsw-1. The rows that use
# our PERF_FLAG_PID_PROCESS (attach-process-*, profile-process-*,
# ctxsw-process-*) exist on ours only: upstream lacking them is fine,
# and they are shown as "ours only (report only)"; ours leaving them out
# (its info line saying the kernel refused the flag) fails the run.
#
# The guests get SMP vCPUs, 8 unless set (rig/qemu.sh boots 2 for every
# other mode): the scaling rows open events on, or bound to, every CPU,
# and two CPUs would hide a cost that grows with their number. Under
# -icount QEMU runs all vCPUs round-robin in one host thread and skips
# over idle time, so vCPUs with nothing to run cost little.
#
# Environment: ROUNDS (pairs of boots, default 2), MARGIN (percent,
# default 1), SAMPLE_MARGIN (percent, default 3, for the ns/sample and
# samples/s rows; see Documentation/perf_events/rig.rst for both),
# SMP (vCPUs, default 8), ICOUNT=0 (wall-clock guest time instead:
# noisy, for curiosity only), TIMEOUT (seconds per guest, default 1800),
# BUILD, KSRC as for the rest of the rig.
source "$(dirname "$0")/lib.sh"

ARCH=${1:-x86_64}
ROUNDS=${ROUNDS:-2}
MARGIN=${MARGIN:-1}
SAMPLE_MARGIN=${SAMPLE_MARGIN:-3}
export ICOUNT=${ICOUNT:-1}
export SMP=${SMP:-8}
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
python3 - "$RIG" "$ARCH" "$MARGIN" "$SAMPLE_MARGIN" "$ICOUNT" "$SMP" "${runs[@]}" <<'PY' || rc=$?
import re
import sys
sys.path.insert(0, sys.argv[1])
from results import SPLAT_RE

arch, margin, smargin, icount, smp = (sys.argv[2], float(sys.argv[3]),
                                      float(sys.argv[4]), sys.argv[5],
                                      sys.argv[6])
args = sys.argv[7:]
# the scaling rows: new, so reported but never held to the margin
FAMILIES = ('ctxsw-cpu', 'ctxsw-sys', 'mmap-sys', 'fork-sys', 'tick-freq',
            'bp-open')
# other new rows, report only until they have a history: the AUX write
# path, hardware samples with and without a branch stack
NEW_ROWS = ('aux-write', 'hw-sample', 'lbr-sample', 'pebs-sample')
# the rows of a process of many threads: new, so report only as well;
# the process-wide ones use our PERF_FLAG_PID_PROCESS, which upstream
# refuses, so they come from ours alone
PROCESS_FAMILIES = ('attach-thread', 'attach-process', 'profile-thread',
                    'profile-process', 'ctxsw-process')
SCALING_RE = re.compile('(' + '|'.join(FAMILIES + PROCESS_FAMILIES + NEW_ROWS) +
                        r')-\d+(-\w+)?$')
OURS_ONLY_RE = re.compile(r'(attach-process|profile-process|ctxsw-process)-')
vals = {'ref': {}, 'ours': {}}
# per row: unit, which direction is better, the last boot's extra fields
unit, better = {}, {}
extra = {'ref': {}, 'ours': {}}
info = {'ref': [], 'ours': []}
order = []
bad = []

def merge(rows):
    # add a boot's rows to order, each new one after its predecessor there
    prev = None
    for row in rows:
        if row not in order:
            order.insert(order.index(prev) + 1 if prev else 0, row)
        prev = row
for i in range(0, len(args), 3):
    variant, tap, console = args[i:i + 3]
    text = open(tap, errors='replace').read()
    if 'KPERF-END bench perf_bench exit=0' not in text or 'KPERF-DONE' not in text:
        bad.append(f'{tap}: the benchmark did not finish cleanly')
    for line in open(console, errors='replace'):
        if SPLAT_RE.search(line):
            bad.append(f'{console}: {line.strip()}')
            break
    boot_info = []
    boot_rows = []
    for line in text.splitlines():
        if line.startswith('# '):
            print(line)
        f = line.split()
        if len(f) >= 2 and f[0] == 'info':
            boot_info.append(' '.join(f[1:]))
            # ours must take its own flag: its rows are not optional
            if variant == 'ours' and 'process rows are left out' in line:
                bad.append(f'{tap}: {line}')
        if len(f) >= 3 and f[0] == 'bench':
            row = f[1]
            boot_rows.append(row)
            vals[variant].setdefault(row, []).append(float(f[2]))
            kv = dict(x.split('=', 1) for x in f[3:] if '=' in x)
            unit[row] = kv.pop('unit', 'ns/op')
            better[row] = kv.pop('better', 'lower')
            kv.pop('iters', None)
            extra[variant][row] = kv
    merge(boot_rows)
    if boot_info:
        info[variant] = boot_info

def mean(v):
    return sum(v) / len(v)

def spread(v):
    return 100.0 * (max(v) - min(v)) / min(v) if v and min(v) > 0 else 0.0

def row_margin(row):
    # rows derived from a difference of two runs, or from a step search,
    # get the sampling margin (rig.rst, "Benchmarks")
    return smargin if unit[row] in ('ns/sample', 'samples/s') else margin

# the row column: as wide as the longest name
rw = max([16] + [len(r) for r in order])
clock = 'icount: guest ns ~ instructions' if icount == '1' else 'wall clock'
print(f'== make bench, {arch}, {smp} vCPUs: ours against upstream ({clock}); '
      'ratio = ours/upstream')
print(f'{"row":{rw}} {"unit":10} {"upstream":>14} {"ours":>14} {"ours/up":>8} '
      f'{"better":>6} {"spread up":>9} {"spread ours":>11}')
worse, worse_scaling = [], []
worst = 0.0
for row in order:
    a, b = vals['ref'].get(row, []), vals['ours'].get(row, [])
    if not a and b and OURS_ONLY_RE.match(row):
        # upstream has no such event: shown, never compared
        worst = max(worst, spread(b))
        print(f'{row:{rw}} {unit[row]:10} {"-":>14} {mean(b):14.1f} {"-":>8} '
              f'{better[row]:>6} {"-":>9} {spread(b):10.2f}%  ours only '
              '(report only)')
        continue
    if not a or not b:
        bad.append(f'row {row}: missing for {"upstream" if not a else "ours"}')
        continue
    ma, mb = mean(a), mean(b)
    ratio = mb / ma if ma else (1.0 if mb == ma else float('inf'))
    worst = max(worst, spread(a), spread(b))
    m = row_margin(row)
    mark = ''
    if better[row] == 'higher' and ratio < 1 - m / 100:
        mark = '  WORSE'
    elif better[row] != 'higher' and ratio > 1 + m / 100:
        mark = '  WORSE'
    if mark and SCALING_RE.match(row):
        mark = '  worse (report only)'
        worse_scaling.append(row)
    elif mark:
        worse.append(row)
    print(f'{row:{rw}} {unit[row]:10} {ma:14.1f} {mb:14.1f} {ratio:8.3f} '
          f'{better[row]:>6} {spread(a):8.2f}% {spread(b):10.2f}%{mark}')

def both(row):
    # a row's mean on each kernel, or None when either lacks it
    a, b = vals['ref'].get(row), vals['ours'].get(row)
    return (mean(a), mean(b)) if a and b else None

def ratio_of(a, b):
    # ours/upstream of two costs; meaningless when upstream's is not > 0
    return f'{b / a:8.2f}' if a > 0 else f'{"-":>8}'

def print_added(floor, rows, title):
    # each row's cost over the floor's, per kernel, and their ratio
    rows = [r for r in rows if both(r)]
    if not both(floor) or not rows:
        return
    za, zb = both(floor)
    print(f'added cost: {title}; ratio = ours/upstream of the added cost')
    print(f'{"row":16} {"upstream":>14} {"ours":>14} {"ours/up":>8}')
    for row in rows:
        a, b = both(row)
        print(f'{row:16} {a - za:14.1f} {b - zb:14.1f} '
              f'{ratio_of(a - za, b - zb)}')

# what the events add to a round trip: each ctxsw row less ctxsw-0
print_added('ctxsw-0',
            [r for r in order if r in ('ctxsw-1', 'ctxsw-8') or
             r.startswith(('ctxsw-cpu-', 'ctxsw-sys-', 'ctxsw-hw-'))],
            'ns per round trip over ctxsw-0 (no event)')
# what perf adds to a read() or an ioctl() pair: each row less its floor
for floor, rows in (('read-0', ('read-1', 'read-group-8', 'hw-read-1')),
                    ('ioctl-0', ('ioctl-1', 'ioctl-group-8'))):
    print_added(floor, rows,
                f'ns per operation over {floor} (the same syscall on '
                '/dev/zero)')

# how each family's cost grows per event: the end points of its N range
slopes = []
for fam in FAMILIES:
    pts = sorted((int(m.group(1)), r) for r in order
                 for m in [re.fullmatch(re.escape(fam) + r'-(\d+)', r)]
                 if m and both(r))
    if len(pts) >= 2:
        slopes.append((fam, pts[0], pts[-1]))
if slopes:
    print('slope: (value at largest N - value at smallest N) / (largest N - '
          'smallest N), ns per extra event; ratio = ours/upstream')
    print(f'{"family":16} {"unit":10} {"N":>9} {"upstream":>14} {"ours":>14} '
          f'{"ours/up":>8}')
    for fam, (n0, r0), (n1, r1) in slopes:
        (a0, b0), (a1, b1) = both(r0), both(r1)
        sa, sb = (a1 - a0) / (n1 - n0), (b1 - b0) / (n1 - n0)
        print(f'{fam:16} {unit[r0]:10} {f"{n0}..{n1}":>9} {sa:14.2f} '
              f'{sb:14.2f} {ratio_of(sa, sb)}')

def one(v, row):
    # a row's mean on one kernel, or None
    return mean(vals[v][row]) if vals[v].get(row) else None

def field(v, row, key):
    return extra[v].get(row, {}).get(key, '-')

def cell(x, width, fmt='.1f'):
    return f'{x:{width}{fmt}}' if x is not None else f'{"-":>{width}}'

WAYS = (('thread', 'ref', 'upstream'), ('thread', 'ours', 'ours'),
        ('process', 'ours', 'ours'))
# attaching to a process of T threads: the per-thread way (perf record
# -p) on each kernel, and ours' one process-wide event
ts = sorted({int(m.group(1)) for r in order
             for m in [re.fullmatch(r'attach-(?:thread|process)-(\d+)', r)]
             if m})
if ts:
    print('attach: a sampling event on a process of T blocked threads; '
          'thread = one event per thread per CPU and a buffer per CPU '
          '(perf record -p), process = one PERF_FLAG_PID_PROCESS event '
          'and one buffer (ours only)')
    print(f'{"T":>6} {"way":8} {"kernel":8} {"ns/attach":>14} {"fds":>7} '
          f'{"locked_kb":>9} {"detach ns":>14}')
    for t in ts:
        for way, v, name in WAYS:
            row = f'attach-{way}-{t}'
            if row not in vals[v]:
                continue
            print(f'{t:6} {way:8} {name:8} {cell(one(v, row), 14)} '
                  f'{field(v, row, "fds"):>7} '
                  f'{field(v, row, "locked_kb"):>9} '
                  f'{field(v, row, "detach_ns"):>14}')
    if len(ts) >= 2:
        t0, t1 = ts[0], ts[-1]
        slopes = []
        for way, v, name in WAYS:
            a0, a1 = (one(v, f'attach-{way}-{t}') for t in (t0, t1))
            if a0 is not None and a1 is not None:
                slopes.append(f'{way}/{name} {(a1 - a0) / (t1 - t0):.1f}')
        print(f'  ns per extra thread (T {t0}..{t1}): ' + ', '.join(slopes))

# profiling a process of T busy threads: what each way wrote and lost
prows = sorted({int(m.group(2)) for r in order
                for m in [re.fullmatch(r'profile-(thread|process)-(\d+)', r)]
                if m})
if prows:
    print('profile: T threads on CPUs 1.. each run a loop once, sampled at a '
          'fixed task-clock period, while CPU 0 drains the buffers (8 data '
          'pages each) on every wakeup')
    print(f'{"T":>6} {"way":8} {"kernel":8} {"ns/run":>14} {"samples":>9} '
          f'{"expected":>9} {"lost":>7} {"threads":>7} {"fds":>6} '
          f'{"locked_kb":>9} {"throttles":>9} {"wakeups":>7}')
    unsampled = []
    for t in prows:
        for way, v, name in WAYS:
            row = f'profile-{way}-{t}'
            if row not in vals[v]:
                continue
            print(f'{t:6} {way:8} {name:8} {cell(one(v, row), 14)} '
                  + ' '.join(f'{field(v, row, k):>{w}}' for k, w in
                             (('samples', 9), ('expected', 9), ('lost', 7),
                              ('threads_sampled', 7), ('fds', 6),
                              ('locked_kb', 9), ('throttles', 9),
                              ('wakeups', 7))))
            if (field(v, row, 'threads_sampled') != str(t) and
                    field(v, row, 'lost') == '0'):
                unsampled.append(f'{row} on {name}')
    for what in unsampled:
        print(f'note: {what}: a thread has no samples though none were lost '
              '(the info lines below name it)')

# a context switch of a task whose one event is its own (ctxsw-1),
# inherited (ctxsw-inherit-1) or process-wide (ctxsw-process-1)
crows = [r for r in ('ctxsw-1', 'ctxsw-inherit-1', 'ctxsw-process-1')
         if r in order]
if len(crows) > 1 and both('ctxsw-0'):
    za, zb = both('ctxsw-0')
    print('ctxsw: ns per round trip over ctxsw-0 with one task-clock event '
          'per task: per thread, inherited, process-wide (ours only)')
    print(f'{"row":16} {"upstream":>14} {"ours":>14} {"ours/up":>8}')
    for row in crows:
        a, b = one('ref', row), one('ours', row)
        a = a - za if a is not None else None
        b = b - zb if b is not None else None
        r = ratio_of(a, b) if a is not None and b is not None else '-'
        print(f'{row:16} {cell(a, 14)} {cell(b, 14)} {r:>8}')

details = [r for r in order if extra['ref'].get(r) or extra['ours'].get(r)]
if details:
    print('details (last boot of each kernel):')
    for row in details:
        for v, name in (('ref', 'upstream'), ('ours', 'ours')):
            if row not in vals[v]:
                continue
            kv = extra[v].get(row, {})
            print(f'  {row:{rw}} {name:8} ' +
                  ' '.join(f'{k}={x}' for k, x in kv.items()))
    for v, name in (('ref', 'upstream'), ('ours', 'ours')):
        for line in info[v]:
            print(f'  {name:8} {line}')
# a kernel built for fewer CPUs (CONFIG_NR_CPUS) brings up fewer vCPUs
seen = {kv['cpus'] for v in extra.values() for kv in v.values() if 'cpus' in kv}
if seen and seen != {smp}:
    print(f'note: the guests saw {"/".join(sorted(seen))} CPUs, not {smp}: '
          'the scaling rows measured fewer CPUs than asked for '
          '(CONFIG_NR_CPUS?)')
for msg in bad:
    print(f'error: {msg}')
boots = len(vals['ref'].get(order[0], [])) if order else 0
print(f'{len(order)} rows, {boots} boot(s) of each kernel; largest repeat '
      f'spread {worst:.2f}%, margin {margin:g}% ({smargin:g}% for the '
      'ns/sample and samples/s rows)')
if boots < 2:
    print('note: one boot of each kernel: no repeats to check the margin against')
else:
    for row in order:
        sp = max(spread(vals['ref'].get(row, [])), spread(vals['ours'].get(row, [])))
        if sp > row_margin(row) / 2:
            print(f'note: {row}: repeats spread {sp:.2f}%, more than half its '
                  'margin: the margin may be too tight for this run')
if bad:
    print('verdict: FAIL (a guest or a row failed)')
    sys.exit(1)
if worse_scaling:
    print('report only (scaling and process rows, not part of the verdict): '
          'ours worse than upstream beyond the margin on: ' +
          ' '.join(worse_scaling))
if worse:
    print('verdict: FAIL, ours worse than upstream beyond the margin on: '
          + ' '.join(worse))
    sys.exit(1)
print('verdict: PASS, ours within the margin of upstream or better on every '
      'row but the report-only rows')
PY
[ $fail = 0 ] || { log "a guest did not power off cleanly"; rc=1; }
exit $rc
