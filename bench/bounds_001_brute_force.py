#!/usr/bin/env python3
"""Checks 001's two bounds against the exact worst case on random kernels (docs/makespan.md,
"Upper bounds"): for every kernel, T(1..7) by `warpspan exact` (the sweep, without a warm start),
then whether T(W) <= ceil(W / y) T(y) (eq. 42), T(a + b) <= T(a) + T(b), and T(W) <= 001's Sec. 4
formula (`pessimistic_001` of `bound --json`) and <= warpspan's pessimistic bound. Prints one line
per kernel and a summary; writes JSON with --out.

    python3 bench/bounds_001_brute_force.py build/warpspan --kernels 40 --seed 1 --out r.json
"""
import argparse
import json
import random
import subprocess


def run(binary, *args):
    out = subprocess.run([binary, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--kernels", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-warps", type=int, default=7)
    ap.add_argument("--out")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = []
    for _ in range(a.kernels):
        kernel = "".join(f"{rng.randint(1, 4)}{rng.choice('LC')}" for _ in range(rng.randint(1, 4)))
        sigma = f"L={rng.choice([1, 2, 3])},C={rng.choice([1, 2, 4])}"
        T, formula, bound = {}, {}, {}
        for w in range(1, a.max_warps + 1):
            args = ["--kernel", kernel, "--warps", str(w), "--sigma", sigma]
            r = run(a.binary, "exact", *args, "--warm-start", "0", "--time-limit", "20", "-q", "--no-table")
            if not r["complete"]:
                break
            T[w] = r["makespan"]
            b = run(a.binary, "bound", *args)
            formula[w], bound[w] = b["pessimistic_001"], b["pessimistic"]
        broken = {"eq42": [], "subadditive": [], "sec4": [], "bound": []}
        for w in T:
            broken["eq42"] += [[w, y] for y in range(1, w) if T[w] > -(-w // y) * T[y]]
            broken["subadditive"] += [[w, x] for x in range(1, w // 2 + 1) if T[w] > T[x] + T[w - x]]
            if T[w] > formula[w]:
                broken["sec4"].append(w)
            if T[w] > bound[w]:
                broken["bound"].append(w)
        cases.append({"kernel": kernel, "sigma": sigma, "T": [T[w] for w in sorted(T)], "broken": broken})
        print(kernel, sigma, cases[-1]["T"], {k: len(v) for k, v in broken.items()}, flush=True)
    summary = {k: sum(1 for c in cases if c["broken"][k]) for k in ("eq42", "subadditive", "sec4", "bound")}
    print(f"kernels: {len(cases)}; kernels where each fails: {summary}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"command": "python3 bench/bounds_001_brute_force.py " + " ".join(
                f"--{k.replace('_', '-')} {v}" for k, v in vars(a).items() if k not in ("binary", "out") and v is not None),
                "summary": summary, "cases": cases}, f, indent=1)


if __name__ == "__main__":
    main()
