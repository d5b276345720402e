#!/usr/bin/env python3
"""Paper 004 Table IV with warpspan's model fitness: GDivAn, random+GA and random side by side on
Artificial (2^15 threads), BFS (1024 nodes), the Petri net and LBM (4096 threads), the same number of
kernel evaluations for every method (--patience 0: the GA spends the whole budget, as random does).

    python3 bench/inputs/table4.py [--binary build-cpu/warpspan] [--evaluations 2000]
        [--artificial-seeds 10] [--seeds 3] OUTDIR

Writes OUTDIR/inputs_table4.md, OUTDIR/inputs_table4.json, OUTDIR/inputs_<kernel>.svg and
OUTDIR/inputs_<kernel>_time.svg (the best fitness against evaluations and against seconds of the
first seed, 004 Fig. 5). The table of the model before issue 24 (lanes one after another) is kept
as bench/results/archive/inputs/inputs_table4_lanes_model.{md,json}.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

KERNELS = [("artificial", 32768), ("bfs", 1024), ("petri", 4096), ("lbm", 4096)]


def run(binary, kernel, threads, evaluations, seed, svg_dir):
    cmd = [binary, "inputs", "--kernel", kernel, "--threads", str(threads), "--compare", "--evaluations",
           str(evaluations), "--patience", "0", "--seed", str(seed), "--json"]
    if svg_dir:
        cmd += ["--svg-dir", svg_dir]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return " ".join(cmd), json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build-cpu/warpspan")
    ap.add_argument("--evaluations", type=int, default=2000)
    ap.add_argument("--artificial-seeds", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--kernels", default=",".join(k for k, _ in KERNELS),
                    help="a comma-separated subset; a subset writes inputs_table4_<kernels>.{md,json}")
    ap.add_argument("outdir")
    a = ap.parse_args()
    chosen = [(k, n) for k, n in KERNELS if k in a.kernels.split(",")]
    name = "inputs_table4" if len(chosen) == len(KERNELS) else "inputs_table4_" + "_".join(k for k, _ in chosen)
    os.makedirs(a.outdir, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows, raw, commands = [], [], []
    for kernel, threads in chosen:
        seeds = a.artificial_seeds if kernel == "artificial" else a.seeds
        for seed in range(1, seeds + 1):
            cmd, j = run(a.binary, kernel, threads, a.evaluations, seed, a.outdir if seed == 1 else None)
            if seed == 1:
                commands.append(cmd)
            raw.append(j)
            for r in j["runs"]:
                rows.append((kernel, threads, seed, r["method"], r["best_fitness"], r["reached_at"],
                             r["reached_seconds"], r["evaluations"], r["seconds"], r.get("coverage")))
            print(kernel, seed, [(r["method"], r["best_fitness"]) for r in j["runs"]], file=sys.stderr, flush=True)
    with open(os.path.join(a.outdir, name + ".json"), "w") as f:
        json.dump({"commit": commit, "date": datetime.date.today().isoformat(), "machine": platform.node(),
                   "cpus": os.cpu_count(), "results": raw}, f, indent=1)
    md = ["# Worst-case inputs: paper 004 Table IV with the model fitness", "",
          f"Date {datetime.date.today().isoformat()}, commit {commit}, {os.cpu_count()} CPUs, no GPU: "
          "the fitness is warpspan's SIMT cost model (lanes in lockstep with a reconvergence stack, loads and "
          "stores by sectors; kepler-3.5, one SM), in cycles. "
          f"Every method spends {a.evaluations} kernel evaluations (`--patience 0`). "
          f"Regenerate with `python3 bench/inputs/table4.py --binary build-cpu/warpspan --kernels {a.kernels} bench/results/current`. "
          "The table of the model before issue 24, which ran a warp's lanes one after another and did not cost "
          "loads and stores: [inputs_table4_lanes_model.md](../archive/inputs/inputs_table4_lanes_model.md).", "",
          "Commands (seed 1; the other seeds differ only in `--seed`):", ""]
    md += [f"    {c}" for c in commands]
    md += ["", "| kernel | threads | seed | method | best (cycles) | reached at evaluation | reached (s) | search (s) | atom coverage |",
           "|---|---|---|---|---|---|---|---|---|"]
    for k, n, s, m, best, at, rs, ev, sec, cov in rows:
        c = f"{100 * cov:.1f} %" if cov is not None else ""
        md.append(f"| {k} | {n} | {s} | {m} | {best:.0f} | {at} | {rs:.2f} | {sec:.2f} | {c} |")
    md += ["", "Summary (best over seeds / mean of the seeds' bests):", "",
           "| kernel | gdivan | random-ga | random |", "|---|---|---|---|"]
    for kernel, _ in chosen:
        cells = []
        for m in ("gdivan", "random-ga", "random"):
            v = [r[4] for r in rows if r[0] == kernel and r[3] == m]
            cells.append(f"{max(v):.0f} / {sum(v) / len(v):.0f}")
        md.append(f"| {kernel} | " + " | ".join(cells) + " |")
    with open(os.path.join(a.outdir, name + ".md"), "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
