#!/bin/bash
# compare.sh: upstream (ref) and ours, test by test, for each arch.
#
# Usage: rig/compare.sh "ARCHES" DEBUG
# Runs `check` for whichever variant has no results yet, then prints one
# row per test with both results; rows where they differ are marked.
source "$(dirname "$0")/lib.sh"

ARCHES=$1 DEBUG=${2:-0}
for ARCH in $ARCHES; do
	for v in ref ours; do
		if [ ! -f "$(variant_dir $v "$ARCH" "$DEBUG")/results.tsv" ]; then
			"$RIG/check.sh" $v "$ARCH" "$DEBUG" >/dev/null 2>&1 || true
		fi
	done
done
exec python3 - "$BUILD" "$DEBUG" $ARCHES <<'PY'
import os, sys
build, debug, arches = sys.argv[1], sys.argv[2], sys.argv[3:]
suffix = '-debug' if debug == '1' else ''
for arch in arches:
    res = {}
    for v in ('ref', 'ours'):
        res[v] = {}
        try:
            for line in open(f'{build}/{v}-{arch}{suffix}/results.tsv'):
                rid, r, *_ = line.rstrip('\n').split('\t') + ['']
                res[v][rid] = r
        except FileNotFoundError:
            pass
    ids = sorted(set(res['ref']) | set(res['ours']))
    w = max([len(i) for i in ids] + [20])
    print(f'== {arch}{suffix}: upstream vs ours')
    print(f'{"test":{w}}  {"upstream":8}  {"ours":8}')
    diff = 0
    for i in ids:
        a, b = res['ref'].get(i, '-'), res['ours'].get(i, '-')
        same = a == b or (a == 'pass' and b == 'xpass')
        diff += not same
        print(f'{i:{w}}  {a:8}  {b:8}{"" if same else "  <>"}')
    print(f'{len(ids)} tests, {diff} differ\n')
PY
