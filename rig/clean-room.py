#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The clean-room gate: does any file we own repeat upstream's perf code?

usage: clean-room.py REPO BASE_TREE ALLOW_LIST [--verbose] [--only PATH ...]

Two checks, each against the base tree's own perf implementation (the
files listed in UPSTREAM below):

code      Every C file and header we own is reduced to its informative
          code lines (comments dropped, white space folded, lines that
          carry no information skipped: braces, lone keywords, labels,
          includes, exports, `return x;`, short boilerplate). A window of
          WINDOW consecutive informative lines of ours that also stands,
          in that order and consecutively, among upstream's informative
          lines is a copied run; overlapping windows merge into one run.

comments  Every comment of ours is cut into sentences. A sentence of
          WORDS or more words that occurs word for word (case and
          punctuation folded) in upstream's comments is copied prose.

Runs that are facts (register and event tables, format attributes, enum
values, the uapi declarations, required macro shapes) may be allowed in
ALLOW_LIST, one entry a line:

    path | first line of the run as this script prints it, or * | reason

An entry that no longer matches any run is reported as stale and fails
the gate too, so the list only ever holds what is still there.

Prints TAP-like lines and a last line "clean-room: N finding(s)"; exits
1 on any finding or stale entry, 0 when clean.
"""
import os
import re
import subprocess
import sys

WINDOW = 4
WORDS = 8

# What we compare against: upstream's perf implementation in the base tree.
UPSTREAM = [
    'kernel/events',
    'arch/x86/events',
    'drivers/perf/arm_pmu.c',
    'drivers/perf/arm_pmu_platform.c',
    'drivers/perf/arm_pmu_acpi.c',
    'drivers/perf/arm_pmuv3.c',
    'include/linux/perf/arm_pmu.h',
    'include/linux/perf/arm_pmuv3.h',
    'include/linux/perf_event.h',
    'include/uapi/linux/perf_event.h',
    'include/linux/uprobes.h',
    'include/linux/hw_breakpoint.h',
    'kernel/trace/trace_event_perf.c',
    'tools/testing/selftests/perf_events',
]

# What we own: every C file and header of ours in these directories.
OURS = ['arch', 'drivers', 'include', 'kernel', 'samples',
        'tools/testing/selftests/perf_events']

C_KEYWORDS = frozenset('''
    auto break case char const continue default do double else enum extern
    float for goto if inline int long register return short signed sizeof
    static struct switch typedef union unsigned void volatile while bool
    u8 u16 u32 u64 s8 s16 s32 s64 true false NULL
'''.split())

# Lines that say nothing about who wrote them, whatever their length.
BORING = re.compile(r'''^(
      \#\s*(include|endif|else|pragma)\b.*
    | EXPORT_SYMBOL(_GPL)?\(\w+\);
    | (return|goto)\s+[-!]?\w+;
    | \w+:
    | (unsigned\s+long|int|long|bool|u64|u32|s64)\s+\*?(flags|ret|err|rc|i|j|cpu|n);
    | [{}()\[\];,\s]*
)$''', re.X)

IDENT = re.compile(r'[A-Za-z_]\w*')


def strip_comments(text):
    """Blank out comments (keeping line breaks) and string contents."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def comments_of(text):
    """Yield (line number, comment text) for every comment in a C file."""
    for m in re.finditer(r'/\*.*?\*/|//[^\n]*', text, re.S):
        body = m.group(0)
        body = body[2:-2] if body.startswith('/*') else body[2:]
        body = re.sub(r'^\s*\*+', ' ', body, flags=re.M)
        yield text.count('\n', 0, m.start()) + 1, body


def informative(line):
    if len(line) < 12 or BORING.match(line):
        return False
    return any(t not in C_KEYWORDS for t in IDENT.findall(line))


def code_lines(path):
    """[(line number, normalised text)] of a file's informative lines."""
    with open(path, errors='replace') as f:
        text = strip_comments(f.read())
    rows = []
    for no, raw in enumerate(text.split('\n'), 1):
        line = ' '.join(raw.split())
        if informative(line):
            rows.append((no, line))
    return rows


def words(text):
    return re.findall(r"[a-z0-9_']+", text.lower())


def c_files(root, rel):
    top = os.path.join(root, rel)
    if os.path.isfile(top):
        yield rel
        return
    for d, _, names in os.walk(top):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(d, name), root)


def owned_files(repo, only):
    listing = subprocess.run(
        ['git', '-C', repo, 'ls-files', '--cached', '--others',
         '--exclude-standard', '--'] + OURS,
        capture_output=True, text=True, check=True).stdout.split('\n')
    files = sorted(f for f in listing
                   if f.endswith(('.c', '.h')) and os.path.isfile(os.path.join(repo, f)))
    if only:
        files = [f for f in files if f in only]
    return files


def load_allow(path):
    entries = []
    with open(path) as f:
        for no, raw in enumerate(f, 1):
            if not raw.strip() or raw.lstrip().startswith('#'):
                continue
            parts = [p.strip() for p in raw.rstrip('\n').split(' | ')]
            if len(parts) != 3 or not all(parts):
                sys.exit(f'{path}:{no}: want "path | first line or * | reason"')
            entries.append({'where': f'{path}:{no}', 'file': parts[0],
                            'first': parts[1], 'reason': parts[2], 'used': 0})
    return entries


def allowed(entries, rel, first):
    for e in entries:
        if e['file'] == rel and e['first'] in ('*', first):
            e['used'] += 1
            return True
    return False


class Upstream:
    def __init__(self, base):
        self.windows = set()
        self.prose = []
        self.starts = set()
        for top in UPSTREAM:
            for rel in c_files(base, top):
                path = os.path.join(base, rel)
                lines = [t for _, t in code_lines(path)]
                for k in range(len(lines) - WINDOW + 1):
                    self.windows.add(tuple(lines[k:k + WINDOW]))
                with open(path, errors='replace') as f:
                    stream = []
                    for _, body in comments_of(f.read()):
                        stream.extend(words(body))
                        stream.append('|')
                for k in range(len(stream) - WORDS + 1):
                    self.starts.add(tuple(stream[k:k + WORDS]))
                self.prose.append(' ' + ' '.join(stream) + ' ')

    def has_sentence(self, ws):
        if any(tuple(ws[k:k + WORDS]) not in self.starts
               for k in range(0, len(ws) - WORDS + 1, WORDS)):
            return False
        needle = ' ' + ' '.join(ws) + ' '
        return any(needle in p for p in self.prose)


def code_runs(up, rows):
    """Group the lines covered by copied windows into runs of (lineno, text)."""
    covered = [False] * len(rows)
    for k in range(len(rows) - WINDOW + 1):
        if tuple(t for _, t in rows[k:k + WINDOW]) in up.windows:
            covered[k:k + WINDOW] = [True] * WINDOW
    runs, cur = [], []
    for row, hit in zip(rows, covered):
        if hit:
            cur.append(row)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def sentences(body):
    text = re.sub(r'\s+', ' ', body)
    for piece in re.split(r'(?<=[.!?:;])\s+(?=[A-Z(`\'"])|\s-\s', text):
        ws = words(piece)
        if len(ws) >= WORDS:
            yield piece.strip(), ws


def main(argv):
    verbose = '--verbose' in argv
    args = [a for a in argv if a != '--verbose']
    only = set()
    if '--only' in args:
        k = args.index('--only')
        only = set(args[k + 1:])
        args = args[:k]
    if len(args) != 3:
        sys.exit(__doc__)
    repo, base, allow_path = args
    if not os.path.isfile(os.path.join(base, 'include/linux/perf_event.h')):
        sys.exit(f'{base}: not a Linux tree with upstream perf in it')
    entries = load_allow(allow_path)
    up = Upstream(base)
    findings = allowed_runs = 0
    files = owned_files(repo, only)
    for rel in files:
        path = os.path.join(repo, rel)
        for run in code_runs(up, code_lines(path)):
            first = run[0][1]
            if allowed(entries, rel, first):
                allowed_runs += 1
                if verbose:
                    print(f'# allowed {rel}:{run[0][0]}-{run[-1][0]}: {first}')
                continue
            findings += 1
            print(f'not ok {rel}:{run[0][0]}-{run[-1][0]}: {len(run)} code lines '
                  f'in upstream\'s order | {first}')
            if verbose:
                for no, t in run:
                    print(f'#   {no}: {t}')
        with open(path, errors='replace') as f:
            text = f.read()
        for no, body in comments_of(text):
            for sentence, ws in sentences(body):
                if up.has_sentence(ws):
                    findings += 1
                    print(f'not ok {rel}:{no}: comment sentence found upstream | '
                          f'{sentence[:100]}')
    stale = [e for e in entries if not e['used'] and (not only or e['file'] in only)]
    for e in stale:
        print(f'not ok {e["where"]}: stale allow entry, matches no run | '
              f'{e["file"]} | {e["first"]}')
    print(f'# {len(files)} files, {allowed_runs} allowed run(s) (facts, '
          f'{os.path.relpath(allow_path, repo)})')
    print(f'clean-room: {findings + len(stale)} finding(s)')
    return 1 if findings or stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
