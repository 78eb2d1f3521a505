#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-intel-tables.py: arch/x86/events/intel/tables.c from Intel's event lists.

Usage: rig/tools/gen-intel-tables.py KSRC > arch/x86/events/intel/tables.c

KSRC is a Linux 6.12 tree (rig/lib.sh base_tree: Debian's linux-source-6.12).
Its tools/perf/pmu-events/arch/x86/ holds Intel's per-model event lists as
perf ships them (one directory per model family, mapfile.csv mapping
GenuineIntel-<family>-<model> patterns to a directory and its version), and
arch/x86/include/asm/intel-family.h the INTEL_* names of the models.

For each family listed in FAMILIES below this derives:

 - counter constraints: every event whose "Counter" field is not the whole
   set of general-purpose counters the list uses (the widest "Counter" set
   in it). An event select whose documented unit masks all have the same
   restriction is restricted whatever its unit mask; otherwise each
   restricted unit mask is, and where the variants of one unit mask
   (CounterMask, EdgeDetect, Invert) disagree, each restricted variant
   exactly. Entries with the same encoding (renamed, deprecated or
   MSR-qualified events) get the intersection of their sets. Event select
   0 (fixed-counter pseudo-encodings) is left to the hand-written rule
   every table starts with; 0x3c and 0xc0, which fixed counters also
   count, are never restricted for every unit mask at once.
 - a generic cache map (PERF_TYPE_HW_CACHE) from the events CACHE_EVENTS
   names, for the ones the list has; events that need an extra MSR
   (offcore response, load latency) are not offered, nor are the last level
   and node entries, which need them.
 - the model table: each model mapfile.csv sends to the family (an exact
   family-model pattern; the stepping-qualified ones are skipped), by its
   intel-family.h name, with the core type for the two kinds of a hybrid
   part, the caps/pmu_name string and the tables.

Identical tables are emitted once. The output is deterministic.
"""
import glob
import json
import os
import re
import sys

# directory, "Unit" of the events to take (hybrid lists) or None, core type
# (CPUID.1AH:EAX[31:24]: 0x40 Core, 0x20 Atom; 0 = not hybrid), the C
# name of its tables, caps/pmu_name (ABI: the string upstream reports)
FAMILIES = [
    ('icelake', None, 0, 'icl', 'icelake'),
    ('icelakex', None, 0, 'icx', 'icelake'),
    ('tigerlake', None, 0, 'tgl', 'icelake'),
    ('rocketlake', None, 0, 'rkl', 'icelake'),
    ('alderlake', 'cpu_core', 0x40, 'adl_core', 'alderlake_hybrid'),
    ('alderlake', 'cpu_atom', 0x20, 'adl_atom', 'alderlake_hybrid'),
    ('alderlaken', None, 0, 'adln', 'gracemont'),
    ('sapphirerapids', None, 0, 'spr', 'sapphire_rapids'),
    ('emeraldrapids', None, 0, 'emr', 'sapphire_rapids'),
    ('graniterapids', None, 0, 'gnr', 'granite_rapids'),
    ('meteorlake', 'cpu_core', 0x40, 'mtl_core', 'meteorlake_hybrid'),
    ('meteorlake', 'cpu_atom', 0x20, 'mtl_atom', 'meteorlake_hybrid'),
    ('sierraforest', None, 0, 'srf', 'crestmont'),
    ('grandridge', None, 0, 'grr', 'crestmont'),
    ('lunarlake', 'cpu_core', 0x40, 'lnl_core', 'lunarlake_hybrid'),
    ('lunarlake', 'cpu_atom', 0x20, 'lnl_atom', 'lunarlake_hybrid'),
]

# generic cache event -> event names to use, the first the list has
L, R, W, P = 'C(OP_READ)', 'C(OP_READ)', 'C(OP_WRITE)', 'C(OP_PREFETCH)'
ACC, MISS = 'C(RESULT_ACCESS)', 'C(RESULT_MISS)'
CACHE_EVENTS = [
    ('L1D', R, ACC, ['MEM_INST_RETIRED.ALL_LOADS', 'MEM_UOPS_RETIRED.ALL_LOADS']),
    ('L1D', R, MISS, ['L1D.REPLACEMENT']),
    ('L1D', W, ACC, ['MEM_INST_RETIRED.ALL_STORES', 'MEM_UOPS_RETIRED.ALL_STORES']),
    ('L1I', R, ACC, ['ICACHE.ACCESSES']),
    ('L1I', R, MISS, ['ICACHE_64B.IFTAG_MISS', 'ICACHE.MISSES']),
    ('DTLB', R, ACC, ['MEM_INST_RETIRED.ALL_LOADS', 'MEM_UOPS_RETIRED.ALL_LOADS']),
    ('DTLB', R, MISS, ['DTLB_LOAD_MISSES.WALK_COMPLETED']),
    ('DTLB', W, ACC, ['MEM_INST_RETIRED.ALL_STORES', 'MEM_UOPS_RETIRED.ALL_STORES']),
    ('DTLB', W, MISS, ['DTLB_STORE_MISSES.WALK_COMPLETED']),
    ('ITLB', R, ACC, ['ITLB_MISSES.STLB_HIT']),
    ('ITLB', R, MISS, ['ITLB_MISSES.WALK_COMPLETED']),
    ('BPU', R, ACC, ['BR_INST_RETIRED.ALL_BRANCHES']),
    ('BPU', R, MISS, ['BR_MISP_RETIRED.ALL_BRANCHES']),
]

# core types by their intel.h names
CTYPE = {0: '0', 0x20: 'INTEL_CORE_TYPE_ATOM', 0x40: 'INTEL_CORE_TYPE_CORE'}

# event selects that a fixed counter also counts (with unit mask 0)
FIXED_TWINS = {0x3c, 0xc0}


def num(s):
    return int(s, 0) if s else 0


def load(ksrc, d, unit):
    """The core events of list @d (of @unit): dicts with the fields we use."""
    out = []
    for f in sorted(glob.glob(os.path.join(ksrc, PE, d, '*.json'))):
        base = os.path.basename(f)
        if 'metric' in base or base.startswith('uncore'):
            continue
        for e in json.load(open(f)):
            if 'EventCode' not in e or (unit and e.get('Unit') != unit):
                continue
            cntrs = e.get('Counter', '')
            if not re.fullmatch(r'[0-9]+(,[0-9]+)*', cntrs):
                continue
            for code in e['EventCode'].split(','):
                out.append({
                    'code': num(code.strip()),
                    'umask': num(e.get('UMask')),
                    'var': (num(e.get('CounterMask')),
                            num(e.get('EdgeDetect')),
                            num(e.get('Invert'))),
                    'cntrs': sum(1 << int(c) for c in cntrs.split(',')),
                    'name': e['EventName'],
                    'msr': bool(e.get('MSRIndex')) and
                    e.get('MSRIndex') != '0x00',
                })
    return out


def same(evs):
    """The intersection of the sets of @evs: one encoding, one answer."""
    s = ~0
    for e in evs:
        s &= e['cntrs']
    if len({e['cntrs'] for e in evs}) > 1:
        print(f'  note: {evs[0]["name"]} and others of one encoding differ;'
              ' intersecting', file=sys.stderr)
    return s


def family(names):
    """What a set of event names has in common, for a comment."""
    pre = {n.split('.')[0] for n in names}
    if len(pre) == 1:
        return pre.pop() + ('.*' if len(set(names)) > 1 else
                            '.' + names[0].split('.', 1)[1])
    return ', '.join(sorted(pre))


def constraints(evs):
    """The restricted encodings of a list: (kind, value, cntrs, comment)."""
    full = 0
    for e in evs:
        full |= e['cntrs']
    rows = []
    for code in sorted({e['code'] for e in evs}):
        if code == 0:
            continue
        ce = [e for e in evs if e['code'] == code]
        umasks = sorted({e['umask'] for e in ce})
        per_um = {u: [e for e in ce if e['umask'] == u] for u in umasks}
        sets = {}
        for u in umasks:
            variants = {e['var'] for e in per_um[u]}
            sets[u] = {v: same([e for e in per_um[u] if e['var'] == v])
                       for v in variants}
        allsets = {s for u in sets for s in sets[u].values()}
        if len(allsets) == 1 and code not in FIXED_TWINS:
            s = allsets.pop()
            if s != full:
                rows.append(('event', code, s,
                             family([e['name'] for e in ce])))
            continue
        for u in umasks:
            vs = set(sets[u].values())
            if len(vs) == 1:
                s = vs.pop()
                if s != full:
                    names = sorted({e['name'] for e in per_um[u]})
                    rows.append(('umask', u << 8 | code, s, names[0] +
                                 (', ...' if len(names) > 1 else '')))
                continue
            for v, s in sorted(sets[u].items()):
                if s == full:
                    continue
                cmask, edge, inv = v
                val = cmask << 24 | inv << 23 | edge << 18 | u << 8 | code
                names = sorted({e['name'] for e in per_um[u]
                                if e['var'] == v})
                rows.append(('exact', val, s, names[0]))
    return full, rows


def cache_map(evs):
    """[type][op][result] -> (encoding, event name) for the events listed."""
    by_name = {}
    for e in evs:
        by_name.setdefault(e['name'], e)
    out = []
    for typ, op, res, names in CACHE_EVENTS:
        for n in names:
            e = by_name.get(n)
            if not e or e['msr']:
                continue
            cmask, edge, inv = e['var']
            val = (cmask << 24 | inv << 23 | edge << 18 |
                   e['umask'] << 8 | e['code'])
            out.append((typ, op, res, val, n))
            break
    return out


def models(ksrc):
    """mapfile.csv: directory -> (version, [model numbers])."""
    out = {}
    with open(os.path.join(ksrc, PE, 'mapfile.csv')) as f:
        for line in f.read().splitlines()[1:]:
            pat, ver, d, typ = line.split(',')
            if typ != 'core' or not pat.startswith('GenuineIntel-6-'):
                continue
            ms = [m for m in range(256)
                  if re.fullmatch(pat, f'GenuineIntel-6-{m:02X}')]
            out[d] = (ver, ms)
    return out


def vfm_names(ksrc):
    """family 6 model number -> the intel-family.h names (first wins)."""
    out = {}
    path = os.path.join(ksrc, 'arch/x86/include/asm/intel-family.h')
    for line in open(path):
        m = re.match(r'#define\s+(INTEL_\w+)\s+IFM\(6,\s*0x([0-9A-Fa-f]+)\)',
                     line)
        if m:
            out.setdefault(int(m.group(2), 16), m.group(1))
    return out


def cntrs_str(s):
    return f'0x{s:x}'


MACRO = {'event': 'X86_CONSTRAIN_EVENT', 'umask': 'X86_CONSTRAIN_EVENT_UMASK',
         'exact': 'INTEL_CONSTRAIN_EXACT'}


def line(code, comment, tabs_to=48):
    """@code and a trailing comment at a tab stop, kept within 100 columns."""
    width = len(code.expandtabs(8))
    pad = '\t' * max(1, (tabs_to - width + 7) // 8)
    col = len((code + pad).expandtabs(8))
    room = 100 - col - 6
    if len(comment) > room:
        comment = comment[:room - 3] + '...'
    return f'{code}{pad}/* {comment} */'


PE = 'tools/perf/pmu-events/arch/x86'


def main():
    ksrc = sys.argv[1]
    maps = models(ksrc)
    names = vfm_names(ksrc)
    out = []
    table_of = {}       # prefix -> (cache map symbol, constraints symbol)
    notes = []
    w = out.append

    tables = []         # [C type, symbol, body, users, stats], in order
    by_body = {}

    def table(ctype, sym, cbody, what, stats=''):
        key = (ctype, cbody)
        if key not in by_body:
            by_body[key] = [ctype, sym, cbody, [], stats]
            tables.append(by_body[key])
        by_body[key][3].append(what)
        return by_body[key][1]

    for d, unit, ctype, pre, pmu_name in FAMILIES:
        evs = load(ksrc, d, unit)
        if not evs:
            sys.exit(f'{d}: no events')
        full, rows = constraints(evs)
        c = []
        order = {'exact': 0, 'umask': 1, 'event': 2}
        for kind, val, s, comment in sorted(rows, key=lambda r:
                                             (order[r[0]], r[1] & 0xff, r[1])):
            c.append(line(f'\t{MACRO[kind]}(0x{val:04x}, {cntrs_str(s)}),',
                          comment))
        c.append('\t{ }')
        what = f'{d}' + (f' ({unit})' if unit else '')
        csym = table('struct x86_constraint', f'{pre}_constraints',
                     '\n'.join(c), what,
                     f'{len(rows)} restricted encoding'
                     f'{"" if len(rows) == 1 else "s"} of counters 0x{full:x}')
        mb = '\n'.join(line(f'\t[C({t})][{o}][{r}] = 0x{v:04x},', n, 56)
                       for t, o, r, v, n in cache_map(evs))
        msym = table('x86_cache_map_t', f'{pre}_cache_map', mb, what)
        table_of[(d, unit)] = (msym, csym)
        notes.append((d, unit, ctype, pmu_name))

    body = []
    for ctype, sym, cbody, users, stats in tables:
        head = ', '.join(users) + (f': {stats}' if stats else '')
        body.append('/*' if len(head) > 70 else f'/* {head} */')
        if len(head) > 70:
            body.extend(f' * {chunk}' for chunk in wrap(head, 70))
            body.append(' */')
        arr = '[]' if ctype.startswith('struct') else ''
        body.append(f'static const {ctype} {sym}{arr} = {{')
        body.append(cbody)
        body.append('};\n')

    rows = []
    versions = []
    for d, unit, ctype, pmu_name in notes:
        ver, ms = maps[d]
        if (d, ver) not in versions:
            versions.append((d, ver))
        msym, csym = table_of[(d, unit)]
        for m in ms:
            vfm = names.get(m, f'IFM(6, 0x{m:02X})')
            rows.append(f'\t{{ {vfm}, {CTYPE[ctype]}, "{pmu_name}",\n'
                        f'\t  &{msym}, {csym} }},')

    vers = ', '.join(f'{d} {v}' for d, v in versions)
    w('// SPDX-License-Identifier: GPL-2.0-only')
    w('/*')
    w(' * x86 perf_events, Intel: per-model counter constraints and cache')
    w(' * maps, and the models they belong to.')
    w(' *')
    w(' * GENERATED by rig/tools/gen-intel-tables.py (which says how) from')
    w(f' * Intel\'s event lists as Linux {kversion(ksrc)} ships them, the JSON '
      'files')
    w(' * of tools/perf/pmu-events/arch/x86/<list>/ and its mapfile.csv: the')
    w(' * "Counter" field of each event for the constraints, the encodings of')
    w(' * named events for the cache maps, mapfile.csv for the models. Lists')
    w(' * and versions:')
    for chunk in wrap(vers, 70):
        w(f' * {chunk}')
    w(' * Do not edit: change the script and run')
    w(' *   rig/tools/gen-intel-tables.py $KSRC > arch/x86/events/intel/tables.c')
    w(' *')
    w(' * A constraint gives the counters (bit n: general-purpose counter n)')
    w(' * an encoding is restricted to; the lists document eight counters per')
    w(' * logical CPU on the Core parts (ten on Lunar Lake) and six or eight')
    w(' * on the Atom ones, so "0-3" there is a real restriction whether SMT')
    w(' * is on or off. Events the lists do not name, and the lists\' own')
    w(' * omissions (Lunar Lake\'s is partial), are unrestricted.')
    w(' */')
    w('')
    w('#include <linux/perf_event.h>')
    w('')
    w('#include <asm/cpu_device_id.h>')
    w('#include <asm/intel-family.h>')
    w('')
    w('#include "../pmu.h"')
    w('#include "intel.h"')
    w('')
    w('#define C(x)\tPERF_COUNT_HW_CACHE_##x')
    w('')
    out.extend(body)
    w('/* every model of those lists, by CPUID family-model and core type */')
    w('const struct intel_model intel_json_models[] = {')
    out.extend(rows)
    w('\t{ }')
    w('};')
    print('\n'.join(out))


def kversion(ksrc):
    """VERSION.PATCHLEVEL.SUBLEVEL of the tree's Makefile."""
    v = {}
    for ln in open(os.path.join(ksrc, 'Makefile')):
        m = re.match(r'(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)', ln)
        if m:
            v[m.group(1)] = m.group(2)
    return f'{v["VERSION"]}.{v["PATCHLEVEL"]}.{v["SUBLEVEL"]}'


def wrap(s, n):
    lines, cur = [], ''
    for word in s.split(' '):
        if cur and len(cur) + 1 + len(word) > n:
            lines.append(cur)
            cur = word
        else:
            cur = f'{cur} {word}' if cur else word
    if cur:
        lines.append(cur)
    return lines


if __name__ == '__main__':
    main()
