#!/usr/bin/env python3
"""1,000 task-set variants: warpspan.dbf_batch (one call) against 1,000 `warpspan dbf FILE --json`
calls, 1,000 warpspan.dbf calls and one `warpspan dbf --batch`. Prints a Markdown table (the numbers
in bench/results/current/python_batch.md come from here).

    PYTHONPATH=build/python python3 bench/python_batch.py [build/warpspan] [--sets 1000]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import warpspan


def timed(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", default="build/warpspan")
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--vertices", type=int, default=10)
    ap.add_argument("--max-wcet", type=int, default=100)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        gen = ["generate-tasks", "--sets", str(a.sets), "--tasks", "3", "--vertices", str(a.vertices),
               "--max-wcet", str(a.max_wcet), "--utilization", "0.8", "--seed", "1"]
        subprocess.run([a.binary] + gen + ["--out", f"{tmp}/sets"], check=True, capture_output=True)
        subprocess.run([a.binary] + gen + ["--out", f"{tmp}/sets.jsonl"], check=True, capture_output=True)
        files = sorted(Path(tmp, "sets").glob("*.json"))
        sets = [json.loads(f.read_text()) for f in files]

        def cli_each():
            return [json.loads(subprocess.run([a.binary, "dbf", str(f), "--json", "--backend", a.backend],
                                              capture_output=True, text=True).stdout)["schedulable"] for f in files]

        rows = []
        t_cli, v_cli = timed(cli_each)
        rows.append((f"{a.sets} x `warpspan dbf FILE --json` (subprocess, JSON parsed)", t_cli))
        t_batch, v_batch = timed(lambda: [v.schedulable for v in warpspan.dbf_batch(sets, backend=a.backend)])
        rows.append((f"`warpspan.dbf_batch(list of {a.sets} dicts)`", t_batch))
        t_loop, v_loop = timed(lambda: [warpspan.dbf(s, backend=a.backend).schedulable for s in sets])
        rows.append((f"{a.sets} x `warpspan.dbf(dict)`", t_loop))
        t_one, out = timed(lambda: subprocess.run([a.binary, "dbf", "--batch", f"{tmp}/sets.jsonl", "--json",
                                                   "--backend", a.backend], capture_output=True, text=True).stdout)
        v_one = [json.loads(line)["schedulable"] for line in out.splitlines()]
        rows.append(("one `warpspan dbf --batch sets.jsonl --json` (subprocess)", t_one))
        assert v_cli == v_batch == v_loop == v_one, "the verdicts differ"
    print(f"{a.sets} generated sets (3 tasks of {a.vertices} vertices, wcet up to {a.max_wcet}, U = 0.8, seed 1), "
          f"backend {a.backend}, "
          f"{sum(v_batch)} schedulable; {os.cpu_count()} CPUs\n")
    print("| how | seconds | per set | vs. CLI calls |\n|---|---:|---:|---:|")
    for name, t in rows:
        print(f"| {name} | {t:.3f} | {1e3 * t / a.sets:.3f} ms | {t_cli / t:.1f}x |")


if __name__ == "__main__":
    sys.exit(main())
