#!/usr/bin/env python3
"""Weak and strong scaling of warpspan under mpirun with 1, 2, 3 ranks, and the communication volume.

    python3 bench/mpi_scaling.py BINARY OUT.json OUT.svg [--quick]
    python3 bench/mpi_scaling.py - RESULTS.json OUT.svg --plot-only   (redraws recorded results)

BINARY is a WARPSPAN_MPI=ON build. Every rank runs one thread (--threads 1, dbf --backend cpu), so
ranks are the only parallelism; beyond the machine's cores the ranks are oversubscribed
(mpirun --oversubscribe) and the JSON says so. Workloads:
  estimate  Voronoi 5L9C2L9C, W = 16, sigma L=1 C=4: strong 24 chains, weak 8 chains per rank;
            iterations/s = all chains' iterations / the search's seconds (rank 0's clock)
  dbf       --batch of generated sets (utilisation 0.9, seed 1): strong 1,000 sets, weak 400 per rank;
            sets/s from the wall time of the whole command (start-up included)
  exact     the progress sweep, Voronoi W = 9 (strong only: W fixes the work); seconds from the JSON
The communication volume comes from WARPSPAN_MPI_STATS=1 (each rank's bytes handed to the
collectives and their number); per round = all ranks' bytes / rank 0's collectives.
Each rank runs under /usr/bin/time for its peak memory (maximum resident set).
The plot: speed-up over one rank (strong) and efficiency (weak) against the ranks, no dependencies.
"""
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

BINARY, OUT_JSON, OUT_SVG = sys.argv[1], sys.argv[2], sys.argv[3]
QUICK = "--quick" in sys.argv
RANKS = [1, 2, 3]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", WARPSPAN_MPI_STATS="1")
VORONOI = ["--kernel", "5L9C2L9C", "--sigma", "L=1,C=4"]


def launch(ranks, args):
    load = os.getloadavg()[0]  # the machine is shared: what else ran is part of the figure
    cmd = ["mpirun", "-q", "-n", str(ranks), "--oversubscribe", "/usr/bin/time", "-f", "warpspan-maxrss %M", BINARY] + args
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    wall = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    stats = [tuple(map(int, m)) for m in re.findall(r"rank (\d+) of \d+ sent (\d+) bytes in (\d+) collectives", p.stderr)]
    sent = sum(s[1] for s in stats)
    calls = max((s[2] for s in stats if s[0] == 0), default=0)
    rss = [int(m) for m in re.findall(r"warpspan-maxrss (\d+)", p.stderr)]
    return p.stdout, wall, {"bytes": sent, "collectives": calls, "bytes_per_collective": sent / calls if calls else 0,
                            "max_rss_mib_per_rank": max(rss, default=0) / 1024, "max_rss_mib_all_ranks": sum(rss) / 1024,
                            "load_average_before": load}


def estimate(ranks, chains, iterations):
    out, wall, comm = launch(ranks, ["estimate"] + VORONOI + ["--warps", "16", "--chains", str(chains), "--iterations",
                                     str(iterations), "--seed", "1", "--threads", "1", "--exact-seconds", "0", "-q", "--json"])
    j = json.loads(out)
    return {"ranks": ranks, "chains": chains, "iterations": j["iterations"], "search_s": j["elapsed_s"], "wall_s": wall,
            "iterations_per_s": j["iterations"] / j["elapsed_s"], "best_makespan": j["best_makespan"], "comm": comm}


def batch(ranks, path, sets):
    out, wall, comm = launch(ranks, ["dbf", "--batch", path, "--backend", "cpu", "--json", "-q"])
    records = [json.loads(l) for l in out.splitlines() if l.strip()]
    # A whole run ends with its end record (docs/schedulability.md); without it the output was cut off.
    if not records or records[-1].get("end") is not True:
        raise RuntimeError(f"dbf --batch on {ranks} ranks: no end record, the output is incomplete")
    return {"ranks": ranks, "sets": sets, "lines": len(records) - 1, "wall_s": wall, "sets_per_s": sets / wall,
            "comm": comm}


def exact(ranks, warps):
    out, wall, comm = launch(ranks, ["exact"] + VORONOI + ["--warps", str(warps), "--threads", "1", "-q", "--json"])
    j = json.loads(out)
    return {"ranks": ranks, "warps": warps, "makespan": j["makespan"], "states": j["states"], "search_s": j["elapsed_s"],
            "wall_s": wall, "comm": comm}


def main():
    iterations = 20000 if QUICK else 100000
    warps = 7 if QUICK else 9
    result = {"machine": {"cores": os.cpu_count(), "cpu": cpu_name(), "system": platform.platform()},
              "note": f"{os.cpu_count()} cores: runs with more ranks than cores are oversubscribed (mpirun --oversubscribe)",
              "estimate_strong": [], "estimate_weak": [], "dbf_strong": [], "dbf_weak": [], "exact_strong": []}
    with tempfile.TemporaryDirectory() as tmp:
        def sets(n):
            path = os.path.join(tmp, f"sets{n}.jsonl")
            subprocess.run([BINARY, "generate-tasks", "--sets", str(n), "--utilization", "0.9", "--seed", "1", "--out", path,
                            "-q"], check=True, capture_output=True)
            return path
        strong_sets = sets(1000)
        for r in RANKS:
            result["estimate_strong"].append(estimate(r, 24, iterations))
            result["estimate_weak"].append(estimate(r, 8 * r, iterations))
            result["dbf_strong"].append(batch(r, strong_sets, 1000))
            result["dbf_weak"].append(batch(r, sets(400 * r), 400 * r))
            result["exact_strong"].append(exact(r, warps))
            print(json.dumps({k: v[-1] for k, v in result.items() if isinstance(v, list)}), flush=True)
    with open(OUT_JSON, "w") as f:
        json.dump(result, f, indent=1)
    with open(OUT_SVG, "w") as f:
        f.write(plot(result))


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def plot(result):
    """Speed-up (strong: time of one rank / time of r ranks) and weak efficiency (throughput of r
    ranks / (r x one rank's)) against the ranks, linear axes, the ideal dashed."""
    def rate(row):
        return row.get("iterations_per_s") or row.get("sets_per_s") or 1 / row["search_s"]
    series = {}
    for key, label in (("estimate_strong", "estimate, strong"), ("dbf_strong", "dbf --batch 1,000, strong"),
                       ("exact_strong", f"exact W = {result['exact_strong'][0]['warps']}, strong")):
        rows = result[key]
        series[label] = [(row["ranks"], rate(row) / rate(rows[0])) for row in rows]
    for key, label in (("estimate_weak", "estimate, weak"), ("dbf_weak", "dbf --batch 400/rank, weak")):
        rows = result[key]
        series[label] = [(row["ranks"], rate(row) / rate(rows[0])) for row in rows]
    colors = ["#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#9467bd"]
    w, h, left, right, top, bottom = 720, 400, 60, 250, 40, 50
    ymax = max(3.0, max(y for s in series.values() for _, y in s)) * 1.05
    px = lambda x: left + (x - 1) / 2 * (w - left - right)
    py = lambda y: top + (ymax - y) / ymax * (h - top - bottom)
    cores = result["machine"]["cores"]
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='12'>",
             "<rect width='100%' height='100%' fill='white'/>",
             f"<text x='{(left + w - right) / 2}' y='22' text-anchor='middle' font-size='14'>warpspan under mpirun: "
             f"speed-up over 1 rank ({cores} cores: 3 ranks oversubscribed)</text>"]
    for k in range(0, int(ymax) + 1):
        parts.append(f"<line x1='{left}' x2='{w-right}' y1='{py(k):.1f}' y2='{py(k):.1f}' stroke='#ddd'/>")
        parts.append(f"<text x='{left-6}' y='{py(k)+4:.1f}' text-anchor='end'>{k}</text>")
    for r in RANKS:
        parts.append(f"<text x='{px(r):.1f}' y='{h-bottom+18}' text-anchor='middle'>{r}</text>")
    parts.append(f"<text x='{(left+w-right)/2}' y='{h-10}' text-anchor='middle'>MPI ranks (one thread each)</text>")
    parts.append(f"<text x='16' y='{(top+h-bottom)/2}' text-anchor='middle' transform='rotate(-90 16 {(top+h-bottom)/2})'>"
                 "speed-up (throughput / 1 rank's)</text>")
    parts.append(f"<polyline points='{px(1):.1f},{py(1):.1f} {px(3):.1f},{py(3):.1f}' fill='none' stroke='#999' "
                 "stroke-dasharray='5,4'/>")
    parts.append(f"<line x1='{px(cores + 0.5) if cores < 3 else px(3):.1f}' x2='{px(cores + 0.5) if cores < 3 else px(3):.1f}' "
                 f"y1='{top}' y2='{h-bottom}' stroke='#bbb' stroke-dasharray='2,3'/>")
    for k, (name, pts) in enumerate(series.items()):
        color = colors[k % len(colors)]
        parts.append(f"<polyline points='{' '.join(f'{px(x):.1f},{py(y):.1f}' for x, y in pts)}' fill='none' "
                     f"stroke='{color}' stroke-width='2'/>")
        for x, y in pts:
            parts.append(f"<circle cx='{px(x):.1f}' cy='{py(y):.1f}' r='3' fill='{color}'><title>{name}: {y:.3g}</title></circle>")
        ly = top + 10 + 18 * k
        parts.append(f"<line x1='{w-right+10}' x2='{w-right+30}' y1='{ly}' y2='{ly}' stroke='{color}' stroke-width='2'/>")
        parts.append(f"<text x='{w-right+36}' y='{ly+4}'>{name}</text>")
    ly = top + 10 + 18 * len(series)
    parts.append(f"<line x1='{w-right+10}' x2='{w-right+30}' y1='{ly}' y2='{ly}' stroke='#999' stroke-dasharray='5,4'/>")
    parts.append(f"<text x='{w-right+36}' y='{ly+4}'>ideal</text>")
    parts.append("</svg>\n")
    return "\n".join(parts)


if __name__ == "__main__":
    if "--plot-only" in sys.argv:
        with open(OUT_JSON) as f, open(OUT_SVG, "w") as out:
            out.write(plot(json.load(f)))
    else:
        main()
