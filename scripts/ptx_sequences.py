#!/usr/bin/env python3
"""Measures the instruction sequences that PTX instructions compile to, per SM, for the "ptx" table of
the SM presets (data/sm/*.json, data/sm/README.md "PTX rules").

For each PTX instruction of the table it writes a kernel that loads one operand, applies the
instruction and stores the result, compiles it with ptxas, disassembles it with nvdisasm and walks
the fast path: from the entry to EXIT, into called subroutines (64-bit integer division is one),
jumping over the slow paths that only special operands take (a conditional branch over a CALL, or
into code that calls one). The same kernel with a one-instruction operation (add or neg) is walked as
well, and its instructions (all but that operation) are taken out of the walk, once each, by their
mnemonic; what remains is the sequence. Its instructions are classed as the four-type model does:
MUFU S; DFMA, DADD, DMUL, DSETP D; loads and stores L; everything else C, branches and convergence
instructions (BSSY, BSYNC, SSY) included, for the scheduler issues them.

Tools: ptxas of the installed toolkit (CUDA 13: sm_80, sm_90) and ptxas and nvdisasm 11.8 from
Debian's non-free package nvidia-cuda-toolkit (sm_35, sm_70, which CUDA 13 no longer compiles, and
the disassembler CUDA 13's install here lacks). nvdisasm 11.8 reads a CUDA 13 cubin once its ELF
header carries the old ABI's flags (patched in a copy). Fetch the package without installing it:

  mkdir -p /tmp/nf && cd /tmp/nf && echo 'deb http://deb.debian.org/debian bookworm non-free' > sources.list
  apt-get -o Dir::Etc::SourceList=/tmp/nf/sources.list -o Dir::Etc::SourceParts=/dev/null \
          -o Dir::State::Lists=/tmp/nf/lists update
  apt-get ... download nvidia-cuda-toolkit && dpkg -x nvidia-cuda-toolkit_*.deb x

Usage: python3 scripts/ptx_sequences.py --old /tmp/nf/x/usr/bin [--work DIR] [--json] [--paths OP]
"""
import argparse
import collections
import json
import os
import re
import struct
import subprocess
import sys

# name: (element type, operands)
OPS = {
    'div.rn.f32': ('f32', 2), 'div.rn.ftz.f32': ('f32', 2), 'div.full.f32': ('f32', 2),
    'div.full.ftz.f32': ('f32', 2), 'div.approx.f32': ('f32', 2), 'div.approx.ftz.f32': ('f32', 2),
    'sqrt.rn.f32': ('f32', 1), 'sqrt.rn.ftz.f32': ('f32', 1), 'sqrt.approx.f32': ('f32', 1),
    'sqrt.approx.ftz.f32': ('f32', 1), 'rcp.rn.f32': ('f32', 1), 'rcp.rn.ftz.f32': ('f32', 1),
    'rcp.approx.f32': ('f32', 1), 'rcp.approx.ftz.f32': ('f32', 1), 'rsqrt.approx.f32': ('f32', 1),
    'rsqrt.approx.ftz.f32': ('f32', 1), 'ex2.approx.f32': ('f32', 1), 'ex2.approx.ftz.f32': ('f32', 1),
    'lg2.approx.f32': ('f32', 1), 'lg2.approx.ftz.f32': ('f32', 1), 'sin.approx.f32': ('f32', 1),
    'sin.approx.ftz.f32': ('f32', 1), 'cos.approx.f32': ('f32', 1), 'cos.approx.ftz.f32': ('f32', 1),
    'div.rn.f64': ('f64', 2), 'sqrt.rn.f64': ('f64', 1), 'rcp.rn.f64': ('f64', 1),
    'rsqrt.approx.f64': ('f64', 1), 'rcp.approx.ftz.f64': ('f64', 1),
    'div.u32': ('u32', 2), 'div.s32': ('s32', 2), 'rem.u32': ('u32', 2), 'rem.s32': ('s32', 2),
    'div.u64': ('u64', 2), 'div.s64': ('s64', 2), 'rem.u64': ('u64', 2), 'rem.s64': ('s64', 2),
}
BASELINES = {'f32': ('add.f32', 'neg.f32'), 'f64': ('add.f64', 'neg.f64'), 'u32': ('add.u32', None),
             's32': ('add.s32', None), 'u64': ('add.u64', None), 's64': ('add.s64', None)}
REG = {'f32': ('.f32', '%f', 4), 'f64': ('.f64', '%fd', 8), 'u32': ('.b32', '%r', 4),
       's32': ('.b32', '%r', 4), 'u64': ('.b64', '%rd', 8), 's64': ('.b64', '%rd', 8)}
ARCHS = [('sm_35', 'old', '7.8'), ('sm_70', 'old', '7.8'), ('sm_80', 'new', '9.0'), ('sm_90', 'new', '9.0')]


def all_ops():
    ops = dict(OPS)
    for ty, (two, one) in BASELINES.items():
        ops[two] = (ty, 2)
        if one:
            ops[one] = (ty, 1)
    return ops


def ptx_source(version, target, ops):
    out = [f'.version {version}', f'.target {target}', '.address_size 64']
    for i, (op, (ty, arity)) in enumerate(ops.items()):
        rt, rp, size = REG[ty]
        out += [f'.visible .entry k{i}(.param .u64 p0, .param .{ty} p1) {{',
                f' .reg .b64 %a<5>; .reg .b32 %t<2>; .reg {rt} {rp}v<4>;',
                ' ld.param.u64 %a1, [p0];', f' ld.param.{ty} {rp}v1, [p1];',
                ' cvta.to.global.u64 %a2, %a1; mov.u32 %t1, %tid.x;',
                f' mul.wide.u32 %a3, %t1, {size}; add.s64 %a4, %a2, %a3;',
                f' ld.global.{ty} {rp}v2, [%a4];',
                f' {op} {rp}v3, {rp}v2' + (f', {rp}v1;' if arity == 2 else ';'),
                f' st.global.{ty} [%a4], {rp}v3;', ' ret;', '}']
    return '\n'.join(out) + '\n'


def disassemble(arch, ptxas, nvdisasm, version, ops, work):
    src = os.path.join(work, arch + '.ptx')
    with open(src, 'w') as f:
        f.write(ptx_source(version, arch, ops))
    cubin = os.path.join(work, arch + '.cubin')
    subprocess.run([ptxas, '-O3', f'-arch={arch}', '-o', cubin, src], check=True, capture_output=True, text=True)
    data = bytearray(open(cubin, 'rb').read())
    if data[8] == 8:  # CUDA 13's ELF ABI: give nvdisasm 11.8 the old one's OS/ABI, version and flags
        sm = int(arch[3:])
        data[7], data[8] = 0x33, 7
        struct.pack_into('<I', data, 48, sm | (sm << 16) | 0x500)
        with open(cubin, 'wb') as f:
            f.write(data)
    return subprocess.run([nvdisasm, cubin], check=True, capture_output=True, text=True).stdout


def functions(sass):
    funcs, cur = {}, None
    for line in sass.splitlines():
        m = re.match(r'^\.text\.(\S+):', line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        if line.startswith('\t.section'):
            cur = None
        if cur is None:
            continue
        stripped = line.strip()
        m = re.match(r'^([.$\w]+):$', stripped)
        if m:
            funcs[cur].append(('label', m.group(1)))
            continue
        line = line.rstrip().rstrip(';')
        m = re.match(r'^\s*/\*([0-9a-f]{4})\*/\s+(.*?);?\s*(\(\*.*\*\))?\s*$', line)
        if m and re.match(r'(@!?U?P\w+\s+)?[A-Z]', m.group(2)):
            funcs[cur].append(('ins', m.group(2).strip().rstrip(';'), m.group(3) or ''))
    return funcs


def unit_of(ins):
    base = re.sub(r'^@!?U?P\w+\s+', '', ins).split()[0].split('.')[0]
    if base == 'MUFU':
        return 'S'
    if base in ('DFMA', 'DADD', 'DMUL', 'DSETP', 'DMNMX', 'DSET'):
        return 'D'
    if base in ('LDG', 'STG', 'LD', 'ST', 'LDS', 'STS', 'LDL', 'STL', 'ATOM', 'ATOMG', 'RED'):
        return 'L'
    return 'C'


CALL = re.compile(r'\b(CALL|CAL)\b')


def fast_path(items):
    """The instructions from the entry to EXIT on the path normal operands take."""
    labels, seq = {}, []
    for e in items:
        if e[0] == 'label':
            labels[e[1]] = len(seq)
        else:
            seq.append(e)

    def skips_call(a, b):
        return any(CALL.search(seq[k][1]) for k in range(a, min(b, len(seq))))

    def reaches_call(a):
        for k in range(a, len(seq)):
            s = seq[k][1]
            if CALL.search(s):
                return True
            if re.search(r'\b(BRA|EXIT|RET)\b', s) and not s.startswith('@'):
                return False
        return False

    out, pc, stack = [], 0, []
    for _ in range(5000):
        if pc >= len(seq):
            break
        s, extra = seq[pc][1], seq[pc][2]
        guarded = bool(re.match(r'^@!?U?P', s))
        body = re.sub(r'^@!?U?P\w+\s+', '', s)
        out.append(s)
        if body.startswith('EXIT') and not guarded:
            break
        m = re.match(r'(CALL\S*|CAL)\s+`\((\S+?)\)', body)
        if m and not guarded and m.group(2) in labels:
            stack.append(pc + 1)
            pc = labels[m.group(2)]
            continue
        if body.startswith('RET') and not guarded and stack:
            pc = stack.pop()
            continue
        t = re.search(r'`\((\.L_x_\d+)\)', s) or re.search(r'TARGET= (\.L_x_\d+)', extra)
        target = labels.get(t.group(1)) if t else None
        if (body.startswith('BRA') or body.startswith('NOP.S')) and target is not None:
            if not guarded or (target > pc and skips_call(pc + 1, target) and not reaches_call(target)):
                pc = target
                continue
        pc += 1
    else:
        raise RuntimeError('walk did not reach EXIT')
    return out


def mnemonic(ins):
    return re.sub(r'^@!?U?P\w+\s+', '', ins).split()[0]


def sequence(path, baseline):
    """The walk of an operation without the baseline kernel's scaffolding (its one operation kept out)."""
    scaffold = [i for i in baseline if mnemonic(i).split('.')[0] not in ('FADD', 'DADD', 'IADD3', 'IADD')]
    rest = list(path)
    for b in scaffold:
        for k, i in enumerate(rest):
            if mnemonic(i) == mnemonic(b):
                del rest[k]
                break
        else:
            for k, i in enumerate(rest):
                if unit_of(i) == unit_of(b) and unit_of(i) != 'C' or (unit_of(i) == 'C' == unit_of(b) and not CALL.search(i)):
                    del rest[k]
                    break
    return rest


def run_length(units):
    out, k = '', 0
    while k < len(units):
        j = k
        while j < len(units) and units[j] == units[k]:
            j += 1
        out += (str(j - k) if j - k > 1 else '') + units[k]
        k = j
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--old', required=True, help='folder with ptxas and nvdisasm 11.8')
    ap.add_argument('--new', default='/usr/local/cuda/bin', help='folder with the toolkit\'s ptxas')
    ap.add_argument('--work', default='/tmp/ptx_sequences')
    ap.add_argument('--json', action='store_true', help='print the tables as JSON')
    ap.add_argument('--paths', help='print the fast path of one operation on every SM')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    ops = all_ops()
    names = list(ops)
    tables, paths = {}, {}
    for arch, which, version in ARCHS:
        tool = a.old if which == 'old' else a.new
        sass = disassemble(arch, os.path.join(tool, 'ptxas'), os.path.join(a.old, 'nvdisasm'), version, ops, a.work)
        funcs = functions(sass)
        walked = {n: fast_path(funcs[f'k{i}']) for i, n in enumerate(names)}
        tables[arch], paths[arch] = {}, walked
        for n, (ty, arity) in OPS.items():
            two, one = BASELINES[ty]
            base = one if arity == 1 and one else two
            rest = sequence(walked[n], walked[base])
            tables[arch][n] = run_length([unit_of(i) for i in rest])
            paths[arch][n + ' (sequence)'] = rest
    if a.paths:
        for arch in tables:
            print(f'--- {arch} {a.paths}: {tables[arch][a.paths]}')
            print('\n'.join('  ' + i for i in paths[arch][a.paths + ' (sequence)']))
        return
    if a.json:
        print(json.dumps(tables, indent=1))
        return
    print('| PTX | ' + ' | '.join(arch for arch, _, _ in ARCHS) + ' |')
    print('|---|' + '---|' * len(ARCHS))
    for n in OPS:
        print(f'| `{n}` | ' + ' | '.join(tables[arch][n] for arch, _, _ in ARCHS) + ' |')


if __name__ == '__main__':
    main()
