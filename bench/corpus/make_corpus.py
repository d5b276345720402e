#!/usr/bin/env python3
"""Builds the makespan corpus of issue 26: cases with a known exact worst-case makespan T(W).

Each case is a kernel string, an SM (sigma and scheduler limit, given as `warpspan` options) and a
number of warps W. T(W) comes from `warpspan exact` (the multiset search); a case whose search does
not finish within --time-limit seconds is left out (and listed as such). Kernels: Voronoi (paper 000),
the string nvcc 13 makes of its C code (data/kernels/voronoi_fig10_sm90.ptx), and strings drawn at
random (fixed seeds) over the four instruction types. Cases are split by kernel and SM, not by W, into a
part to tune the estimator's defaults on and a part to confirm them on.

  make_corpus.py WARPSPAN [--time-limit S] [--out bench/corpus/makespan_corpus.json]
"""
import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def random_kernel(seed, length, letters):
    rng = random.Random(seed)
    return "".join(rng.choice(letters) for _ in range(length))


# (name, kernel options, SM options, split)
FAMILIES = [
    ("voronoi/L1C4", ["--kernel", "5L9C2L9C"], ["--sigma", "L=1,C=4"], "tune"),
    ("voronoi/fermi", ["--kernel", "5L9C2L9C"], ["--sm", "fermi-2.0"], "confirm"),
    ("voronoi/L1C2-s2", ["--kernel", "5L9C2L9C"], ["--sigma", "L=1,C=2", "--schedulers", "2"], "tune"),
    ("voronoi-nvcc/hopper", ["--ptx", "data/kernels/voronoi_fig10_sm90.ptx"], ["--sm", "hopper-9.0"], "confirm"),
    ("rand12-LC/L1C2", ["--kernel", random_kernel(12, 12, "LCC")], ["--sigma", "L=1,C=2"], "tune"),
    ("rand16-LCSD/volta", ["--kernel", random_kernel(16, 16, "LCCSD")], ["--sm", "volta-7.0"], "confirm"),
    ("rand20-LCS/kepler", ["--kernel", random_kernel(20, 20, "LLCCS")], ["--sm", "kepler-3.5"], "tune"),
    ("rand10-LCD/L1C1D1-s1", ["--kernel", random_kernel(10, 10, "LCD")], ["--sigma", "L=1,C=1,D=1", "--schedulers", "1"], "confirm"),
    ("rand24-LC/L1C4", ["--kernel", random_kernel(24, 24, "LCCC")], ["--sigma", "L=1,C=4"], "confirm"),
    ("rand14-LCS/ampere", ["--kernel", random_kernel(14, 14, "LCS")], ["--sm", "ampere-8.0"], "tune"),
]


# Values the search gets only in minutes: taken from the committed sweeps (bench/results/archive/exact/).
KNOWN = {("voronoi/L1C4", 9): (95, "bench/results/archive/exact/exact_sweep_voronoi_w9_cpu_2core.json"),
         ("voronoi/L1C4", 10): (104, "bench/results/archive/exact/exact_sweep_voronoi_w10_cpu_2core.json"),
         ("voronoi/L1C4", 11): (114, "bench/results/archive/exact/exact_sweep_voronoi_w11_cpu_2core.json")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warpspan", type=lambda p: str(Path(p).resolve()))
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--max-warps", type=int, default=11)
    ap.add_argument("--out", default=str(ROOT / "bench/corpus/makespan_corpus.json"))
    args = ap.parse_args()
    cases, left_out = [], []
    for name, kernel, sm, split in FAMILIES:
        for w in range(2, args.max_warps + 1):
            cmd = [args.warpspan, "exact", *kernel, *sm, "--warps", str(w), "--json", "-q", "--no-table",
                   "--time-limit", str(args.time_limit)]
            t = time.monotonic()
            out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
            if out.returncode != 0:
                sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
            r = json.loads(out.stdout)
            entry = {"family": name, "kernel": kernel, "sm": sm, "warps": w, "split": split,
                     "exact_s": round(time.monotonic() - t, 2), "states": r.get("states")}
            if r["complete"]:
                entry["exact"] = r["makespan"]
                cases.append(entry)
            elif (name, w) in KNOWN:
                entry["exact"], entry["exact_from"] = KNOWN[(name, w)]
                cases.append(entry)
                print(f"{name:24} W={w:2} T={entry['exact']} from {entry['exact_from']}")
                continue
            else:
                entry["interval"] = [r["lower"], r["upper"]]
                left_out.append(entry)
            print(f"{name:24} W={w:2} {'T=' + str(r['makespan']) if r['complete'] else 'open ' + str([r['lower'], r['upper']])}"
                  f"  {entry['exact_s']} s", flush=True)
            if not r["complete"]:
                break  # larger W will not finish either
    doc = {"what": "makespan corpus: cases with exact T(W) from `warpspan exact` (issue 26)",
           "command": " ".join(["bench/corpus/make_corpus.py", "WARPSPAN", "--time-limit", str(args.time_limit),
                                "--max-warps", str(args.max_warps)]),
           "cases": cases, "left_out": left_out}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(cases)} cases ({sum(c['split'] == 'tune' for c in cases)} to tune on), {len(left_out)} left out -> {args.out}")


if __name__ == "__main__":
    main()
