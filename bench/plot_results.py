#!/usr/bin/env python3
"""Draws recorded Google Benchmark JSON as SVG, with no dependencies beyond Python 3.

    python3 bench/plot_results.py dbf bench/results/dbf_cpu_2core.json OUT.svg
    python3 bench/plot_results.py exact bench/results/exact_sweep_cpu_2core.json OUT.svg [EXACT.json ...]

`dbf`: paper 003 Table I: median time of one demand-bound table against the number of vertices,
one line per backend (log scale), plus the GPU-SM block-size sweep when present.
`exact`: the progress sweep on the Voronoi case: states and seconds against W (log scale), from the
BM_ExactSweep benchmarks (2 threads) and any `warpspan exact --json` outputs for larger W.
"""
import json
import math
import re
import sys

COLORS = {"cpu": "#1f77b4", "cpu-parallel": "#2ca02c", "cuda": "#ff7f0e", "cuda-sm": "#d62728",
          "states": "#1f77b4", "seconds, 2 threads": "#d62728"}
BACKENDS = ["cpu", "cpu-parallel", "cuda", "cuda-sm"]


def medians(path):
    with open(path) as f:
        doc = json.load(f)
    out = []
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        out.append(b)
    return doc.get("context", {}), out


def dbf_series(benchmarks):
    series = {}
    for b in benchmarks:
        m = re.match(r"BM_DbfTable/backend:(\d)/vertices:(\d+)/block:(\d+)", b["name"])
        if not m or int(m.group(3)) != 256:
            continue
        ms = b["real_time"] if b.get("time_unit") == "ms" else b["real_time"] / 1e6
        series.setdefault(BACKENDS[int(m.group(1))], []).append((int(m.group(2)), ms))
    for v in series.values():
        v.sort()
    return series


def svg_lines(series, title, xlabel, ylabel):
    w, h, left, right, top, bottom = 640, 400, 70, 150, 40, 50
    xs = [x for s in series.values() for x, _ in s]
    ys = [y for s in series.values() for _, y in s if y > 0]
    if not xs:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='400' height='60'><text x='10' y='30'>no data</text></svg>"
    x0, x1 = min(xs), max(xs)
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    if y0 == y1:
        y1 += 1
    px = lambda x: left + (x - x0) / max(1, x1 - x0) * (w - left - right)
    py = lambda y: top + (y1 - math.log10(y)) / (y1 - y0) * (h - top - bottom)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='12'>",
             "<rect width='100%' height='100%' fill='white'/>",
             f"<text x='{w/2}' y='22' text-anchor='middle' font-size='14'>{title}</text>"]
    for e in range(y0, y1 + 1):
        y = top + (y1 - e) / (y1 - y0) * (h - top - bottom)
        parts.append(f"<line x1='{left}' x2='{w-right}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd'/>")
        parts.append(f"<text x='{left-6}' y='{y+4:.1f}' text-anchor='end'>{10.0**e:g}</text>")
    for x in sorted(set(xs)):
        parts.append(f"<text x='{px(x):.1f}' y='{h-bottom+18}' text-anchor='middle'>{x}</text>")
    parts.append(f"<text x='{(left+w-right)/2}' y='{h-10}' text-anchor='middle'>{xlabel}</text>")
    parts.append(f"<text x='16' y='{(top+h-bottom)/2}' text-anchor='middle' transform='rotate(-90 16 {(top+h-bottom)/2})'>{ylabel}</text>")
    for k, (name, pts) in enumerate(series.items()):
        color = COLORS.get(name, "#555")
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts if y > 0)
        parts.append(f"<polyline points='{path}' fill='none' stroke='{color}' stroke-width='2'/>")
        for x, y in pts:
            parts.append(f"<circle cx='{px(x):.1f}' cy='{py(y):.1f}' r='3' fill='{color}'><title>{name}: {y:.3g}</title></circle>")
        ly = top + 10 + 18 * k
        parts.append(f"<line x1='{w-right+10}' x2='{w-right+30}' y1='{ly}' y2='{ly}' stroke='{color}' stroke-width='2'/>")
        parts.append(f"<text x='{w-right+36}' y='{ly+4}'>{name}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def exact_series(benchmarks, cli_outputs):
    states, seconds = {}, {}
    for b in benchmarks:
        m = re.match(r"BM_ExactSweep/(\d+)/2", b["name"])
        if not m:
            continue
        w = int(m.group(1))
        states[w] = b["states"]
        seconds[w] = b["real_time"] / 1e3 if b.get("time_unit") == "ms" else b["real_time"]
    for path in cli_outputs:
        with open(path) as f:
            doc = json.load(f)
        if doc.get("complete"):
            w = doc["problem"]["warps"]
            states[w], seconds[w] = doc["states"], doc["elapsed_s"]
    return {"states": sorted(states.items()), "seconds, 2 threads": sorted(seconds.items())}


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "exact":
        context, benchmarks = medians(sys.argv[2])
        title = f"Exact worst case of 5L9C2L9C: the progress sweep ({context.get('num_cpus', '?')} host cores)"
        with open(sys.argv[3], "w") as f:
            f.write(svg_lines(exact_series(benchmarks, sys.argv[4:]), title, "warps W", "states / seconds"))
        return
    if len(sys.argv) != 4 or sys.argv[1] != "dbf":
        sys.exit(__doc__)
    context, benchmarks = medians(sys.argv[2])
    where = f"{context.get('num_cpus', '?')} host cores"
    title = f"dbf table, paper 003 Table I graphs (median, {where})"
    with open(sys.argv[3], "w") as f:
        f.write(svg_lines(dbf_series(benchmarks), title, "vertices per task graph", "time per table [ms]"))


if __name__ == "__main__":
    main()
