#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""results.py: turn one guest run into one result per test.

Usage: rig/results.py BUILD_DIR VARIANT ARCH MODE [MODE...]

Reads BUILD_DIR/MODE-tap.log (test output framed by guest/init.c),
BUILD_DIR/MODE-console.log (the kernel console: KUnit's KTAP and any kernel
splat), BUILD_DIR/abi-tap.log and exports-tap.log (host-side ABI and
export checks, when present), writes
BUILD_DIR/results.tsv (id, result, detail) and prints a summary.

Results: pass, fail, skip (a skip rig/xfail.list expects: a feature the
kernel or the machine lacks, named there), xfail (a failure rig/xfail.list
expects: a feature not built yet, named there by F-id), xpass (an expected
failure or skip that passed: take it off the list; but a line whose reason
starts with "flaky:" names a test that passes in some boots and fails in
others, and its pass stays a pass). A skip that no line of
rig/xfail.list names is a failure, and so is an xpass: a test that skips
where nothing is missing proves nothing. Two synthetic tests judge the run
as a whole: guest/completed (the guest reached the end of its test list)
and guest/clean-log (no Oops, BUG, WARNING, KASAN, lockdep or kmemleak
report; RCU stalls and hung tasks included). Exit status: 0 when nothing failed.

Further MODEs are further boots of the same kernel whose results merge
into the same file and summary: rig/check.sh runs the x86_64
hardware-counter suites in a second boot under -icount (MODE icount).
Their tests keep their ids; the boot's own two are guest/MODE/completed
and guest/MODE/clean-log.
"""
import fnmatch
import os
import re
import sys

# Anything in the kernel log that means the kernel misbehaved, whatever the
# tests said.
SPLATS = [
    r'\bBUG[: ]', r'WARNING:', r'\bOops\b', r'Kernel panic',
    r'general protection fault', r'KASAN', r'UBSAN',
    r'possible circular locking', r'possible recursive locking',
    r'inconsistent lock state', r'suspicious RCU usage',
    r'sleeping function called from invalid context', r'cut here',
    r'soft lockup', r'hard LOCKUP', r'hung_task', r'self-detected stall',
    r'rcu: INFO', r'Call Trace:', r'unreferenced object',
    r'DEBUG_LOCKS_WARN_ON', r'refcount_t: ',
    # RCU stalls and hung tasks as 6.12 words them ("rcu: INFO: rcu_preempt
    # detected stalls on CPUs/tasks:", "rcu_tasks detected stalls on
    # tasks:", "INFO: task x:1 blocked for more than 120 seconds.")
    r'detected stalls? on', r'blocked for more than \d+ seconds',
]
SPLAT_RE = re.compile('|'.join(SPLATS))
# the name stops at a '#' comment, so that a failure's explanation does not
# become part of the test's id
TAP_RE = re.compile(r'^(not ok|ok)\s+\d+\s*-?\s*(.*?)\s*(#\s*(?:(SKIP|TODO|XFAIL)\b)?.*)?$',
                    re.IGNORECASE)
TIME_RE = re.compile(r'^\[\s*\d+\.\d+\]\s?')


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read().replace('\r', '').splitlines()
    except FileNotFoundError:
        return None


def tap_result(m):
    if m.group(4) and m.group(4).upper() == 'SKIP':
        return 'skip'
    return 'pass' if m.group(1) == 'ok' else 'fail'


# what a failed test printed before its result, kept to show in the summary
# (CI shows only the summary): test id -> its last diagnostic lines
NOTES = {}
NOTES_KEPT = 16


def parse_programs(lines, results, prefix=''):
    """Programs framed by KPERF-BEGIN/END: their TAP lines, then exit."""
    cur = None
    done = False
    notes = []
    for line in lines:
        if line.startswith('KPERF-BEGIN '):
            _, suite, name = line.split()[:3]
            cur = {'id': f'{prefix}{suite}/{name}', 'tap': 0, 'failed': 0}
            notes = []
            continue
        if line.startswith('KPERF-END ') and cur:
            status = line.split()[3] if len(line.split()) > 3 else '?'
            if cur['tap'] == 0:
                res = {'exit=0': 'pass', 'exit=4': 'skip'}.get(status, 'fail')
                results.append((cur['id'], res, status))
            elif status not in ('exit=0', 'exit=4') and not cur['failed']:
                results.append((cur['id'] + '/(exit)', 'fail', status))
            cur = None
            continue
        if line.startswith('KPERF-DONE'):
            done = True
            continue
        if line.startswith('KPERF-KMEMLEAK '):
            continue
        if cur:
            m = TAP_RE.match(line.strip()) if not line.startswith(' ') else None
            if m and m.group(2):
                res = tap_result(m)
                cur['tap'] += 1
                cur['failed'] += res == 'fail'
                rid = f"{cur['id']}/{m.group(2)}"
                results.append((rid, res, (m.group(3) or '').lstrip('# ')))
                if res == 'fail':
                    NOTES[rid] = notes[-NOTES_KEPT:]
                notes = []
            elif line.strip().startswith('#') and \
                    not re.match(r'#\s+(RUN|OK|FAIL|SKIP)\b', line.strip()):
                notes.append(line.strip())
    if cur:
        results.append((cur['id'] + '/(incomplete)', 'fail',
                        'the guest stopped while this was running'))
    return done


def parse_kunit(lines, results):
    """KTAP from the kernel console: one result per test case."""
    suite = None
    for raw in lines:
        line = TIME_RE.sub('', raw)
        m = re.match(r'^    # Subtest: (\S+)', line)
        if m:
            suite = m.group(1)
            continue
        m = TAP_RE.match(line[4:]) if line.startswith('    ') and \
            not line.startswith('     ') else None
        if m and suite:
            results.append((f'kunit/{suite}/{m.group(2)}', tap_result(m),
                            (m.group(3) or '').lstrip('# ')))
            continue
        m = TAP_RE.match(line)
        if m and suite and not any(r[0].startswith(f'kunit/{suite}/')
                                   for r in results):
            results.append((f'kunit/{suite}', tap_result(m), ''))
        if m:
            suite = None


def load_xfail(variant, arch):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'xfail.list')
    rules = []
    for line in read(path) or []:
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[0] in (variant, 'all') and \
                parts[1] in (arch, 'all'):
            rules.append((parts[2], parts[3] if len(parts) > 3 else ''))
    return rules


def parse_boot(out, mode, results):
    """One boot's results; returns the kernel log lines that are splats."""
    tap = read(os.path.join(out, f'{mode}-tap.log'))
    console = read(os.path.join(out, f'{mode}-console.log')) or []
    if not tap:
        # no virtio console in the guest (seen on the KASAN kernel, whose
        # virtio-pci probe can fail): init then writes the framed test
        # output to the serial console, among the kernel's messages
        tap = [TIME_RE.sub('', ln) for ln in console]
    # an identity boot's results (rig/qemu.sh MODE id-<name>) are named
    # identity/<name>/<suite>/...: the same tests as the icount boot's
    prefix = f'identity/{mode[3:]}/' if mode.startswith('id-') else ''
    done = parse_programs(tap or [], results, prefix)
    parse_kunit(console, results)
    guest = 'guest' if mode == 'check' else f'guest/{mode}'
    results.append((f'{guest}/completed', 'pass' if done else 'fail',
                    '' if done else 'no KPERF-DONE: the guest crashed, hung or was killed'))
    splats = [TIME_RE.sub('', ln) for ln in console if SPLAT_RE.search(ln)]
    splats += [ln for ln in tap or [] if ln.startswith('KPERF-KMEMLEAK') and
               'unreferenced object' in ln]
    results.append((f'{guest}/clean-log', 'fail' if splats else 'pass',
                    splats[0][:160] if splats else ''))
    return splats


def main():
    out, variant, arch = sys.argv[1:4]
    results = []
    splats = []
    for mode in sys.argv[4:]:
        splats += parse_boot(out, mode, results)
    for log, suite in (('abi-tap.log', 'abi'), ('exports-tap.log', 'exports')):
        tap = read(os.path.join(out, log))
        for line in tap or []:
            m = TAP_RE.match(line)
            if m:
                results.append((f'{suite}/{m.group(2)}', tap_result(m), ''))

    rules = load_xfail(variant, arch)
    final = []
    for rid, res, detail in results:
        for pat, why in rules:
            if fnmatch.fnmatchcase(rid, pat):
                if res == 'fail':
                    res, detail = 'xfail', why
                elif res == 'pass' and why.startswith('flaky:'):
                    pass
                elif res == 'pass':
                    res, detail = 'xpass', f'expected to fail or skip ({why}): update rig/xfail.list'
                break
        else:
            if res == 'skip':
                res, detail = 'fail', f'unexpected SKIP ({detail}): not in rig/xfail.list'
        final.append((rid, res, detail))

    with open(os.path.join(out, 'results.tsv'), 'w') as f:
        for rid, res, detail in final:
            f.write(f'{rid}\t{res}\t{detail}\n')

    count = {k: sum(1 for r in final if r[1] == k)
             for k in ('pass', 'fail', 'skip', 'xfail', 'xpass')}
    for rid, res, detail in final:
        if res in ('fail', 'xpass'):
            print(f'  {res.upper():5} {rid}  {detail}')
        if res == 'fail':
            for note in NOTES.get(rid, []):
                print(f'        {note[:200]}')
    if splats:
        print('  kernel log problems (first 10):')
        for ln in splats[:10]:
            print(f'    {ln}')
    failed = count['fail'] + count['xpass']
    skipped = count['skip'] + count['xfail']
    print(f'{variant} {arch}: {count["pass"]} passed, {failed} failed, '
          f'{skipped} skipped ({count["xfail"]} of them expected failures, '
          f'{count["xpass"]} unexpected passes; see rig/xfail.list)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
