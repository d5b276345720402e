#!/usr/bin/env python3
"""Warp instructions a move, estimated from the CPU's instruction counts of the same step: the GPU
model's instruction-issue bound (issue 42, item 5; warpspan_gpu_model --issue FILE).

  issue_estimate.py [--team-step build/bench/warpspan_team_step] [--moves 500] [--warm 2000]
                    [--out bench/results/current/issue_estimate_cpu.json]

Each design's step runs on one lane under callgrind (bench/count/team_step.cpp: Voronoi 5L9C2L9C,
sigma L=1,C=4, moving as estimate's chains do, from the best string `--warm` moves reached, as the
model counts them), and its instructions are split by source line:

* a thread a chain (anneal_kernel): every instruction is the lane's own; the model divides them by
  the lanes a warp's requests keep active (its emulated counts), as a warp issues an instruction
  once for its active lanes;
* a warp a chain (the team step, team_schedule.hpp): the serial part (the move, the placements, the
  rejoin's bookkeeping) is issued once a warp; the loops over (warp, instruction) pairs
  (team_take_out, team_put_back_rest, team_restore, team_complete, team_makespan, team_count,
  warp_at) are shared by 32 lanes, so a warp issues 1/32 of them; the search for a free cycle, one
  cycle an iteration on one lane, is 32 cycles an iteration on a warp: ceil(mean cycles / 32)
  iterations a placement. The read-ahead (team_next_read, team_read_ahead, team_commit_progress)
  is one lane's work once a read of 32 positions on a warp, once a placement on one lane: scaled
  by a warp's reads a move (`team_step --reads`: a rebuild of n placements reads ceil(n / 32)
  times) over the placements. The helpers of problem.hpp and team.hpp are inlined into every part:
  `warp_instructions` gives each helper instruction to the part of the nearest non-helper
  instruction before it by address (the code it was inlined into); `low` counts them all as
  shared, `high` all as serial, the bounds of that attribution.

Assumed: one SASS instruction per x86-64 instruction of the -O3 host build (SASS has no memory
operands, x86 folds loads into arithmetic; both have the same integer work); the ballot, the sync and
the atomics a GPU issues besides are the model's counted collectives. An estimate, not a bound: no GPU
has measured it.
"""
import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEAM = "include/warpspan/detail/makespan/team_schedule.hpp"
# (step, W): the thread kernel's step at W = 3, 16 and 64, the warp kernel's compact step at W = 16
# and its narrow step at W = 48 and 64.
CASES = [("thread", 3), ("thread", 16), ("thread", 64), ("rejoin4x1", 16), ("rejoin8x4", 48), ("rejoin8x4", 64)]


def function_lines():
    """Line ranges of team_schedule.hpp: the shared loops, the per-read functions, the search loop
    of team_place, the line that counts placements."""
    lines = (ROOT / TEAM).read_text().splitlines()
    starts = {}
    for i, text in enumerate(lines, 1):
        m = re.search(r"WARPSPAN_HD_INLINE [\w:<>\s]*?\b(\w+)\(", text)
        if m and not text.startswith(" "):
            starts[m.group(1)] = i

    def body(name):  # from the signature to the closing brace at column 0
        a = starts[name]
        b = next(i for i in range(a, len(lines) + 1) if lines[i - 1] == "}")
        return a, b

    shared = [body(n) for n in ("warp_at", "team_count", "team_complete", "team_take_out", "team_put_back_rest",
                                "team_restore", "team_makespan")]
    per_read = [body(n) for n in ("team_next_read", "team_read_ahead", "team_commit_progress")]
    a, b = body("team_place")
    search_a = next(i for i in range(a, b) if "for (std::uint32_t base = from;" in lines[i - 1])
    depth, search_b = 0, search_a
    for i in range(search_a, b + 1):
        depth += lines[i - 1].count("{") - lines[i - 1].count("}")
        if depth == 0:
            search_b = i
            break
    store = next(i for i in range(a, b) if "c.cycle[at] = t;" in lines[i - 1])
    return {"shared": shared, "per_read": per_read, "search": (search_a, search_b), "store": store}


def parse(path):
    """Per (file, line) instructions, and per instruction address (file, line, executions)."""
    files, per_line, per_instr = {}, collections.defaultdict(int), {}
    cur = fl = None
    addr = line = 0
    after_call = False
    for raw in open(path):
        s = raw.rstrip("\n")
        m = re.match(r"^(fl|fi|fe)=\((\d+)\)(?: (.*))?$", s)
        if m:
            kind, i, name = m.groups()
            if name:
                files[i] = name
            cur = files.get(i)
            if kind == "fl":
                fl = cur
            continue
        if s.startswith("fn="):
            cur = fl
            continue
        if s.startswith("calls="):
            after_call = True
            continue
        if not s or s[0] not in "0123456789+-*":
            continue
        parts = s.split()
        if len(parts) < 3:
            continue
        a, ln, c = parts[0], parts[1], int(parts[2])
        addr = int(a, 16) if a.startswith("0x") else addr + int(a) if a[0] in "+-" else addr
        line = line if ln == "*" else line + int(ln) if ln[0] in "+-" else int(ln)
        if after_call:  # a call's inclusive cost, not its line's own
            after_call = False
            continue
        per_line[(cur, line)] += c
        f, l0, old = per_instr.get(addr, (cur, line, 0))
        per_instr[addr] = (f, l0, old + c)
    return per_line, per_instr


def kind_of(name, ln, ranges):
    """The part a source line belongs to (see the module's text)."""
    if name == "team_schedule.hpp":
        if any(a <= ln <= b for a, b in ranges["shared"]):
            return "shared"
        if any(a <= ln <= b for a, b in ranges["per_read"]):
            return "per_read"
        sa, sb = ranges["search"]
        return "search" if sa <= ln <= sb else "serial"
    if name in ("anneal.hpp", "schedule.hpp", "rng.hpp", "team_step.cpp"):
        return "serial"
    if name in ("problem.hpp", "team.hpp"):
        return "helpers"
    return "other"


def estimate(team_step, step, warps, warm, moves, ranges):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=*counted_moves*", "--dump-instr=yes", "--dump-line=yes",
               f"--callgrind-out-file={out}", team_step, step, str(warps), str(warm), str(moves)]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        per_line, per_instr = parse(out)
    parts = collections.Counter()
    for (f, ln), c in per_line.items():
        parts[kind_of((f or "").split("/")[-1], ln, ranges)] += c
    # The helpers (problem.hpp, team.hpp) are inlined into both parts: each of their instructions
    # goes to the part of the nearest instruction before it (by address) that is not a helper's,
    # the code it was inlined into.
    helpers_in = collections.Counter()
    last = "serial"
    for addr in sorted(per_instr):
        f, ln, c = per_instr[addr]
        kind = kind_of((f or "").split("/")[-1], ln, ranges)
        if kind == "helpers":
            helpers_in[last] += c
        elif kind != "other":
            last = kind

    def most_executed(lo, hi):
        return max((c for f, ln, c in per_instr.values() if f and f.endswith(TEAM) and lo <= ln <= hi), default=0)

    per = {k: v / moves for k, v in parts.items()}
    row = {"step": step, "warps": warps, "moves": moves, "warm": warm,
           "x86_per_move": round(sum(per.values()), 1), "parts_per_move": {k: round(v, 1) for k, v in per.items()}}
    if step != "thread":
        sa, sb = ranges["search"]
        placements = most_executed(ranges["store"], ranges["store"]) / moves
        iterations = most_executed(sa, sb) / moves
        reads = 0.0
        if per.get("per_read", 0) > 0:
            # The same moves run natively, counted exactly (the step inlines team_place more than
            # once, so no one instruction counts them): placements, the search's iterations, and a
            # warp's reads of 32 positions, each a move.
            text = subprocess.run([team_step, "--reads", step, str(warps), str(warm), str(moves)], check=True,
                                  capture_output=True, text=True).stdout
            m = re.search(r"placements ([0-9.]+) reads ([0-9.]+) iterations ([0-9.]+)", text)
            placements, reads, iterations = (float(x) for x in m.groups())
        per_iteration = per.get("search", 0) / iterations if iterations else 0
        warp_iterations = placements * max(1, math.ceil(iterations / placements / 32)) if placements else 0
        # A read's work is one lane's on a warp, once a read; one lane runs it once a placement.
        read_share = reads / placements if placements else 0
        base = (per.get("serial", 0) + per_iteration * warp_iterations + per.get("shared", 0) / 32 +
                per.get("per_read", 0) * read_share + per.get("other", 0))
        h = {k: v / moves for k, v in helpers_in.items()}
        helpers_attributed = (h.get("serial", 0) + h.get("search", 0) + h.get("shared", 0) / 32 +
                              h.get("per_read", 0) * read_share)
        row.update({"placements_per_move": round(placements, 1), "reads_per_move": round(reads, 2),
                    "search_cycles_per_placement": round(iterations / placements, 2) if placements else 0,
                    "helpers_by_part": {k: round(v, 1) for k, v in h.items()},
                    "warp_instructions_low": round(base + per.get("helpers", 0) / 32, 1),
                    "warp_instructions_high": round(base + per.get("helpers", 0), 1),
                    "warp_instructions": round(base + helpers_attributed, 1)})
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--team-step", default=str(ROOT / "build/bench/warpspan_team_step"))
    ap.add_argument("--moves", type=int, default=500)
    ap.add_argument("--warm", type=int, default=2000)
    ap.add_argument("--out", default=str(ROOT / "bench/results/current/issue_estimate_cpu.json"))
    args = ap.parse_args()
    ranges = function_lines()
    rows = []
    for step, warps in CASES:
        rows.append(estimate(args.team_step, step, warps, args.warm, args.moves, ranges))
        print(json.dumps(rows[-1]), file=sys.stderr)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    data = {"what": "x86 instructions a move of each design's step (callgrind), and the warp instructions they stand "
                    "for; bench/count/issue_estimate.py", "date": time.strftime("%Y-%m-%d"), "commit": commit.strip(),
            "assumed": "one SASS instruction per x86-64 instruction (-O3); shared loops issued 1/32 a warp; the "
                       "search 32 cycles an iteration", "rows": rows}
    tmp = Path(args.out).with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(args.out)


if __name__ == "__main__":
    main()
