#!/usr/bin/env python3
"""Hard makespan cases and the time a user waits for the worst case on them (issue 42, item 6).

Moves per second are not what users buy: they buy the worst-case makespan, soon. This script builds a
corpus of cases large enough that a GPU could matter (W from 16 to 64, kernels of 25 to 200
instructions: Voronoi, nvcc's PTX of it and of a kernel with barriers, strings drawn at random), finds
each case's target (the best makespan long runs reached, or the exact value where the run proved it)
and measures, per backend, the wall time from process start to the first envelope point at the target.

  time_to_target.py WARPSPAN targets [--seconds 120] [--seeds 2] [--backends cpu,cuda] [--cases A,B]
                                     [--out bench/corpus/hard_corpus.json]
  time_to_target.py WARPSPAN measure [--corpus bench/corpus/hard_corpus.json] [--budget 60] [--seeds 10]
                                     [--backend cpu] [--init random] [--cases A,B] [--out FILE.json]

`targets` runs `warpspan estimate --seconds S` (every default, the cooling fitted to the budget) for
each seed and backend and keeps the largest best makespan with its provenance (backend, seed,
seconds, machine, commit); where the proven interval is closed the target is the exact value. It
also keeps the constructive starts' best (the envelope's first point): a case whose target is no
more than that (`annealing_needed` false) measures a start, not the search.
`measure` runs each case `--seeds` times, each a fresh process with `--seconds BUDGET`, and reads
the envelope of its `--json`: the time to the target is the process's start-up (its wall time less
the search's elapsed_s and the proven interval's, which follows the search) plus the envelope point's
time; a run that never reaches it is censored at the
budget. `--init random` leaves out the constructive starts (the starved string, the beam search),
which reach some targets before the first move; the default mix is measured by `--init mix`, and the
two are reported apart. The report per case: median (None when more than half are censored),
reached/seeds, and the success curve (the share of seeds at the target by 1, 2, 5, 10, 20, 50, 100,
200 and 500 s). A case belongs to the hard corpus where annealing is needed and the all-core CPU's
median is at least 10 s.
Times depend on the machine and its load: run on an idle one and say which.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import random_kernel  # noqa: E402 (the corpus of issue 26 draws its strings the same way)

CURVE = [1, 2, 5, 10, 20, 50, 100, 200, 500]


# (name, kernel options, SM options, warps): Voronoi (25 instructions), nvcc's PTX of Voronoi and of a
# kernel with barriers, and random strings of 50, 100 and 200 instructions over the four types.
def candidates():
    out = []
    for w in (16, 24, 32, 48, 64):
        out.append((f"voronoi/L1C4/W{w}", ["--kernel", "5L9C2L9C"], ["--sigma", "L=1,C=4"], w))
    for w in (16, 32, 64):
        out.append((f"voronoi-nvcc/hopper/W{w}", ["--ptx", "data/kernels/voronoi_fig10_sm90.ptx"],
                    ["--sm", "hopper-9.0"], w))
        out.append((f"barriers-nvcc/ampere/W{w}", ["--ptx", "data/kernels/barrier_kernels_sm80.ptx", "--block-warps", "8"],
                    ["--sm", "ampere-8.0"], w))
    for n, letters, sm_name, sm in ((50, "LLCCS", "volta", ["--sm", "volta-7.0"]),
                                    (100, "LCCSD", "kepler", ["--sm", "kepler-3.5"]),
                                    (200, "LLCCCS", "L1C2S1-s2", ["--sigma", "L=1,C=2,S=1", "--schedulers", "2"])):
        for w in (16, 32, 64):
            out.append((f"rand{n}/{sm_name}/W{w}", ["--kernel", random_kernel(n, n, letters)], sm, w))
    return out


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs"


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def estimate(warpspan, case, seconds, seed, backend, extra=()):
    """One fresh process; returns (its JSON, wall seconds from just before it started to its end)."""
    cmd = [warpspan, "estimate", *case["kernel"], *case["sm"], "--warps", str(case["warps"]), "--seconds", str(seconds),
           "--seed", str(seed), "--backend", backend, "--json", "-q", "--no-table", *extra]
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - start
    if r.returncode != 0:
        raise SystemExit(f"time_to_target.py: {' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout), wall


def pick(cases, names):
    if not names:
        return cases
    wanted = set(names.split(","))
    return [c for c in cases if c["name"] in wanted]


def targets(args):
    cases = pick([{"name": n, "kernel": k, "sm": s, "warps": w} for n, k, s, w in candidates()], args.cases)
    out = {"what": "hard makespan cases and their targets (issue 42, item 6); bench/corpus/time_to_target.py",
           "command": " ".join(["time_to_target.py", "WARPSPAN", *sys.argv[2:]]), "machine": machine(),
           "commit": commit(), "date": time.strftime("%Y-%m-%d"), "cases": []}
    for case in cases:
        best, runs, exact = 0, [], None
        for backend in args.backends.split(","):
            for seed in range(1, args.seeds + 1):
                d, wall = estimate(args.warpspan, case, args.seconds, seed, backend)
                p = d.get("proven") or {}
                runs.append({"backend": d["backend"], "seed": seed, "seconds": args.seconds, "best": d["best_makespan"],
                             "start_best": d["envelope"][0][1], "wall_s": round(wall, 2),
                             "proven": [p.get("lower"), p.get("upper")] if p else None})
                best = max(best, d["best_makespan"])
                if p.get("exact"):
                    exact = p["upper"]
                print(f"{case['name']}: {backend} seed {seed}: best {d['best_makespan']}, proven {p.get('lower')}.."
                      f"{p.get('upper')}", file=sys.stderr)
        upper = min((r["proven"][1] for r in runs if r["proven"] and r["proven"][1]), default=None)
        start = max(r["start_best"] for r in runs)
        target = exact if exact is not None else best
        out["cases"].append({**case, "target": target,
                             "target_from": "exact (the proven interval closed)" if exact is not None
                             else "the best of the runs below", "upper_bound": upper,
                             # The constructive starts' best (the envelope at 0): where it is the target, the
                             # annealing found nothing better and the case only measures a start.
                             "start_best": start, "annealing_needed": target > start, "runs": runs})
        write(args.out, out)


def measure(args):
    corpus = json.loads(Path(args.corpus).read_text())
    rows = []
    extra = ("--init", args.init) if args.init else ()
    for case in pick(corpus["cases"], args.cases):
        times, runs = [], []
        for seed in range(1, args.seeds + 1):
            d, wall = estimate(args.warpspan, case, args.budget, seed, args.backend, extra)
            # Before the search: the process's start, the set-up (CUDA's context, the chains, the beam);
            # after it, the proven interval's exact search, which the wall time also holds.
            proof = (d.get("proven") or {}).get("elapsed_s") or 0.0
            startup = max(0.0, wall - d["elapsed_s"] - proof)
            at = next((t for t, best in d["envelope"] if best >= case["target"]), None)
            reached = at is not None and startup + at <= args.budget
            t = startup + at if reached else None
            times.append(t)
            runs.append({"seed": seed, "best": d["best_makespan"], "time_to_target_s": None if t is None else round(t, 3),
                         "startup_s": round(startup, 3), "elapsed_s": round(d["elapsed_s"], 3),
                         "backend": d["backend"], "chains": d["chains"]})
        mid = censored_median(times)
        row = {"name": case["name"], "warps": case["warps"], "target": case["target"], "backend": args.backend,
               "init": args.init or "mix", "budget_s": args.budget, "seeds": args.seeds,
               "reached": sum(t is not None for t in times),
               "median_s": None if mid is None else round(mid, 3),
               "success": {str(c): sum(t is not None and t <= c for t in times) / len(times) for c in CURVE if c <= args.budget},
               "hard": mid is None or mid >= 10, "runs": runs}
        rows.append(row)
        print(f"{case['name']}: target {case['target']}, {row['reached']}/{args.seeds} reached, median "
              f"{row['median_s']} s", file=sys.stderr)
        write(args.out, {"what": "time to target (issue 42, item 6); bench/corpus/time_to_target.py measure",
                         "command": " ".join(["time_to_target.py", "WARPSPAN", *sys.argv[2:]]),
                         "machine": machine(), "commit": commit(), "date": time.strftime("%Y-%m-%d"),
                         "corpus": os.path.relpath(args.corpus, ROOT), "cases": rows})
    print_table(rows)


def censored_median(times):
    """The median of times where None is a censored run, sorted last: None where one is in the middle."""
    ordered = sorted(times, key=lambda t: (t is None, t or 0))
    middle = ordered[(len(ordered) - 1) // 2:len(ordered) // 2 + 1]
    return None if any(t is None for t in middle) else sum(middle) / len(middle)


def print_table(rows):
    print("| case | target | backend, starts | reached | median s | " + " | ".join(f"by {c} s" for c in CURVE) + " |")
    print("|---|---|---|---|---|" + "---|" * len(CURVE))
    for r in rows:
        curve = " | ".join(f"{r['success'][str(c)]:.1f}" if str(c) in r["success"] else "-" for c in CURVE)
        median = "censored" if r["median_s"] is None else f"{r['median_s']:.2f}"
        print(f"| {r['name']} | {r['target']} | {r['backend']}, {r['init']} | {r['reached']}/{r['seeds']} | {median} | "
              f"{curve} |")


def write(path, data):
    if not path:
        return
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)  # whole or not at all


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warpspan", type=lambda p: str(Path(p).resolve()))
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("targets")
    t.add_argument("--seconds", type=float, default=120)
    t.add_argument("--seeds", type=int, default=2)
    t.add_argument("--backends", default="cpu")
    t.add_argument("--cases", help="comma-separated case names (default: every candidate)")
    t.add_argument("--out", default=str(ROOT / "bench/corpus/hard_corpus.json"))
    m = sub.add_parser("measure")
    m.add_argument("--corpus", default=str(ROOT / "bench/corpus/hard_corpus.json"))
    m.add_argument("--budget", type=float, default=60)
    m.add_argument("--seeds", type=int, default=10)
    m.add_argument("--backend", default="cpu")
    m.add_argument("--init", default="random", help="random (no constructive starts) or mix (estimate's default)")
    m.add_argument("--cases")
    m.add_argument("--out")
    args = ap.parse_args()
    (targets if args.what == "targets" else measure)(args)


if __name__ == "__main__":
    main()
