#!/usr/bin/env python3
"""The registers, static shared memory, stack and thread limit of every warpspan kernel, as nvcc
compiled it for one architecture (default sm_90), read from the nvcc build's objects.

    python3 scripts/resource_usage.py build/libwarpspan_cuda.a                  # the table, to stdout
    python3 scripts/resource_usage.py build/libwarpspan_cuda.a -o cuda/emulation/resource_usage.tsv
    python3 scripts/resource_usage.py build/libwarpspan_cuda.a --check cuda/emulation/resource_usage.tsv

The table (cuda/emulation/resource_usage.tsv) is compiled into the CUDA emulation, whose occupancy
calculator applies the sm_90 limits to it (cuda/emulation/occupancy.cpp); the ctest
`resource_usage_matches_nvcc` keeps it equal to what the fresh nvcc build reports.

Where the figures come from: the records `cuobjdump --dump-resource-usage` prints, which the script
reads itself from the sm_XX cubins embedded (uncompressed) in the objects' fatbins, because the
pip-installed toolkit of the development and CI machines has no cuobjdump:
  * registers: EIATTR_REGCOUNT (0x2f) in the cubin's .nv.info section, (symbol, registers);
  * stack: EIATTR_FRAME_SIZE (0x11), the bytes of local memory a thread's frame takes (spills and
    local arrays; ptxas -v's "bytes stack frame");
  * static shared memory: the size of the kernel's .nv.shared.<kernel> section, less the 1 KiB that
    sm_90 cubins place there for the system's reserved shared memory (.nv.shared.reserved.0): the
    figure ptxas -v prints as "smem" and cudaFuncGetAttributes as sharedSizeBytes (the occupancy
    calculator adds the 1 KiB reserved per block itself);
  * max threads: EIATTR_MAX_THREADS (0x05) in the kernel's .nv.info.<kernel> section, from
    __launch_bounds__ (1024, the device's limit, without one).
Where cuobjdump is on PATH, its report is read too and must agree (registers and stack exactly,
shared memory with or without the reserved 1 KiB); the figures are the same as `nvcc -Xptxas=-v`'s
(the build prints them).

A kernel is keyed by its demangled name without return type and parameters (for example
`warpspan::(anonymous namespace)::anneal_kernel<true, true, false>`), the name the emulation finds for a
kernel's host function. Only kernels in namespace warpspan are listed (not Thrust's or CUB's).

Exit status: 0 (the table; with --check, equal to the file), 1 (with --check: different, the diff is
printed), 2 (bad input, or no cubin for the architecture: a build without it), 77 (with --check and
--skip-missing: no input file, i.e. no nvcc build to compare with; ctest's SKIP_RETURN_CODE).
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import struct
import subprocess
import sys

EM_CUDA = 190
EIATTR_MAX_THREADS = 0x05
EIATTR_FRAME_SIZE = 0x11
EIATTR_REGCOUNT = 0x2F
STO_CUDA_ENTRY = 0x10
HEADER = "# kernel\tregisters\tshared_bytes\tstack_bytes\tmax_threads"
RESERVED_SHARED_SM90 = 1024


def fail(message: str, code: int = 2) -> None:
    print(f"resource_usage: {message}", file=sys.stderr)
    sys.exit(code)


def kernel_key(demangled: str) -> str:
    """`void ns::k<true>(int, float*)` -> `ns::k<true>`: the parameters (matched from the end, so
    `(anonymous namespace)` stays) and a template's return type go."""
    s = demangled.strip()
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    s = s[:i]
                    break
    if s.startswith("void "):
        s = s[len("void "):]
    return s


def demangle(names: list[str]) -> dict[str, str]:
    if not names:
        return {}
    tool = shutil.which("c++filt") or shutil.which("cu++filt")
    if tool is None:
        fail("no c++filt on PATH (binutils) to demangle the kernel names")
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    if len(lines) != len(names):
        fail(f"{tool} gave {len(lines)} names for {len(names)}")
    return dict(zip(names, lines))


def info_attributes(e: bytes, offset: int, size: int):
    """(attribute, value bytes) of an .nv.info section: EIFMT_SVAL (4) has a 16-bit size, every
    other format is 4 bytes in all (2 of them a value)."""
    at, end = offset, offset + size
    while at + 4 <= end:
        fmt, attr = e[at], e[at + 1]
        if fmt == 4:
            (n,) = struct.unpack_from("<H", e, at + 2)
            yield attr, e[at + 4:at + 4 + n]
            at += 4 + n
        elif fmt in (1, 2, 3):
            yield attr, e[at + 2:at + 4]
            at += 4
        else:
            return


def cubins(data: bytes):
    """Every CUDA ELF (cubin) embedded in `data` (an object, an archive of them): (arch, bytes)."""
    at = 0
    while True:
        i = data.find(b"\x7fELF", at)
        if i < 0:
            return
        at = i + 4
        if len(data) - i < 64 or data[i + 4] != 2 or data[i + 5] != 1:
            continue
        (machine,) = struct.unpack_from("<H", data, i + 18)
        if machine != EM_CUDA:
            continue
        (shoff,) = struct.unpack_from("<Q", data, i + 40)
        (flags,) = struct.unpack_from("<I", data, i + 48)
        shentsize, shnum = struct.unpack_from("<HH", data, i + 58)
        end = i + shoff + shentsize * shnum
        if shentsize != 64 or end > len(data):
            continue
        # ELF ABI version 8 (CUDA 12.x, 13.x) keeps the SM in bits 8..15 of e_flags, older ones in 0..7.
        arch = (flags >> 8) & 0xFF if data[i + 8] >= 7 else flags & 0xFF
        yield arch, data[i:end]


def read_cubin(e: bytes) -> dict[str, tuple[int, int, int, int]]:
    """mangled kernel -> (registers, static shared, stack, max threads) for the entries of one cubin."""
    (shoff,) = struct.unpack_from("<Q", e, 40)
    shnum, shstrndx = struct.unpack_from("<HH", e, 60)
    sections = [struct.unpack_from("<IIQQQQIIQQ", e, shoff + 64 * k) for k in range(shnum)]

    def cstr(table: int, offset: int) -> str:
        start = sections[table][4] + offset
        return e[start:e.index(b"\0", start)].decode()

    names = [cstr(shstrndx, s[0]) for s in sections]
    symtab = next((k for k, n in enumerate(names) if n == ".symtab"), None)
    if symtab is None:
        return {}
    symbols = []
    sym_off, sym_size, sym_link = sections[symtab][4], sections[symtab][5], sections[symtab][6]
    for k in range(sym_size // 24):
        st_name, st_info, st_other, st_shndx, _, _ = struct.unpack_from("<IBBHQQ", e, sym_off + 24 * k)
        symbols.append((cstr(sym_link, st_name), st_info & 0xF, st_other))
    reserved = any(n.startswith(".nv.shared.reserved.") for n in names)
    regs: dict[str, int] = {}
    frame: dict[str, int] = {}
    for n, s in zip(names, sections):
        if n != ".nv.info":
            continue
        for attr, value in info_attributes(e, s[4], s[5]):
            if attr in (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE) and len(value) == 8:
                sym, amount = struct.unpack("<II", value)
                (regs if attr == EIATTR_REGCOUNT else frame)[symbols[sym][0]] = amount
    out = {}
    for name, kind, other in symbols:
        if kind != 2 or not (other & STO_CUDA_ENTRY):  # STT_FUNC, a kernel entry
            continue
        shared = 0
        if (k := names.index(f".nv.shared.{name}") if f".nv.shared.{name}" in names else -1) >= 0:
            shared = sections[k][5]
            if reserved and shared >= RESERVED_SHARED_SM90:
                shared -= RESERVED_SHARED_SM90
        threads = 1024
        if f".nv.info.{name}" in names:
            s = sections[names.index(f".nv.info.{name}")]
            for attr, value in info_attributes(e, s[4], s[5]):
                if attr == EIATTR_MAX_THREADS and len(value) == 12:
                    x, y, z = struct.unpack("<III", value)
                    threads = x * y * z
        if name not in regs:
            fail(f"no register count for {name}")
        out[name] = (regs[name], shared, frame.get(name, 0), threads)
    return out


def with_cuobjdump(tool: str, path: str, arch: int) -> dict[str, tuple[int, int, int]]:
    """mangled kernel -> (REG, SHARED, STACK) from `cuobjdump --dump-resource-usage`."""
    text = subprocess.run([tool, "--dump-resource-usage", path], capture_output=True, text=True, check=True).stdout
    out, current_arch, function = {}, None, None
    for line in text.splitlines():
        if m := re.search(r"arch = sm_(\d+)", line):
            current_arch = int(m.group(1))
        elif m := re.match(r"\s*Function ([^:\s]+):", line):
            function = m.group(1)
        elif function and "REG:" in line:
            if current_arch == arch:
                fields = dict(re.findall(r"(\w+(?:\[\d+\])?):(\d+)", line))
                out[function] = (int(fields["REG"]), int(fields.get("SHARED", 0)), int(fields.get("STACK", 0)))
            function = None
    return out


def collect(paths: list[str], arch: int, tool: str) -> list[tuple[str, int, int, int, int]]:
    found: dict[str, tuple[int, int, int, int]] = {}
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        for a, e in cubins(data):
            if a != arch:
                continue
            for name, usage in read_cubin(e).items():
                if name in found and found[name] != usage:
                    fail(f"{name} differs between objects: {found[name]} and {usage}")
                found[name] = usage
        if tool == "cuobjdump":
            # cuobjdump's report must agree with the cubins' records: registers and stack exactly,
            # shared memory with or without sm_90's reserved 1 KiB.
            for name, (reg, shared, stack) in with_cuobjdump(shutil.which("cuobjdump"), path, arch).items():
                if name not in found:
                    continue
                mine = found[name]
                if reg != mine[0] or stack != mine[2] or shared not in (mine[1], mine[1] + RESERVED_SHARED_SM90):
                    fail(f"cuobjdump says REG:{reg} SHARED:{shared} STACK:{stack} for {name}, the cubin "
                         f"{mine[0]} registers, {mine[1]} bytes shared, {mine[2]} bytes stack")
    if not found:
        fail(f"no sm_{arch} kernels in {', '.join(paths)} (built without sm_{arch}, or with compressed fatbins)")
    demangled = demangle(sorted(found))
    rows: dict[str, tuple[int, int, int, int, int]] = {}
    for mangled, usage in found.items():
        key = kernel_key(demangled[mangled])
        if not key.startswith("warpspan::"):
            continue
        if key in rows and rows[key][1:] != usage:
            fail(f"two kernels are both {key}: overloads cannot be told apart by name")
        rows[key] = (key, *usage)
    return [rows[k] for k in sorted(rows)]


def render(rows, arch: int) -> str:
    lines = [f"# Registers, static shared memory (bytes, without the 1 KiB reserved per block), stack frame",
             f"# (bytes of local memory a thread) and most threads a block (__launch_bounds__) of every warpspan",
             f"# kernel as nvcc compiles it for sm_{arch}. Generated by scripts/resource_usage.py from the nvcc",
             f"# build's libwarpspan_cuda.a; the ctest resource_usage_matches_nvcc keeps it current. Do not edit.",
             HEADER]
    lines += ["\t".join(str(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="nvcc objects or static libraries (build/libwarpspan_cuda.a)")
    ap.add_argument("--arch", type=int, default=90, help="the SM whose cubins are read (default 90)")
    ap.add_argument("-o", "--output", help="write the table here instead of stdout")
    ap.add_argument("--check", metavar="TABLE", help="compare with this committed table (exit 1 when different)")
    ap.add_argument("--skip-missing", action="store_true", help="exit 77 when an input does not exist")
    ap.add_argument("--tool", choices=["auto", "elf", "cuobjdump"], default="auto",
                    help="also check against cuobjdump when on PATH (auto, cuobjdump), or not (elf)")
    args = ap.parse_args()
    missing = [p for p in args.inputs if not os.path.exists(p)]
    if missing:
        if args.skip_missing:
            print(f"resource_usage: no nvcc build ({', '.join(missing)}): skipped")
            sys.exit(77)
        fail(f"no such file: {', '.join(missing)}")
    tool = args.tool
    if tool == "auto":
        tool = "cuobjdump" if shutil.which("cuobjdump") else "elf"
    elif tool == "cuobjdump" and not shutil.which("cuobjdump"):
        fail("no cuobjdump on PATH")
    table = render(collect(args.inputs, args.arch, tool), args.arch)
    if args.check:
        with open(args.check) as f:
            committed = f.read()
        if committed != table:
            sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), table.splitlines(True),
                                                       args.check, "nvcc build"))
            print(f"resource_usage: {args.check} differs from the nvcc build ({tool}); regenerate it with\n"
                  f"  python3 scripts/resource_usage.py {' '.join(args.inputs)} -o {args.check}", file=sys.stderr)
            sys.exit(1)
        print(f"resource_usage: {args.check} equals the nvcc build's sm_{args.arch} kernels ({tool})")
        return
    if args.output:
        with open(args.output, "w") as f:
            f.write(table)
    else:
        sys.stdout.write(table)


if __name__ == "__main__":
    main()
