#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""abi_check.py: compare two copies of a uapi header, field by field.

Usage: abi_check.py OURS.h BASE.h [--cc CC] [--extensions FILE] [--keep]
                    [--verbose]

--keep leaves the work files (probe.c, objects) in place; --verbose
prints every value measured in OURS. --extensions names the list of
what OURS adds on purpose (see below).

Everything the BASE header declares is enumerated from the compiler itself:
structs, unions, their members (nested and anonymous ones flattened into
paths) and enums come from the DWARF of an object compiled against BASE
(read with readelf), and the object-like #defines come from the
preprocessor (-dD), limited to lines of the BASE file.

Then one probe object per header is compiled with CC. The probe holds one
constant global per measured quantity: sizeof/_Alignof of each struct,
offsetof/sizeof/_Alignof/signedness of each member, the value, size and
signedness of each enumerator and macro, and, for each bitfield, an image
of the containing object with only that bitfield set to all-ones (the
set bits give its bit offset and width). The values are read back out of
the object's ELF sections, so nothing is ever executed: this works the same
for a cross compiler.

Output is TAP: one test per struct or union, one per enum (named or not),
one per family of #defines, one for function-like macros. A test fails when
a value differs or a name of BASE is missing from OURS; the failure line
says which.

With --extensions FILE, OURS is enumerated the same way and one more test,
"extensions", checks what only OURS declares (#defines, enumerators and
struct/union/enum tags) against FILE, whose lines read "NAME VALUE  # why"
("struct foo SIZE" for a tag; VALUE "-" for what has no integer value). It
fails when OURS declares a name BASE lacks that FILE does not list, when a
listed name is missing from OURS (or is in BASE too), or when a value,
measured with the same probes, differs from FILE. Enumerators FILE lists
are not reported as extra in their enum's test. Without --extensions, names
only OURS declares are not checked.

Exit status is 1 on any failure, 2 when a header does not
compile or a tool fails (reported as one failed TAP test).
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------- tools


class ToolError(Exception):
    pass


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def readelf_for(cc):
    """The readelf that goes with CC (any binutils readelf reads any ELF)."""
    if cc.endswith('gcc'):
        cand = cc[:-3] + 'readelf'
        if shutil.which(cand):
            return cand
    return 'readelf'

# ---------------------------------------------------------------- ELF


class Elf:
    """Just enough of an ELF relocatable reader to fetch symbol contents."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b'\x7fELF':
            raise ToolError(f'{path}: not an ELF file')
        self.is64 = d[4] == 2
        self.end = '<' if d[5] == 1 else '>'
        e = self.end
        if self.is64:
            shoff, = struct.unpack_from(e + 'Q', d, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x3a)
        else:
            shoff, = struct.unpack_from(e + 'I', d, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x2e)
        self.sections = []
        for i in range(shnum):
            off = shoff + i * shentsize
            if self.is64:
                (name, typ, _flags, _addr, offset, size, link, _info,
                 _align, entsize) = struct.unpack_from(e + 'IIQQQQIIQQ', d, off)
            else:
                (name, typ, _flags, _addr, offset, size, link, _info,
                 _align, entsize) = struct.unpack_from(e + 'IIIIIIIIII', d, off)
            self.sections.append(dict(name=name, type=typ, offset=offset,
                                      size=size, link=link, entsize=entsize))
        self.symbols = {}
        for s in self.sections:
            if s['type'] != 2:	# SHT_SYMTAB
                continue
            strtab = self.sections[s['link']]
            for j in range(s['size'] // s['entsize']):
                off = s['offset'] + j * s['entsize']
                if self.is64:
                    name, _info, _other, shndx, value, size = \
                        struct.unpack_from(e + 'IBBHQQ', d, off)
                else:
                    name, value, size, _info, _other, shndx = \
                        struct.unpack_from(e + 'IIIBBH', d, off)
                nm = self.cstr(strtab['offset'] + name)
                self.symbols[nm] = (shndx, value, size)

    def cstr(self, off):
        end = self.data.index(b'\0', off)
        return self.data[off:end].decode()

    def sym_bytes(self, name):
        if name not in self.symbols:
            return None
        shndx, value, size = self.symbols[name]
        if shndx == 0 or shndx >= len(self.sections):
            return None
        sec = self.sections[shndx]
        if sec['type'] == 8:	# SHT_NOBITS: a zero-initialised object
            return bytes(size)
        start = sec['offset'] + value
        return self.data[start:start + size]

    def sym_u64(self, name):
        b = self.sym_bytes(name)
        if b is None or len(b) != 8:
            return None
        return struct.unpack(self.end + 'Q', b)[0]

# ---------------------------------------------------------------- DWARF


DIE_RE = re.compile(r'^\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: (\d+)'
                    r'(?: \((DW_TAG_\w+)\))?')
ATTR_RE = re.compile(r'^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*?)\s*$')


class Die:
    def __init__(self, off, tag):
        self.off = off
        self.tag = tag
        self.attrs = {}
        self.children = []

    def name(self):
        return self.attrs.get('DW_AT_name')

    def num(self, attr):
        v = self.attrs.get(attr)
        if v is None:
            return None
        m = re.match(r'^(-?(?:0x[0-9a-f]+|\d+))', v)
        return int(m.group(1), 0) if m else None

    def ref(self):
        v = self.attrs.get('DW_AT_type')
        m = re.match(r'^<0x([0-9a-f]+)>', v or '')
        return int(m.group(1), 16) if m else None


def parse_dwarf(readelf, obj):
    rc, out, err = run([readelf, '--debug-dump=info', '--wide', obj])
    if rc:
        raise ToolError(f'{readelf} failed: {err.strip()}')
    dies = {}
    stack = []	# stack[level] = die
    top = []
    cur = None
    for line in out.splitlines():
        m = DIE_RE.match(line)
        if m:
            level, off, _abbrev, tag = m.groups()
            level = int(level)
            if tag is None:	# end of a sibling list
                cur = None
                continue
            cur = Die(int(off, 16), tag)
            dies[cur.off] = cur
            del stack[level:]
            if level > 0 and len(stack) >= level:
                stack[level - 1].children.append(cur)
            if level == 1:
                top.append(cur)
            stack.append(cur)
            continue
        m = ATTR_RE.match(line)
        if m and cur is not None:
            # drop the "(data1) " / "(strp) (offset: 0x12): " form prefixes
            v = re.sub(r'^(?:\([^)]*\)\s*)+:?\s*', '', m.group(2))
            cur.attrs[m.group(1)] = v
    return dies, top


def type_name(dies, ref, depth=0):
    """C spelling of a DWARF type, enough to tell two declarations apart."""
    if ref is None:
        return 'void'
    d = dies.get(ref)
    if d is None or depth > 20:
        return '?'
    t = d.tag
    if t in ('DW_TAG_base_type', 'DW_TAG_typedef'):
        return d.name()
    if t in ('DW_TAG_structure_type', 'DW_TAG_union_type',
             'DW_TAG_enumeration_type'):
        kw = {'DW_TAG_structure_type': 'struct', 'DW_TAG_union_type': 'union',
              'DW_TAG_enumeration_type': 'enum'}[t]
        return f'{kw} {d.name() or "{...}"}'
    if t == 'DW_TAG_pointer_type':
        return type_name(dies, d.ref(), depth + 1) + ' *'
    if t in ('DW_TAG_const_type', 'DW_TAG_volatile_type'):
        q = 'const' if t == 'DW_TAG_const_type' else 'volatile'
        return f'{q} ' + type_name(dies, d.ref(), depth + 1)
    if t == 'DW_TAG_array_type':
        dims = ''
        for c in d.children:
            if c.tag == 'DW_TAG_subrange_type':
                n = c.num('DW_AT_count')
                ub = c.num('DW_AT_upper_bound')
                if n is None and ub is not None:
                    n = ub + 1
                dims += f'[{"" if n is None else n}]'
        return type_name(dies, d.ref(), depth + 1) + dims
    return t


def strip_typedefs(dies, ref):
    d = dies.get(ref)
    while d is not None and d.tag in ('DW_TAG_typedef', 'DW_TAG_const_type',
                                      'DW_TAG_volatile_type'):
        d = dies.get(d.ref())
    return d

# ---------------------------------------------------------------- model


class Field:
    """One member of a struct/union, named by its access path."""

    def __init__(self, path, ctype, kind, bitfield, nested_size=None):
        self.path = path		# "config1", "cap_user_rdpmc", "a.b"
        self.ctype = ctype		# C spelling of its declared type
        self.kind = kind		# 'scalar', 'array', 'flex', 'aggregate'
        self.bitfield = bitfield
        self.nested_size = nested_size


class Header:
    """What one header declares, as seen through the compiler."""

    def __init__(self):
        self.structs = {}	# "struct perf_event_attr" -> [Field]
        self.anon_sizes = {}	# ("struct X", "anon#0") -> byte size
        self.enums = {}		# "enum x" or "enum {FIRST}" -> [names]
        self.enum_of = {}	# enumerator -> its enum's key
        self.macros = {}	# object-like: name -> body
        self.fmacros = {}	# function-like: name -> (params, body)


def wrapper_source(header):
    return f'#include "{os.path.abspath(header)}"\n'


def scan_preprocessor(cc, header, work, hdr):
    """Macros defined in @header itself, and the header's own text."""
    src = os.path.join(work, 'pp.c')
    with open(src, 'w') as f:
        f.write(wrapper_source(header))
    rc, out, err = run([cc, '-E', '-dD', src])
    if rc:
        raise ToolError(f'{cc} -E failed on {header}:\n{err}')
    want = os.path.realpath(header)
    inside = False
    text = []
    for line in out.splitlines():
        m = re.match(r'^# \d+ "([^"]*)"', line)
        if m:
            inside = os.path.realpath(m.group(1)) == want \
                if os.path.exists(m.group(1)) else False
            continue
        if not inside:
            continue
        m = re.match(r'^#define (\w+)(\(([^)]*)\))?(?:\s(.*))?$', line)
        if m:
            name, fn, params, body = m.groups()
            if fn:
                hdr.fmacros[name] = (params, (body or '').strip())
            else:
                hdr.macros[name] = (body or '').strip()
            continue
        if line.startswith('#'):
            continue
        text.append(line)
    return '\n'.join(text)


def collect_members(dies, agg, prefix, owner, hdr, anon_count):
    fields = []
    for m in agg.children:
        if m.tag != 'DW_TAG_member':
            continue
        name = m.name()
        tref = m.ref()
        base = strip_typedefs(dies, tref)
        is_agg = base is not None and base.tag in ('DW_TAG_structure_type',
                                                   'DW_TAG_union_type')
        if name is None:
            # anonymous struct/union: its members belong to the parent
            if is_agg:
                key = f'{prefix}anon#{anon_count[0]}'
                anon_count[0] += 1
                hdr.anon_sizes[(owner, key)] = (
                    'struct' if base.tag == 'DW_TAG_structure_type'
                    else 'union', base.num('DW_AT_byte_size'),
                    [c.name() for c in base.children
                     if c.tag == 'DW_TAG_member'])
                fields += collect_members(dies, base, prefix, owner, hdr,
                                          anon_count)
            continue
        path = prefix + name
        bitfield = m.num('DW_AT_bit_size') is not None
        ctype = type_name(dies, tref)
        if bitfield:
            kind = 'scalar'
        elif is_agg:
            kind = 'aggregate'
        elif base is not None and base.tag == 'DW_TAG_array_type':
            sub = [c for c in base.children if c.tag == 'DW_TAG_subrange_type']
            flex = sub and sub[0].num('DW_AT_count') is None and \
                sub[0].num('DW_AT_upper_bound') is None
            kind = 'flex' if flex else 'array'
        elif base is not None and base.tag == 'DW_TAG_pointer_type':
            kind = 'pointer'
        else:
            kind = 'scalar'
        fields.append(Field(path, ctype, kind, bitfield))
        if is_agg:
            fields += collect_members(dies, base, path + '.', owner, hdr,
                                      anon_count)
    return fields


def scan_header(cc, readelf, header, work):
    hdr = Header()
    text = scan_preprocessor(cc, header, work, hdr)
    tags = set(re.findall(r'\b((?:struct|union|enum)\s+\w+)\s*\{', text))
    tags = {re.sub(r'\s+', ' ', t) for t in tags}
    idents = set(re.findall(r'\b\w+\b', text))

    src = os.path.join(work, 'dw.c')
    obj = os.path.join(work, 'dw.o')
    with open(src, 'w') as f:
        f.write(wrapper_source(header))
    rc, _out, err = run([cc, '-g', '-O0', '-fno-eliminate-unused-debug-types',
                         '-c', src, '-o', obj])
    if rc:
        raise ToolError(f'{cc} cannot compile {header}:\n{err}')
    dies, top = parse_dwarf(readelf, obj)
    for d in top:
        if d.tag in ('DW_TAG_structure_type', 'DW_TAG_union_type'):
            if d.name() is None or 'DW_AT_declaration' in d.attrs:
                continue
            kw = 'struct' if d.tag == 'DW_TAG_structure_type' else 'union'
            key = f'{kw} {d.name()}'
            if key not in tags:
                continue
            hdr.structs[key] = collect_members(dies, d, '', key, hdr, [0])
        elif d.tag == 'DW_TAG_enumeration_type':
            names = [c.name() for c in d.children
                     if c.tag == 'DW_TAG_enumerator']
            if not names:
                continue
            if d.name():
                key = f'enum {d.name()}'
                if key not in tags:
                    continue
            else:
                if names[0] not in idents:
                    continue
                key = f'enum {{{names[0]}, ...}}'
            hdr.enums[key] = names
            for n in names:
                hdr.enum_of[n] = key
    return hdr

# ---------------------------------------------------------------- probes


class Item:
    """One measured quantity: a C expression, or a bitfield image."""

    def __init__(self, test, label, expr=None, bf=None):
        self.test = test	# TAP test it belongs to
        self.label = label	# what is measured, for messages
        self.expr = expr	# integer constant expression
        self.bf = bf		# (aggregate type, member path) for bitfields


def member_ref(agg, path):
    return f'(((const {agg} *)0)->{path})'


def build_items(base):
    items = []
    for agg, fields in base.structs.items():
        items.append(Item(agg, 'sizeof', f'sizeof({agg})'))
        items.append(Item(agg, '_Alignof', f'_Alignof({agg})'))
        for f in fields:
            ref = member_ref(agg, f.path)
            if f.bitfield:
                items.append(Item(agg, f'{f.path} bits', bf=(agg, f.path)))
                continue
            items.append(Item(agg, f'offsetof({f.path})',
                              f'__builtin_offsetof({agg}, {f.path})'))
            if f.kind == 'flex':
                items.append(Item(agg, f'sizeof({f.path}[0])',
                                  f'sizeof({ref}[0])'))
                continue
            items.append(Item(agg, f'sizeof({f.path})', f'sizeof({ref})'))
            items.append(Item(agg, f'_Alignof({f.path})',
                              f'_Alignof(__typeof__({ref}))'))
            if f.kind == 'scalar':
                items.append(Item(agg, f'signed({f.path})',
                                  f'((__typeof__({ref}))-1 < 0)'))
    for key, names in base.enums.items():
        if not key.startswith('enum {'):
            items.append(Item(key, 'sizeof', f'sizeof({key})'))
        for n in names:
            constant_items(items, key, n)
    for n in base.macros:
        if base.macros[n] == '':
            continue
        constant_items(items, define_family(n), n)
    # function-like macros: PERF_MEM_S(a, s) for every a_s with an a_SHIFT
    for n, (params, _body) in base.fmacros.items():
        for arg in fmacro_args(n, params, base):
            items.append(Item('function-like macros', f'{n}({arg})',
                              f'(unsigned long long)({n}({arg}))'))
    return items


def constant_items(items, test, n):
    items.append(Item(test, f'{n} value', f'(unsigned long long)({n})'))
    items.append(Item(test, f'{n} sizeof', f'sizeof({n})'))
    items.append(Item(test, f'{n} signed', f'((__typeof__({n}))-1 < 0)'))


def fmacro_args(name, params, base):
    """Argument lists to evaluate a function-like macro with."""
    nparams = len([p for p in params.split(',') if p.strip()])
    if name == 'PERF_MEM_S' and nparams == 2:
        out = []
        for m in base.macros:
            mm = re.match(r'^PERF_MEM_([A-Z]+)_(\w+)$', m)
            if mm and mm.group(2) != 'SHIFT' and \
                    f'PERF_MEM_{mm.group(1)}_SHIFT' in base.macros:
                out.append(f'{mm.group(1)}, {mm.group(2)}')
        return out
    return []


def define_family(name):
    """Group #defines for reporting: PERF_MEM_LVL_L1 -> "PERF_MEM_*"."""
    parts = name.split('_')
    fam = '_'.join(parts[:2]) if len(parts) > 2 else name
    return f'defines {fam}*'


def probe_source(header, items):
    """Probe C file; returns (text, {line number: item index})."""
    lines = [f'#include "{os.path.abspath(header)}"']
    where = {}
    for i, it in enumerate(items):
        if it.bf:
            agg, path = it.bf
            c = (f'const union {{ {agg} s; unsigned char b[sizeof({agg})]; }}'
                 f' abi_b_{i} = {{ .s = {{ .{path} = -1 }} }};')
        else:
            c = f'const unsigned long long abi_v_{i} = (unsigned long long)({it.expr});'
        lines.append(c)
        where[len(lines)] = i
    return '\n'.join(lines) + '\n', where


ERR_RE = re.compile(r'^[^:]*probe\.c:(\d+):\d+: error: (.*)$')


def measure(cc, header, items, skip, work):
    """Values of @items compiled against @header: {index: int|bytes|str}.

    An item that does not compile gets its error text; it is dropped and
    the rest is compiled again, so one bad name cannot hide the others.
    """
    result = {}
    live = [i for i in range(len(items)) if i not in skip]
    src = os.path.join(work, 'probe.c')
    obj = os.path.join(work, 'probe.o')
    for _round in range(50):
        text, where = probe_source(header, [items[i] for i in live])
        with open(src, 'w') as f:
            f.write(text)
        rc, _out, err = run([cc, '-std=gnu11', '-O0', '-w', '-c', src,
                             '-o', obj])
        if rc == 0:
            break
        bad = {}
        for line in err.splitlines():
            m = ERR_RE.match(line)
            if m and int(m.group(1)) in where:
                bad.setdefault(live[where[int(m.group(1))]], m.group(2))
        if not bad:
            raise ToolError(f'{cc} failed on the probe for {header}:\n{err}')
        for i, msg in bad.items():
            result[i] = f'does not compile: {msg}'
        live = [i for i in live if i not in bad]
    else:
        raise ToolError('probe keeps failing to compile')
    elf = Elf(obj)
    for j, i in enumerate(live):
        if items[i].bf:
            b = elf.sym_bytes(f'abi_b_{j}')
            result[i] = b if b is not None else 'not found in object'
        else:
            v = elf.sym_u64(f'abi_v_{j}')
            result[i] = v if v is not None else 'not found in object'
    return result, elf.end


def bit_desc(image, end):
    """Bit offset/width of the set bits of an object image."""
    bits = []
    for i, byte in enumerate(image):
        for j in range(8):
            if byte & (1 << j):
                # number bits the way offsetof counts bytes; on a
                # big-endian target count from the byte's top bit
                bits.append(i * 8 + (j if end == '<' else 7 - j))
    if not bits:
        return 'no bits'
    lo, hi = min(bits), max(bits)
    gap = '' if hi - lo + 1 == len(bits) else ' (not contiguous)'
    return f'bit offset {lo} width {len(bits)}{gap}'


def fmt(v, end):
    if isinstance(v, bytes):
        return bit_desc(v, end)
    if isinstance(v, int):
        return hex(v) if v > 9 else str(v)
    return v

# ---------------------------------------------------------------- compare


def presence_problems(base, ours, listed=()):
    """Names of BASE missing from OURS, and declarations that changed."""
    probs = {}

    def add(test, msg):
        probs.setdefault(test, []).append(msg)

    for agg, fields in base.structs.items():
        if agg not in ours.structs:
            add(agg, f'{agg} missing in ours')
            continue
        of = {f.path: f for f in ours.structs[agg]}
        for f in fields:
            g = of.get(f.path)
            if g is None:
                add(agg, f'member {f.path} missing in ours')
                continue
            if g.ctype != f.ctype:
                add(agg, f'{f.path}: type {g.ctype} vs base {f.ctype}')
            if g.bitfield != f.bitfield:
                add(agg, f'{f.path}: bitfield in '
                    f'{"ours" if g.bitfield else "base"} only')
        bpaths = [f.path for f in fields]
        extra = [p for p in of if p not in set(bpaths)]
        if extra:
            add(agg, 'members not in base: ' + ', '.join(extra))
        opaths = [p for p in of if p in set(bpaths)]
        if opaths != [p for p in bpaths if p in of]:
            add(agg, 'members declared in a different order')
        banon = {k[1]: v for k, v in base.anon_sizes.items() if k[0] == agg}
        oanon = {k[1]: v for k, v in ours.anon_sizes.items() if k[0] == agg}
        for k, v in banon.items():
            if oanon.get(k) != v:
                add(agg, f'anonymous member {k}: {oanon.get(k)} vs base {v}')
    for key, names in base.enums.items():
        if key.startswith('enum {'):
            okey = ours.enum_of.get(names[0])
        else:
            okey = key if key in ours.enums else None
        if okey is None:
            add(key, f'{key} missing in ours')
            continue
        onames = ours.enums[okey]
        for n in names:
            if n not in ours.enum_of:
                add(key, f'{n} missing in ours')
            elif ours.enum_of[n] != okey:
                add(key, f'{n} belongs to {ours.enum_of[n]} in ours')
        extra = [n for n in onames if n not in names and n not in listed]
        if extra:
            add(key, 'enumerators not in base: ' + ', '.join(extra))
    for n, body in base.macros.items():
        if n not in ours.macros:
            if n in ours.fmacros:
                add(define_family(n), f'{n} is function-like in ours')
            else:
                add(define_family(n), f'#define {n} missing in ours')
        elif body == '' and ours.macros[n] != '':
            add(define_family(n), f'{n} is not empty in ours')
    for n, (params, _body) in base.fmacros.items():
        if n not in ours.fmacros:
            add('function-like macros', f'{n}() missing in ours')
        elif ours.fmacros[n][0].replace(' ', '') != params.replace(' ', ''):
            add('function-like macros', f'{n}() parameters differ')
    return probs


def read_extensions(path):
    """The extensions list: {name: value, or None for "-"}."""
    ext = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ToolError(f'extensions list: {e}')
    for n, line in enumerate(lines, 1):
        w = line.split('#', 1)[0].split()
        if w and w[0] in ('struct', 'union', 'enum'):
            w[:2] = [' '.join(w[:2])]
        if not w:
            continue
        if len(w) != 2 or not re.match(r'^(-|-?(0x[0-9a-fA-F]+|\d+))$', w[1]):
            raise ToolError(f'{path}:{n}: expected "NAME VALUE  # reason"')
        ext[w[0]] = None if w[1] == '-' else int(w[1], 0) % (1 << 64)
    return ext


def extension_names(base, ours):
    """What OURS declares and BASE does not: {name: C expression or None}."""
    known = (set(base.macros) | set(base.fmacros) | set(base.enum_of)
             | set(base.structs) | set(base.enums))
    new = {}
    for n, body in ours.macros.items():
        new[n] = f'(unsigned long long)({n})' if body else None
    for n in ours.fmacros:
        new[n] = None
    for n in ours.enum_of:
        new[n] = f'(unsigned long long)({n})'
    for k in list(ours.structs) + list(ours.enums):
        if not k.startswith('enum {'):
            new[k] = f'sizeof({k})'
    return {n: e for n, e in new.items() if n not in known}, known


def extension_problems(new, known, ext, items, val, end, list_name):
    probs = []
    for n in new:
        if n not in ext:
            probs.append(f'{n}: not in base and not listed in {list_name}')
    for n, v in ext.items():
        if n in known:
            probs.append(f'{n}: listed in {list_name} but declared in base')
        elif n not in new:
            probs.append(f'{n}: listed in {list_name} but missing in ours')
        elif v is not None and new[n] is None:
            probs.append(f'{n}: no integer value in ours, list says '
                         f'{fmt(v, end)}')
    for i, it in enumerate(items):
        o, v = val.get(i, 'not measured'), ext[it.label]
        if o != v:
            probs.append(f'{it.label}: {fmt(o, end)} vs list '
                         f'{"-" if v is None else fmt(v, end)}')
    return probs


def main(argv):
    args = list(argv)
    cc = 'gcc'
    keep = False
    if '--cc' in args:
        i = args.index('--cc')
        cc = args[i + 1]
        del args[i:i + 2]
    ext_h = None
    if '--extensions' in args:
        i = args.index('--extensions')
        ext_h = args[i + 1]
        del args[i:i + 2]
    if '--keep' in args:
        args.remove('--keep')
        keep = True
    verbose = '--verbose' in args
    if verbose:
        args.remove('--verbose')
    if len(args) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    ours_h, base_h = args
    readelf = readelf_for(cc)
    work = tempfile.mkdtemp(prefix='abi-check.')
    try:
        wb = os.path.join(work, 'base')
        wo = os.path.join(work, 'ours')
        os.mkdir(wb)
        os.mkdir(wo)
        base = scan_header(cc, readelf, base_h, wb)
        ours = scan_header(cc, readelf, ours_h, wo)
        items = build_items(base)
        # anything BASE itself cannot evaluate (a #define that is not an
        # integer, say) is not part of the comparison
        bval, bend = measure(cc, base_h, items, set(), wb)
        dropped = sorted({items[i].label.split()[0] for i, v in bval.items()
                          if isinstance(v, str)})
        skip = {i for i, v in bval.items() if isinstance(v, str)}
        oval, oend = measure(cc, ours_h, items, skip, wo)
        ext = read_extensions(ext_h) if ext_h else {}
        probs = presence_problems(base, ours, ext)
        if ext_h:
            new, known = extension_names(base, ours)
            eitems = [Item('extensions', n, new[n]) for n in ext
                      if n in new and new[n]]
            we = os.path.join(work, 'extensions')
            os.mkdir(we)
            eval_, _ = measure(cc, ours_h, eitems, set(), we)
    except ToolError as e:
        # still one TAP result, so the rig records a failure and not silence
        msg = str(e).splitlines() or ['?']
        print(f'1..1\nnot ok 1 - headers compile and can be measured # {msg[0]}')
        for line in msg[1:]:
            print(f'#   {line}')
        return 2
    finally:
        if keep:
            print(f'# work files kept in {work}')
        else:
            shutil.rmtree(work, ignore_errors=True)

    tests = []
    for it in items:
        if it.test not in tests:
            tests.append(it.test)
    for t in probs:
        if t not in tests:
            tests.append(t)
    # per test: names missing in OURS, then values that differ, then
    # declarations that changed in other ways (type, order, extras)
    diffs = {t: [m for m in probs.get(t, []) if 'missing' in m]
             for t in tests}
    later = {t: [m for m in probs.get(t, []) if 'missing' not in m]
             for t in tests}
    counts = {t: 0 for t in tests}
    for i, it in enumerate(items):
        if i in skip:
            continue
        counts[it.test] += 1
        b, o = bval[i], oval.get(i, 'not measured')
        if verbose:
            print(f'# {it.test}: {it.label} = {fmt(o, oend)}')
        if o != b:
            diffs[it.test].append(f'{it.label}: {fmt(o, oend)} vs base '
                                  f'{fmt(b, bend)}')

    for t in tests:
        diffs[t] += later[t]
    if ext_h:
        tests.append('extensions')
        counts['extensions'] = len(eitems)
        diffs['extensions'] = extension_problems(
            new, known, ext, eitems, eval_, oend, os.path.basename(ext_h))
        if verbose:
            for i, it in enumerate(eitems):
                print(f'# extensions: {it.label} = '
                      f'{fmt(eval_.get(i, "not measured"), oend)}')
    print(f'# abi-check: {ours_h} against {base_h} with {cc}')
    if dropped:
        print('# not integer constants in base, not compared: '
              + ', '.join(dropped))
    if not ext_h:
        print('# no --extensions list: names only ours declares not checked')
    print(f'1..{len(tests)}')
    failed = 0
    for n, t in enumerate(tests, 1):
        d = diffs[t]
        if not d:
            print(f'ok {n} - {t}')
            continue
        failed += 1
        # the first difference on the result line, all of them below it
        print(f'not ok {n} - {t} # {d[0]}'
              + (f' (+{len(d) - 1} more)' if len(d) > 1 else ''))
        for msg in d:
            print(f'#   {msg}')
    print(f'# {len(tests) - failed} passed, {failed} failed, '
          f'{sum(counts.values())} values compared')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
