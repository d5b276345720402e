#!/usr/bin/env python3
"""The beam search alone on every corpus case (bench/corpus/makespan_corpus.json): `warpspan build
--init beam` (one beam of the default width, 1,024, on one thread), its makespan against the exact
T(W), and the wall time of the whole command. Deterministic answers; the times depend on the
machine and its load.

  beam_check.py WARPSPAN [--min-warps 4] [--split tune|confirm] [--out FILE.json]
"""
import argparse
import json
import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warpspan", type=lambda p: str(Path(p).resolve()))
    ap.add_argument("--min-warps", type=int, default=4)
    ap.add_argument("--split", choices=["tune", "confirm"])
    ap.add_argument("--corpus", default=str(ROOT / "bench/corpus/makespan_corpus.json"))
    ap.add_argument("--out")
    args = ap.parse_args()
    rows, hits = [], 0
    for case in json.loads(Path(args.corpus).read_text())["cases"]:
        if case["warps"] < args.min_warps or (args.split and case["split"] != args.split):
            continue
        cmd = [args.warpspan, "build", *case["kernel"], *case["sm"], "--warps", str(case["warps"]), "--init", "beam", "--json"]
        t0 = time.perf_counter()
        d = json.loads(subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True).stdout)
        took = time.perf_counter() - t0
        hit = d["makespan"] == case["exact"]
        hits += hit
        rows.append({"family": case["family"], "split": case["split"], "warps": case["warps"], "exact": case["exact"],
                     "beam": d["makespan"], "wall_s": round(took, 3)})
        print(f"{case['family']:24} W={case['warps']:2} T={case['exact']:4}  beam {d['makespan']:4} "
              f"{'' if hit else 'MISS '}{took:.3f} s", flush=True)
    summary = {"cases": len(rows), "beam_equals_exact": hits, "max_wall_s": max(r["wall_s"] for r in rows)}
    print(summary)
    if args.out:
        Path(args.out).write_text(json.dumps({"what": "build --init beam (width 1024, one thread)",
                                              "load_average_at_end": os.getloadavg(), "summary": summary,
                                              "cases": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
