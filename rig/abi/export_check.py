#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""export_check.py: what upstream's perf exports to modules, ours exports.

Usage: export_check.py ARCH BUILD_DIR BASE_TREE REMOVE_LIST MISSING_LIST

Upstream's exports are read from the base tree's sources that REMOVE_LIST
takes out (the perf core, and the PMU drivers of ARCH): every
EXPORT_SYMBOL, EXPORT_SYMBOL_GPL and EXPORT_STATIC_CALL_*, whatever the
config.  Ours are read from BUILD_DIR/Module.symvers: what the built kernel
really exports, and under which licence.

Each upstream export is a TAP test: ok when ours exports the symbol under
the same licence (GPL-only stays GPL-only, a plain export stays plain).
MISSING_LIST names the exports ours lacks on purpose (a feature not built),
each with the reason, for one arch or both; such a test is reported as
"ok ... # TODO" with the reason, and an entry whose symbol is exported
after all fails, so the list cannot go stale.  Exit 1 when a test failed.
"""
import os
import re
import sys

EXPORT_RE = re.compile(
    r'^\s*(EXPORT_SYMBOL(?:_GPL)?|EXPORT_STATIC_CALL(?:_TRAMP)?(?:_GPL)?)'
    r'\(\s*(\w+)\s*\)', re.M)

# arch-specific directories of remove.list; the rest is common
ARCH_PATHS = {'x86_64': ('arch/x86/',), 'arm64': ('drivers/perf/', 'arch/arm64/')}


def upstream_exports(arch, base, remove_list):
    paths = []
    for line in open(remove_list):
        line = line.split('#')[0].strip()
        if not line or line.startswith('include/'):
            continue
        other = [a for a in ARCH_PATHS if a != arch]
        if any(line.startswith(p) for a in other for p in ARCH_PATHS[a]):
            continue
        paths.append(line)
    found = {}
    for p in paths:
        full = os.path.join(base, p)
        files = []
        if os.path.isdir(full):
            for d, _, names in os.walk(full):
                files += [os.path.join(d, n) for n in names if n.endswith('.c')]
        elif os.path.isfile(full):
            files.append(full)
        for f in sorted(files):
            for kind, name in EXPORT_RE.findall(open(f, errors='replace').read()):
                gpl = kind.endswith('_GPL')
                if kind.startswith('EXPORT_STATIC_CALL'):
                    # the trampoline is always exported; the key unless _TRAMP
                    syms = ['__SCT__' + name]
                    if '_TRAMP' not in kind:
                        syms.append('__SCK__' + name)
                else:
                    syms = [name]
                for s in syms:
                    found[s] = (gpl, os.path.relpath(f, base))
    return found


def our_exports(build):
    """What vmlinux exports: Module.symvers (the build runs the modules
    target when CONFIG_MODULES is on), rows of vmlinux only."""
    ours = {}
    for line in open(os.path.join(build, 'Module.symvers')):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 4 and f[2] == 'vmlinux':
            ours[f[1]] = f[3].endswith('_GPL')
    return ours


def missing_list(path, arch):
    known = {}
    for line in open(path):
        line = line.split('#')[0].rstrip()
        if not line.strip():
            continue
        m = re.match(r'(\S+)\s+(\S+)\s+(.*)', line)
        if m and m.group(2) in ('all', arch):
            known[m.group(1)] = m.group(3).strip()
    return known


def main():
    arch, build, base, remove_list, miss = sys.argv[1:6]
    up = upstream_exports(arch, base, remove_list)
    try:
        ours = our_exports(build)
    except OSError as e:
        # a check that cannot run must not vanish from the results
        print('TAP version 13\n1..1')
        print(f'not ok 1 Module.symvers # cannot read it: {e}')
        return 1
    known = missing_list(miss, arch)
    print('TAP version 13')
    print(f'1..{len(up)}')
    bad = 0
    for n, sym in enumerate(sorted(up), 1):
        gpl, src = up[sym]
        lic = 'GPL' if gpl else 'any'
        if sym in ours and ours[sym] == gpl:
            if sym in known:
                print(f'not ok {n} {sym} # exported now: drop it from {os.path.basename(miss)}')
                bad += 1
            else:
                print(f'ok {n} {sym} ({lic})')
        elif sym in ours:
            print(f'not ok {n} {sym} # licence differs: upstream {lic} ({src})')
            bad += 1
        elif sym in known:
            print(f'ok {n} {sym} # TODO not exported: {known[sym]}')
        else:
            print(f'not ok {n} {sym} # not exported ({lic}, upstream {src})')
            bad += 1
    extra = sorted(s for s in ours if s not in up and s.startswith(('perf_', 'x86_perf')))
    for s in extra:
        print(f'# ours only: {s}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
