#!/usr/bin/env python3
"""The goal of issue 26 as a user meets it: `warpspan estimate --seconds S` with every default, on every
corpus case with W >= 4 (bench/corpus/makespan_corpus.json), seeds 1..N. Prints, per case, the best
makespans against the exact T(W) and the proven intervals; times depend on the machine and its load,
so run it on an idle one and say which.

  wall_check.py WARPSPAN [--seconds 1] [--seeds 3] [--split tune|confirm] [--extra OPTIONS] [--out FILE.json]
"""
import argparse
import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warpspan", type=lambda p: str(Path(p).resolve()))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--min-warps", type=int, default=4)
    ap.add_argument("--split", choices=["tune", "confirm"], help="only the cases of this part of the corpus")
    ap.add_argument("--corpus", default=str(ROOT / "bench/corpus/makespan_corpus.json"))
    ap.add_argument("--extra", default="", help="more estimate options, e.g. \"--beam-share 0.4\"")
    ap.add_argument("--out")
    args = ap.parse_args()
    cases = [c for c in json.loads(Path(args.corpus).read_text())["cases"] if c["warps"] >= args.min_warps
             and (args.split is None or c["split"] == args.split)]
    rows, reached, proven, runs = [], 0, 0, 0
    for case in cases:
        row = {"family": case["family"], "split": case["split"], "warps": case["warps"], "exact": case["exact"], "runs": []}
        for seed in range(1, args.seeds + 1):
            cmd = [args.warpspan, "estimate", *case["kernel"], *case["sm"], "--warps", str(case["warps"]),
                   "--seconds", str(args.seconds), "--seed", str(seed), "--backend", "cpu", "--json", "-q", "--no-table", *args.extra.split()]
            d = json.loads(subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True).stdout)
            p = d.get("proven") or {}
            row["runs"].append({"seed": seed, "best": d["best_makespan"], "elapsed_s": round(d["elapsed_s"], 3),
                                "proven": [p.get("lower"), p.get("upper")] if p else None})
            runs += 1
            reached += d["best_makespan"] == case["exact"]
            proven += bool(p) and p.get("lower") == p.get("upper") == case["exact"]
        rows.append(row)
        print(f"{case['family']:24} W={case['warps']:2} T={case['exact']:4}  bests " +
              " ".join(str(r["best"]) for r in row["runs"]) + "  proven " +
              " ".join(str(r["proven"]) for r in row["runs"]), flush=True)
    summary = {"runs": runs, "best_equals_exact": reached, "proven_exactly": proven}
    print(summary)
    if args.out:
        Path(args.out).write_text(json.dumps({"what": f"estimate --seconds {args.seconds} {args.extra}, defaults, seeds 1..{args.seeds}",
                                              "load_average_at_end": os.getloadavg(), "summary": summary,
                                              "cases": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
