#!/usr/bin/env python3
"""Draws recorded Google Benchmark JSON as SVG, with no dependencies beyond Python 3.

    python3 bench/plot_results.py dbf bench/results/current/dbf_cpu_2core.json OUT.svg
    python3 bench/plot_results.py exact bench/results/archive/exact/exact_sweep_cpu_2core.json OUT.svg [EXACT.json ...]

`dbf`: paper 003 Table I: median time of one demand-bound table against the number of vertices,
one line per backend (log scale), plus the GPU-SM block-size sweep when present.
`exact`: the progress sweep on the Voronoi case: states and seconds against W (log scale), from the
BM_ExactSweep benchmarks (2 threads) and any `warpspan exact --json` outputs for larger W.

Paper 003 (Nunna et al. 2010) against a GPU run (bench/dbf/bench_dbf.cpp; each mode also writes a
Markdown table, to --md FILE or to stdout; every number comes from the JSON given):

    python3 bench/plot_results.py dbf-table1 BENCH.json OUT.svg [--md OUT.md] [--paper]
    python3 bench/plot_results.py dbf-home HOME.json OUT.svg [--uncached UNCACHED.json] [--md OUT.md]
    python3 bench/plot_results.py dbf-sets HOME.json OUT.svg [--md OUT.md]

`dbf-table1`: Table I and Fig. 5: median time of one table (BM_DbfTable, block 256) against the
vertices as grouped bars on a log axis: CPU on one core and on every core (wall time of the call),
GPU and GPU-SM (kernel time, CUDA events, with the whole call's wall time as a dashed outline); the
Markdown gives both GPU times and the speed-ups against one core. --paper puts the paper's own Table
I (hard-coded, PAPER_003_TABLE_I) beside ours, hatched.
`dbf-home`: the honest GPU against GPU-SM comparison: kernel time of BM_DbfPredecessors against the
predecessors per row (log-log), one line per home of the data (tuples global = GPU, tuples staged in
shared memory = GPU-SM, the whole table on chip), one table on the left, a batch of 256 on the
right; solid for the default build, dashed for --uncached (global loads past L1, -dlcm=cg, the
paper's GPU condition).
`dbf-sets`: design-space throughput: task sets per second (1,000 sets of 3 tasks) per backend at
10 and 50 vertices, tables only (BM_DbfBatch) and end to end (BM_DbfEndToEnd), grouped log bars.
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


# ---- Paper 003 (Nunna et al. 2010) against our measurements: Table I / Fig. 5, the tuples' home
# (GPU against GPU-SM), and design-space throughput. Every number drawn comes from the JSON given.

# Paper 003, Table I ("Execution times of CPU, GPU and GPU-SM implementations", milliseconds; a 3.0
# GHz Pentium 4 and a GeForce 8800 GTX, CUDA 1.1, GPU-SM with thread blocks of 512), copied verbatim.
PAPER_003_TABLE_I = {  # vertices: (CPU, GPU, GPU-SM) ms
    10: (147.683716, 34.910538, 28.038548),
    20: (955.779358, 192.749374, 146.997284),
    30: (4346.823242, 720.375671, 537.149719),
    40: (7945.673828, 1344.817139, 987.577637),
    50: (13490.95606, 2783.330078, 1496.557251),
}
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
# bench/dbf/bench_dbf.cpp: kCpu 0, kCpuParallel 1, kCuda 2, kCudaSm 3 (staged tuples in BM_DbfTable
# and BM_DbfBatch, the on-chip table in BM_DbfEndToEnd), kCudaOnChip 4 (BM_DbfBatch only).
BATCH_BACKENDS = ["cpu", "cpu-parallel", "cuda", "cuda-sm (staged)", "cuda-sm (on chip)"]
# BM_DbfPredecessors variants: 0 and 1 one table by the level kernels (tuples global / staged in
# shared memory), 2 and 3 the batch kernels on 256 copies (global / staged), 4 the on-chip batch.
HOME_VARIANTS = ["one table, tuples global", "one table, tuples staged", "batch, tuples global",
                 "batch, tuples staged", "batch, table on chip"]
HOME_COLORS = {"tuples global": "#ff7f0e", "tuples staged": "#d62728", "table on chip": "#9467bd"}
BAR_COLORS = {"cpu": "#1f77b4", "cpu-parallel": "#2ca02c", "cuda": "#ff7f0e", "cuda-sm": "#d62728",
              "cuda-sm (staged)": "#d62728", "cuda-sm (on chip)": "#9467bd",
              "paper CPU": "#1f77b4", "paper GPU": "#ff7f0e", "paper GPU-SM": "#d62728"}


def esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;")


def load_runs(path):
    """Google Benchmark JSON -> {run_name: record}: the median aggregate where the file has
    repetitions, else the median over the runs of that name; record holds every numeric field
    (times in ms: real_ms, kernel_ms where the benchmark counts it), the label and `repetitions`."""
    with open(path) as f:
        doc = json.load(f)
    medians_, runs = {}, {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians_[name] = b
            continue
        runs.setdefault(name, []).append(b)
    out = {}
    for name in list(medians_) + [n for n in runs if n not in medians_]:
        group = [medians_[name]] if name in medians_ else runs[name]
        rec = {"label": group[0].get("label", ""),
               "repetitions": group[0].get("repetitions", len(group)) if name in medians_ else len(group)}
        for key, value in group[0].items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                vals = sorted(g[key] for g in group if key in g)
                n = len(vals)
                rec[key] = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2
        unit = UNIT_MS[group[0].get("time_unit", "ns")]
        rec["real_ms"] = rec["real_time"] * unit
        out[name] = rec
    return doc.get("context", {}), out


def fmt(v, digits=3):
    if v is None:
        return "-"
    if v >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}"


def log_axis(values):
    lo, hi = min(values), max(values)
    y0, y1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return y0, (y1 if y1 > y0 else y0 + 1)


def svg_head(w, h, title, subtitle=None):
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='12'>",
             "<defs><pattern id='hatch' width='6' height='6' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
             "<rect width='6' height='6' fill='white'/><line x1='0' y1='0' x2='0' y2='6' stroke='black' stroke-width='3' "
             "stroke-opacity='0.35'/></pattern></defs>",
             "<rect width='100%' height='100%' fill='white'/>",
             f"<text x='{w/2}' y='20' text-anchor='middle' font-size='14'>{esc(title)}</text>"]
    if subtitle:
        parts.append(f"<text x='{w/2}' y='36' text-anchor='middle' font-size='11' fill='#444'>{esc(subtitle)}</text>")
    return parts


def y_ticks(parts, y0, y1, left, right_x, py):
    """Decades on a log axis; with 3 decades or fewer also 2x and 5x (labelled up to 2 decades)."""
    for e in range(y0, y1 + 1):
        y = py(10.0 ** e)
        parts.append(f"<line x1='{left}' x2='{right_x}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd' data-tick='{10.0**e:g}'/>")
        parts.append(f"<text x='{left-6}' y='{y+4:.1f}' text-anchor='end'>{10.0**e:g}</text>")
        if y1 - y0 <= 3 and e < y1:
            for m in (2, 5):
                ym = py(m * 10.0 ** e)
                parts.append(f"<line x1='{left}' x2='{right_x}' y1='{ym:.1f}' y2='{ym:.1f}' stroke='#f0f0f0' data-tick='{m*10.0**e:g}'/>")
                if y1 - y0 <= 2:
                    parts.append(f"<text x='{left-6}' y='{ym+4:.1f}' text-anchor='end' font-size='10' fill='#666'>{m*10.0**e:g}</text>")


def svg_bars(groups, series, values, title, xlabel, ylabel, outlines=None, subtitle=None, notes=(),
             value_labels=False, missing="n/a"):
    """Grouped bars on a log axis. groups: x labels; series: [(name, legend text, hatched)];
    values[(name, group)] = height (missing: `missing` written at the foot); outlines[(name, group)]:
    a second value drawn as an unfilled dashed bar behind (e.g. the whole call around the kernel)."""
    outlines = outlines or {}
    nb = len(series)
    bar_w = 16 if nb > 5 else 22
    group_w = nb * bar_w + 24
    left, top, legend_w = 80, 48 + (36 if value_labels else 0), 240
    plot_w = max(360, group_w * len(groups))
    bottom = 60 + 14 * len(notes)
    w, h = left + plot_w + legend_w, 440 + 14 * len(notes) + (36 if value_labels else 0)
    vals = [v for v in list(values.values()) + list(outlines.values()) if v and v > 0]
    y0, y1 = log_axis(vals)
    py = lambda v: top + (y1 - math.log10(v)) / (y1 - y0) * (h - top - bottom)
    base = py(10.0 ** y0)
    parts = svg_head(w, h, title, subtitle)
    y_ticks(parts, y0, y1, left, left + plot_w, py)
    for gi, g in enumerate(groups):
        gx = left + gi * (plot_w / len(groups)) + (plot_w / len(groups) - nb * bar_w) / 2
        parts.append(f"<text x='{gx + nb*bar_w/2:.1f}' y='{base+18:.1f}' text-anchor='middle'>{esc(g)}</text>")
        for si, (name, legend, hatched) in enumerate(series):
            x = gx + si * bar_w
            color = BAR_COLORS.get(name, "#555")
            o = outlines.get((name, g))
            if o:
                parts.append(f"<rect x='{x+1:.1f}' y='{py(o):.1f}' width='{bar_w-2}' height='{base-py(o):.1f}' fill='none' "
                             f"stroke='{color}' stroke-dasharray='3,2' data-series='{esc(name)}' data-group='{esc(g)}' "
                             f"data-outline='{o:.6g}'><title>{esc(legend)}, {esc(g)}: whole call {o:.4g}</title></rect>")
            v = values.get((name, g))
            if not v:
                parts.append(f"<text x='{x+bar_w/2:.1f}' y='{base-4:.1f}' text-anchor='middle' font-size='9' fill='#777'>{missing}</text>")
                continue
            fill = "url(#hatch)" if hatched else color
            stroke = f" stroke='{color}' stroke-width='1.5'" if hatched else ""
            parts.append(f"<rect x='{x+1:.1f}' y='{py(v):.1f}' width='{bar_w-2}' height='{base-py(v):.1f}' fill='{fill}'{stroke} "
                         f"data-series='{esc(name)}' data-group='{esc(g)}' data-value='{v:.6g}'>"
                         f"<title>{esc(legend)}, {esc(g)}: {v:.4g}</title></rect>")
            if value_labels:
                ty = py(max(v, o or 0)) - 4
                parts.append(f"<text x='{x+bar_w/2+3:.1f}' y='{ty:.1f}' font-size='9' transform='rotate(-90 {x+bar_w/2+3:.1f} {ty:.1f})'>{fmt(v)}</text>")
    parts.append(f"<line x1='{left}' x2='{left+plot_w}' y1='{base:.1f}' y2='{base:.1f}' stroke='#333'/>")
    parts.append(f"<text x='{left+plot_w/2}' y='{base+38:.1f}' text-anchor='middle'>{esc(xlabel)}</text>")
    cy = (top + base) / 2
    parts.append(f"<text x='16' y='{cy:.1f}' text-anchor='middle' font-size='11' transform='rotate(-90 16 {cy:.1f})'>{esc(ylabel)}</text>")
    lx = left + plot_w + 14
    for si, (name, legend, hatched) in enumerate(series):
        ly = top + 4 + 20 * si
        color = BAR_COLORS.get(name, "#555")
        fill = "url(#hatch)" if hatched else color
        parts.append(f"<rect x='{lx}' y='{ly}' width='14' height='12' fill='{fill}' stroke='{color}'/>")
        parts.append(f"<text x='{lx+20}' y='{ly+10}' font-size='11'>{esc(legend)}</text>")
    if outlines:
        ly = top + 4 + 20 * len(series)
        parts.append(f"<rect x='{lx}' y='{ly}' width='14' height='12' fill='none' stroke='#555' stroke-dasharray='3,2'/>")
        parts.append(f"<text x='{lx+20}' y='{ly+10}' font-size='11'>GPU: whole call (wall)</text>")
    for k, note in enumerate(notes):
        parts.append(f"<text x='{left}' y='{h-10-14*(len(notes)-1-k)}' font-size='10' fill='#444'>{esc(note)}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def svg_loglog_panels(panels, title, xlabel, ylabel, legend, subtitle=None, notes=()):
    """Panels side by side sharing log-log axes. panels: [(panel title, [(name, color, dashed, pts)])];
    legend: [(text, color, dashed)]."""
    pw, gap, left, top, legend_w = 300, 40, 80, 70, 250
    bottom = 60 + 14 * len(notes)
    w, h = left + len(panels) * pw + (len(panels) - 1) * gap + legend_w, 440 + 14 * len(notes)
    xs = [x for _, ss in panels for s in ss for x, _ in s[3]]
    ys = [y for _, ss in panels for s in ss for _, y in s[3] if y > 0]
    x0, x1 = math.log2(min(xs)), math.log2(max(xs))
    y0, y1 = log_axis(ys)
    py = lambda v: top + (y1 - math.log10(v)) / (y1 - y0) * (h - top - bottom)
    parts = svg_head(w, h, title, subtitle)
    for k, (ptitle, ss) in enumerate(panels):
        pl = left + k * (pw + gap)
        px = lambda x, pl=pl: pl + 10 + (math.log2(x) - x0) / max(1e-9, x1 - x0) * (pw - 20)
        parts.append(f"<text x='{pl+pw/2}' y='{top-8}' text-anchor='middle' font-size='12'>{esc(ptitle)}</text>")
        parts.append(f"<rect x='{pl}' y='{top}' width='{pw}' height='{h-top-bottom}' fill='none' stroke='#999'/>")
        y_ticks(parts, y0, y1, pl, pl + pw, py)
        for x in sorted(set(xs)):
            parts.append(f"<text x='{px(x):.1f}' y='{h-bottom+16}' text-anchor='middle'>{x:g}</text>")
        for name, color, dashed, pts in ss:
            dash = " stroke-dasharray='6,4'" if dashed else ""
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts if y > 0)
            parts.append(f"<polyline points='{path}' fill='none' stroke='{color}' stroke-width='2'{dash} data-series='{esc(name)}'/>")
            for x, y in pts:
                parts.append(f"<circle cx='{px(x):.1f}' cy='{py(y):.1f}' r='{2.5 if dashed else 3.5}' fill='{'white' if dashed else color}' "
                             f"stroke='{color}' data-series='{esc(name)}' data-x='{x:g}' data-value='{y:.6g}'>"
                             f"<title>{esc(name)}, {x:g}: {y:.4g}</title></circle>")
    span = left + len(panels) * pw + (len(panels) - 1) * gap
    parts.append(f"<text x='{(left+span)/2}' y='{h-bottom+36}' text-anchor='middle'>{esc(xlabel)}</text>")
    cy = (top + h - bottom) / 2
    parts.append(f"<text x='16' y='{cy:.1f}' text-anchor='middle' font-size='11' transform='rotate(-90 16 {cy:.1f})'>{esc(ylabel)}</text>")
    lx = span + 16
    for k, (text, color, dashed) in enumerate(legend):
        ly = top + 6 + 20 * k
        dash = " stroke-dasharray='6,4'" if dashed else ""
        parts.append(f"<line x1='{lx}' x2='{lx+26}' y1='{ly}' y2='{ly}' stroke='{color}' stroke-width='2'{dash}/>")
        parts.append(f"<text x='{lx+32}' y='{ly+4}' font-size='11'>{esc(text)}</text>")
    for k, note in enumerate(notes):
        parts.append(f"<text x='{left}' y='{h-10-14*(len(notes)-1-k)}' font-size='10' fill='#444'>{esc(note)}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def where(context):
    return f"{context.get('num_cpus', '?')} host cores, {str(context.get('date', '?'))[:10]}"


# -- mode dbf-table1: paper 003 Table I and Fig. 5 for our measurements
def table1_data(runs):
    """{vertices: {backend: (wall ms, kernel ms or None)}} and {vertices: (rows, columns)} from
    BM_DbfTable at block 256 (the block of every backend's Table I row)."""
    data, shape = {}, {}
    for name, r in runs.items():
        m = re.match(r"BM_DbfTable/backend:(\d)/vertices:(\d+)/block:256(/|$)", name)
        if not m:
            continue
        v = int(m.group(2))
        data.setdefault(v, {})[BACKENDS[int(m.group(1))]] = (r["real_ms"], r.get("kernel_ms"))
        shape[v] = (int(r.get("rows", 0)), int(r.get("columns", 0)))
    return data, shape


def table1_markdown(data, shape, context, source, reps, paper):
    x = lambda ref, t: f"{fmt(t)} ({ref / t:.1f}x)" if ref and t else fmt(t)
    lines = [f"# dbf Table I (paper 003) on this machine: {where(context)}",
             "",
             f"Median time of one demand-bound table, milliseconds (median of {reps} repetitions), from "
             f"`{source}` (`BM_DbfTable/backend:B/vertices:V/block:256`); in parentheses the speed-up "
             "against the CPU on one core. CPU rows are the wall time of the call; GPU rows give the "
             "kernels alone (CUDA events) and the whole call (upload, kernels, download).",
             "",
             "| vertices | rows x columns | CPU, 1 core | CPU, all cores | GPU kernel | GPU-SM kernel | GPU whole call | GPU-SM whole call | GPU-SM vs GPU (kernel) |",
             "|---|---|---|---|---|---|---|---|---|"]
    sp = {"cuda": [], "cuda-sm": [], "sm_vs_gpu": []}
    for v in sorted(data):
        d = data[v]
        cpu = d.get("cpu", (None, None))[0]
        par = d.get("cpu-parallel", (None, None))[0]
        gw, gk = d.get("cuda", (None, None))
        sw, sk = d.get("cuda-sm", (None, None))
        if cpu and gk and sk:
            sp["cuda"].append(cpu / gk)
            sp["cuda-sm"].append(cpu / sk)
            sp["sm_vs_gpu"].append(gk / sk)
        ratio = f"{gk / sk:.2f}x" if gk and sk else "-"
        lines.append(f"| {v} | {shape[v][0]} x {shape[v][1]:,} | {fmt(cpu)} | {x(cpu, par)} | {x(cpu, gk)} | {x(cpu, sk)} | "
                     f"{x(cpu, gw)} | {x(cpu, sw)} | {ratio} |")
    if sp["cuda"]:
        lines += ["", f"Kernel speed-ups against one core, as paper 003 sums them up: GPU {sum(sp['cuda'])/len(sp['cuda']):.0f}x "
                  f"on average (max {max(sp['cuda']):.0f}x), GPU-SM {sum(sp['cuda-sm'])/len(sp['cuda-sm']):.0f}x on average "
                  f"(max {max(sp['cuda-sm']):.0f}x); GPU-SM against GPU {min(sp['sm_vs_gpu']):.2f}x to {max(sp['sm_vs_gpu']):.2f}x."]
    if paper:
        lines += ["", "Paper 003, Table I (Pentium 4 3.0 GHz, GeForce 8800 GTX, CUDA 1.1; GPU-SM with blocks of 512), "
                  "milliseconds, with the speed-ups against its CPU:", "",
                  "| vertices | CPU | GPU | GPU-SM | GPU-SM vs GPU | ours: GPU-SM kernel vs GPU kernel |", "|---|---|---|---|---|---|"]
        for v, (c, g, s) in sorted(PAPER_003_TABLE_I.items()):
            gk, sk = data.get(v, {}).get("cuda", (0, 0))[1], data.get(v, {}).get("cuda-sm", (0, 0))[1]
            ours = f"{gk / sk:.2f}x" if gk and sk else "-"
            lines.append(f"| {v} | {fmt(c)} | {x(c, g)} | {x(c, s)} | {g / s:.2f}x | {ours} |")
        lines += ["", "The paper: GPU 5.2x on average (max 6x), GPU-SM 7.4x (max 9x), GPU-SM up to 1.86x the GPU."]
    return "\n".join(lines) + "\n"


def table1_svg(data, context, paper, reps):
    groups = [str(v) for v in sorted(data)]
    series = [("cpu", "CPU, 1 core (wall)", False), ("cpu-parallel", f"CPU, {context.get('num_cpus', '?')} cores (wall)", False),
              ("cuda", "GPU (kernel)", False), ("cuda-sm", "GPU-SM (kernel)", False)]
    values, outlines = {}, {}
    for v in sorted(data):
        for b in BACKENDS:
            if b in data[v]:
                wall, kernel = data[v][b]
                values[(b, str(v))] = kernel if kernel else wall
                if kernel:
                    outlines[(b, str(v))] = wall
    notes = []
    if paper:
        series += [("paper CPU", "paper 003: CPU (P4)", True), ("paper GPU", "paper 003: GPU (8800 GTX)", True),
                   ("paper GPU-SM", "paper 003: GPU-SM", True)]
        for v, (c, g, s) in PAPER_003_TABLE_I.items():
            if str(v) in groups:
                values[("paper CPU", str(v))], values[("paper GPU", str(v))], values[("paper GPU-SM", str(v))] = c, g, s
        notes.append("Hatched: paper 003's Table I (2010). Its graphs are other random graphs of the same sizes; compare the ratios, not the bars.")
    return svg_bars(groups, series, values, f"dbf table, paper 003 Table I / Fig. 5 on an H200 ({where(context)})",
                    "vertices per task graph", "ms per table, log: CPU wall of the call; GPU kernel (CUDA events)",
                    outlines=outlines, subtitle=f"median of {reps} repetitions; block 256; dashed outline: the GPU call's wall time",
                    notes=notes)


# -- mode dbf-home: GPU against GPU-SM with only the data's home varied
def home_data(runs):
    out = {}
    for name, r in runs.items():
        m = re.match(r"BM_DbfPredecessors/variant:(\d)/width:(\d+)(/|$)", name)
        if m and "kernel_ms" in r:
            out.setdefault(HOME_VARIANTS[int(m.group(1))], []).append((r.get("predecessors", int(m.group(2))), r["kernel_ms"]))
    for pts in out.values():
        pts.sort()
    return out


def home_markdown(cached, uncached, context, sources):
    lines = [f"# dbf: GPU against GPU-SM, only the data's home varied ({where(context)})", "",
             f"Kernel milliseconds (CUDA events) of `BM_DbfPredecessors` against the predecessors of the sink rows, from "
             + ", ".join(f"`{s}`" for s in sources) + ". staged / global > 1 means staging the tuples (paper 003's "
             "GPU-SM) is slower.", ""]
    for tag, d in (("cached loads", cached), ("loads past L1 (-dlcm=cg)", uncached)):
        if not d:
            continue
        lines += [f"## {tag}", "", "| predecessors | " + " | ".join(HOME_VARIANTS) +
                  " | one table: staged / global | batch: staged / global | batch: global / on chip |",
                  "|---" * (len(HOME_VARIANTS) + 4) + "|"]
        widths = sorted({x for pts in d.values() for x, _ in pts})
        for wd in widths:
            k = {v: dict(d.get(v, [])).get(wd) for v in HOME_VARIANTS}
            r = lambda a, b: f"{k[a] / k[b]:.2f}" if k[a] and k[b] else "-"
            lines.append(f"| {wd:g} | " + " | ".join(fmt(k[v]) for v in HOME_VARIANTS) + f" | {r(HOME_VARIANTS[1], HOME_VARIANTS[0])} | "
                         f"{r(HOME_VARIANTS[3], HOME_VARIANTS[2])} | {r(HOME_VARIANTS[2], HOME_VARIANTS[4])} |")
        lines.append("")
    if cached and uncached:
        lines += ["## uncached / cached (kernel time)", "", "| predecessors | " + " | ".join(HOME_VARIANTS) + " |",
                  "|---" * (len(HOME_VARIANTS) + 1) + "|"]
        for wd in sorted({x for pts in cached.values() for x, _ in pts}):
            cells = []
            for v in HOME_VARIANTS:
                a, b = dict(uncached.get(v, [])).get(wd), dict(cached.get(v, [])).get(wd)
                cells.append(f"{a / b:.2f}" if a and b else "-")
            lines.append(f"| {wd:g} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def home_svg(cached, uncached, context):
    def color(v):
        return next(c for k, c in HOME_COLORS.items() if v.endswith(k))
    panels = []
    for ptitle, variants in (("one table (level kernels)", HOME_VARIANTS[:2]), ("256 tables in one batch", HOME_VARIANTS[2:])):
        ss = []
        for v in variants:
            if v in cached:
                ss.append((v + ", cached", color(v), False, cached[v]))
            if v in uncached:
                ss.append((v + ", uncached", color(v), True, uncached[v]))
        panels.append((ptitle, ss))
    legend = [("tuples in global memory (GPU)", HOME_COLORS["tuples global"], False),
              ("tuples staged in shared (GPU-SM)", HOME_COLORS["tuples staged"], False),
              ("the table on chip (cuda-sm batch)", HOME_COLORS["table on chip"], False),
              ("solid: loads cached (default)", "#333", False)]
    if uncached:
        legend.append(("dashed: past L1, -dlcm=cg", "#333", True))
    return svg_loglog_panels(panels, f"dbf on an H200: GPU against GPU-SM, only the data's home varied ({where(context)})",
                             "predecessors per row (fork-join task, sink rows)", "kernel time [ms], CUDA events, log",
                             legend, subtitle="BM_DbfPredecessors: the same launches; the tuples in global or shared memory, or the whole table on chip",
                             notes=["dashed: a build with global loads uncached in L1 (-Xptxas -dlcm=cg), paper 003's GPU condition"] if uncached else ())


# -- mode dbf-sets: design-space throughput
def sets_data(runs):
    """{(kind, vertices): {backend: record}} for BM_DbfBatch (tables only) and BM_DbfEndToEnd."""
    out = {}
    for name, r in runs.items():
        m = re.match(r"BM_Dbf(Batch|EndToEnd)/backend:(\d)/sets:(\d+)/vertices:(\d+)(/|$)", name)
        if not m or "sets/s" not in r:
            continue
        b = int(m.group(2))
        if m.group(1) == "EndToEnd" and b == 3:
            b = 4  # BM_DbfEndToEnd's cuda-sm is the on-chip batch (its label says so)
        kind = "tables only" if m.group(1) == "Batch" else "end to end"
        out.setdefault((kind, int(m.group(4))), {})[BATCH_BACKENDS[b]] = r
    return out


def sets_markdown(data, context, source):
    lines = [f"# dbf: task sets per second, 1,000 sets of 3 tasks ({where(context)})", "",
             f"From `{source}`: `BM_DbfBatch` (every table of every set in one call) and `BM_DbfEndToEnd` (the EDF "
             "pipeline as `dbf --batch` runs it: unrolling, tables, curves, QPA test). In parentheses against the CPU's "
             "cores (cpu-parallel).", "",
             "| | " + " | ".join(BATCH_BACKENDS) + " |", "|---" * (len(BATCH_BACKENDS) + 1) + "|"]
    for key in sorted(data, key=lambda k: (k[1], k[0] != "tables only")):
        d = data[key]
        par = d.get("cpu-parallel", {}).get("sets/s")
        cells = []
        for b in BATCH_BACKENDS:
            r = d.get(b)
            if not r:
                cells.append("-")
                continue
            s = fmt(r["sets/s"])
            if par and b != "cpu-parallel":
                s += f" ({r['sets/s'] / par:.2f}x)"
            if "kernel_ms" in r:
                s += f", kernel {fmt(r['kernel_ms'])} ms"
            if r.get("fell_back"):
                s += f", {int(r['fell_back']):,} of {int(r.get('tables', 0)):,} tables fell back"
            cells.append(s)
        lines.append(f"| {key[1]} vertices, {key[0]} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def sets_svg(data, context):
    keys = sorted(data, key=lambda k: (k[1], k[0] != "tables only"))
    groups = [f"{v} v., {kind}" for kind, v in keys]
    present = [b for b in BATCH_BACKENDS if any(b in data[k] for k in keys)]
    cores = context.get("num_cpus", "?")
    legend = {"cpu": "cpu, 1 core", "cpu-parallel": f"cpu-parallel, {cores} cores", "cuda": "cuda (tuples global)",
              "cuda-sm (staged)": "cuda-sm, tuples staged", "cuda-sm (on chip)": "cuda-sm, table on chip"}
    values, notes = {}, []
    for (kind, v), g in zip(keys, groups):
        for b, r in data[(kind, v)].items():
            values[(b, g)] = r["sets/s"]
            if r.get("fell_back"):
                notes.append(f"{v} vertices, {kind}: cuda-sm on chip fell back to the staged kernel (table in global memory) for "
                             f"{int(r['fell_back']):,} of {int(r.get('tables', 0)):,} tables: their windows do not fit shared memory.")
    notes.append("n/a: not measured (cpu at 50 vertices: 40 s a run; end to end has no staged cuda-sm).")
    return svg_bars(groups, [(b, legend[b], False) for b in present], values,
                    f"dbf design-space throughput on an H200: 1,000 sets of 3 tasks ({where(context)})",
                    "vertices per task graph; tables only (BM_DbfBatch) or end to end (BM_DbfEndToEnd)",
                    "task sets per second (wall time of the whole call), log", value_labels=True, notes=notes)


def write(path, text):
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main_paper003(argv):
    import argparse
    p = argparse.ArgumentParser(prog="plot_results.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["dbf-table1", "dbf-home", "dbf-sets"])
    p.add_argument("json", help="Google Benchmark JSON")
    p.add_argument("svg", help="the SVG to write")
    p.add_argument("--md", help="write the Markdown table here (default: print it)")
    p.add_argument("--paper", action="store_true", help="dbf-table1: paper 003's Table I beside ours")
    p.add_argument("--uncached", help="dbf-home: the same benchmarks from a -dlcm=cg build (dashed)")
    a = p.parse_args(argv)
    context, runs = load_runs(a.json)
    if a.mode == "dbf-table1":
        data, shape = table1_data(runs)
        if not data:
            sys.exit(f"{a.json}: no BM_DbfTable/.../block:256 results")
        reps = max(r.get("repetitions", 1) for n, r in runs.items() if n.startswith("BM_DbfTable"))
        svg, md = table1_svg(data, context, a.paper, reps), table1_markdown(data, shape, context, a.json, reps, a.paper)
    elif a.mode == "dbf-home":
        cached = home_data(runs)
        uncached = home_data(load_runs(a.uncached)[1]) if a.uncached else {}
        if not cached:
            sys.exit(f"{a.json}: no BM_DbfPredecessors results")
        svg = home_svg(cached, uncached, context)
        md = home_markdown(cached, uncached, context, [a.json] + ([a.uncached] if a.uncached else []))
    else:
        data = sets_data(runs)
        if not data:
            sys.exit(f"{a.json}: no BM_DbfBatch or BM_DbfEndToEnd results")
        svg, md = sets_svg(data, context), sets_markdown(data, context, a.json)
    write(a.svg, svg)
    write(a.md, md)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] in ("dbf-table1", "dbf-home", "dbf-sets"):
        return main_paper003(sys.argv[1:])
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
