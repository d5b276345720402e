#!/usr/bin/env python3
"""Chooses the estimator's defaults on the makespan corpus (issue 26) and confirms them.

For every corpus case (bench/corpus/makespan_corpus.json) the budget is what `estimate --seconds 1` gives
the annealing on an idle 2-core machine, expressed in iterations so that the table does not depend on
the machine's load: the case's iterations per CPU-second (measured here, one chain on one thread) times
0.35 s x 2 cores, split over the default 4 chains. The annealing's share of `--seconds 1` is about 0.7 s
(the rest goes to set-up and the proven interval); half of it leaves a margin for the rounds' overhead
and for a machine that is not quite idle. Each setting then runs `warpspan estimate --iterations N --chains 4
--threads 2` (counter-based randomness: the result of a seed does not depend on timing) for seeds 1..S;
a case counts as reached when the best makespan equals its exact T(W).

  tune.py WARPSPAN [--seeds S] [--split tune|confirm|all] [--settings NAME,...] [--budgets OLD.json] [--out FILE.json]

--budgets takes the iterations per chain from an earlier results file instead of measuring them, so a
new build runs exactly the budgets of an earlier table (the runs are deterministic: equal settings
give equal bests).
"""
import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHAINS = 4
ANNEAL_CPU_SECONDS = 0.35 * 2  # half the annealing's share of --seconds 1 on 2 cores


def reach_4w(w, n):
    return min(4 * w, n)


# name -> (t0, reach(w, n) or None for the estimator's own default, extra options)
SETTINGS = {
    "default": (None, None, []),
    "before-issue-26": (0.01, reach_4w, ["--far-moves", "0"]),
    "4W/t0.01": (0.01, reach_4w, []),
    "whole/t0.01": (0.01, lambda w, n: n, []),
    "whole/t0.03": (0.03, lambda w, n: n, []),
    "whole/t0.1": (0.1, lambda w, n: n, []),
    "max(4W;n/4)/t0.01": (0.01, lambda w, n: max(reach_4w(w, n), n // 4), []),
    "max(4W;n/2)/t0.01": (0.01, lambda w, n: max(reach_4w(w, n), n // 2), []),
    "4W/t0.1": (0.1, reach_4w, []),
    "4W+far1/16/t0.01": (0.01, reach_4w, ["--far-moves", "0.0625"]),
    "4W+far1/8/t0.01": (0.01, reach_4w, ["--far-moves", "0.125"]),
    "4W+far1/4/t0.01": (0.01, reach_4w, ["--far-moves", "0.25"]),
    "4W+far1/2/t0.01": (0.01, reach_4w, ["--far-moves", "0.5"]),
}


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def calibrate(ws, case, iterations=40000):
    """Iterations per CPU-second of one chain of this case (set-up subtracted)."""
    base = [ws, "estimate", *case["kernel"], *case["sm"], "--warps", str(case["warps"]), "--chains", "1",
            "--threads", "1", "--backend", "cpu", "--json", "-q", "--no-table", "--exact-seconds", "0"]
    t = cpu_seconds()
    run(base + ["--iterations", "1"])
    setup = cpu_seconds() - t
    t = cpu_seconds()
    run(base + ["--iterations", str(iterations)])
    return iterations / max(cpu_seconds() - t - setup, 1e-3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warpspan", type=lambda p: str(Path(p).resolve()))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--split", default="tune", choices=["tune", "confirm", "all"])
    ap.add_argument("--settings", default=",".join(SETTINGS))
    ap.add_argument("--min-warps", type=int, default=4)
    ap.add_argument("--corpus", default=str(ROOT / "bench/corpus/makespan_corpus.json"))
    ap.add_argument("--out")
    ap.add_argument("--budgets", help="take every case's iterations per chain from this earlier results file "
                    "instead of measuring them (the same budgets, so settings compare across builds)")
    args = ap.parse_args()
    corpus = json.loads(Path(args.corpus).read_text())
    cases = [c for c in corpus["cases"] if (args.split == "all" or c["split"] == args.split) and c["warps"] >= args.min_warps]
    names = args.settings.split(",")
    results = {"what": "issue 26: estimator settings on the corpus, iterations = the annealing's share of --seconds 1 on 2 idle cores",
               "seeds": args.seeds, "split": args.split, "chains": CHAINS, "cases": []}
    totals = {n: 0 for n in names}
    budgets = {}
    if args.budgets:
        budgets = {(r["family"], r["warps"]): r["iterations_per_chain"] for r in json.loads(Path(args.budgets).read_text())["cases"]}
    for case in cases:
        kernel_info = run([args.warpspan, "kernel", *case["kernel"], *case["sm"], "--json"])
        n = kernel_info["normalized_instructions"] * case["warps"]
        per_chain = budgets.get((case["family"], case["warps"]))
        if per_chain is None:
            per_chain = int(calibrate(args.warpspan, case) * ANNEAL_CPU_SECONDS / CHAINS)
        row = {"family": case["family"], "warps": case["warps"], "exact": case["exact"], "string_length": n,
               "iterations_per_chain": per_chain, "settings": {}}
        for name in names:
            t0, reach, extra = SETTINGS[name]
            bests = []
            for seed in range(1, args.seeds + 1):
                cmd = [args.warpspan, "estimate", *case["kernel"], *case["sm"], "--warps", str(case["warps"]),
                       "--chains", str(CHAINS), "--threads", "2", "--iterations", str(per_chain), "--seed", str(seed),
                       "--backend", "cpu", "--json", "-q", "--no-table", "--exact-seconds", "0", *extra]
                if t0 is not None:
                    cmd += ["--t0", str(t0)]
                if reach is not None:
                    cmd += ["--reach", str(reach(case["warps"], n))]
                bests.append(run(cmd)["best_makespan"])
            hits = sum(b == case["exact"] for b in bests)
            totals[name] += hits
            row["settings"][name] = {"bests": bests, "reached": hits}
        results["cases"].append(row)
        print(f"{case['family']:24} W={case['warps']:2} T={case['exact']:4} n={n:4} N={per_chain:7}  " +
              "  ".join(f"{nm}:{row['settings'][nm]['reached']}/{args.seeds}" for nm in names), flush=True)
    results["reached"] = {n: f"{totals[n]} of {len(cases) * args.seeds}" for n in names}
    print("reached:", results["reached"])
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
