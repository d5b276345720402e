#!/usr/bin/env python3
"""Reproduces paper 001's Fig. 6 and Fig. 7: the tractable estimate min over y <= x of
ceil(W / y) T(y) against x, with the time each exact T(x) took, as SVG plots and JSON.

    python3 bench/reproduce_001.py [--binary build/warpspan] [--max-x 16] [--time-limit 120] OUTDIR

Fig. 6: W = 600, "LLCLL", sigma_L = sigma_C = 1.  Fig. 7: W = 420, "LCLCL", sigma_L = 1/2, sigma_C = 1.
Each T(x) comes from `warpspan exact` (the exact search); x stops at the first one not solved
within the time limit.
"""
import argparse
import json
import math
import os
import subprocess

CASES = [
    ("fig6", "W = 600, LLCLL, sigma_L = sigma_C = 1", "LLCLL", 600, "L=1,C=1"),
    ("fig7", "W = 420, LCLCL, sigma_L = 1/2, sigma_C = 1", "LCLCL", 420, "L=1/2,C=1"),
]


def run(binary, kernel, warps, sigma, extra):
    cmd = [binary] + extra + ["--kernel", kernel, "--warps", str(warps), "--sigma", sigma, "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def plot(points, pessimistic, title):
    w, h, left, right, top, bottom = 680, 420, 70, 80, 40, 50
    xs = [p["x"] for p in points]
    ys = [p["tractable"] for p in points] + [pessimistic]
    times = [max(p["seconds"], 1e-4) for p in points]
    y0, y1 = min(ys) * 0.97, max(ys) * 1.02
    t0, t1 = math.floor(math.log10(min(times))), math.ceil(math.log10(max(times))) or 1
    if t1 <= t0:
        t1 = t0 + 1
    px = lambda x: left + (x - 1) / max(1, max(xs) - 1) * (w - left - right)
    py = lambda y: top + (y1 - y) / (y1 - y0) * (h - top - bottom)
    pt = lambda t: top + (t1 - math.log10(t)) / (t1 - t0) * (h - top - bottom)
    o = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='12'>",
         "<rect width='100%' height='100%' fill='white'/>",
         f"<text x='{w/2}' y='22' text-anchor='middle' font-size='14'>{title}</text>",
         f"<line x1='{left}' x2='{w-right}' y1='{py(pessimistic):.1f}' y2='{py(pessimistic):.1f}' stroke='#888' stroke-dasharray='6 4'/>",
         f"<text x='{w-right-4}' y='{py(pessimistic)-6:.1f}' text-anchor='end' fill='#666'>pessimistic {pessimistic}</text>"]
    for k in range(5):
        y = y0 + (y1 - y0) * k / 4
        o.append(f"<text x='{left-6}' y='{py(y)+4:.1f}' text-anchor='end'>{y:.0f}</text>")
    for e in range(t0, t1 + 1):
        o.append(f"<text x='{w-right+6}' y='{pt(10.0**e)+4:.1f}' fill='#c44'>{10.0**e:g} s</text>")
    for x in xs:
        o.append(f"<text x='{px(x):.1f}' y='{h-bottom+18}' text-anchor='middle'>{x}</text>")
    o.append(f"<text x='{(left+w-right)/2}' y='{h-10}' text-anchor='middle'>x (largest y with exact T(y))</text>")
    line = " ".join(f"{px(p['x']):.1f},{py(p['tractable']):.1f}" for p in points)
    o.append(f"<polyline points='{line}' fill='none' stroke='#1f77b4' stroke-width='2'/>")
    tline = " ".join(f"{px(p['x']):.1f},{pt(max(p['seconds'], 1e-4)):.1f}" for p in points)
    o.append(f"<polyline points='{tline}' fill='none' stroke='#c44' stroke-width='1.5' stroke-dasharray='3 3'/>")
    for p in points:
        o.append(f"<circle cx='{px(p['x']):.1f}' cy='{py(p['tractable']):.1f}' r='3' fill='#1f77b4'><title>x = {p['x']}: {p['tractable']}</title></circle>")
    ly = top + 0.45 * (h - top - bottom)
    o.append(f"<text x='{w-right-8}' y='{ly:.1f}' text-anchor='end' fill='#1f77b4'>tractable estimate (cycles, left axis)</text>")
    o.append(f"<text x='{w-right-8}' y='{ly+16:.1f}' text-anchor='end' fill='#c44'>time for exact T(x) (right axis, log)</text>")
    o.append("</svg>")
    return "\n".join(o)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--binary", default="build/warpspan")
    ap.add_argument("--max-x", type=int, default=16)
    ap.add_argument("--time-limit", type=float, default=120)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    for name, title, kernel, warps, sigma in CASES:
        pessimistic = run(a.binary, kernel, warps, sigma, ["bound"])["pessimistic"]
        t, points = [], []
        for x in range(1, a.max_x + 1):
            r = run(a.binary, kernel, x, sigma, ["exact", "--no-table", "--time-limit", str(a.time_limit)])
            if not r["complete"]:
                break
            t.append(r["makespan"])
            tractable = min(math.ceil(warps / y) * t[y - 1] for y in range(1, x + 1))
            points.append({"x": x, "T": r["makespan"], "tractable": tractable, "seconds": r["elapsed_s"], "states": r["states"]})
            print(f"{name}: x = {x:2d}  T(x) = {r['makespan']:4d}  tractable = {tractable}  ({r['elapsed_s']:.3g} s, {r['states']} states)")
        with open(os.path.join(a.outdir, f"paper001_{name}.json"), "w") as f:
            json.dump({"case": title, "warps": warps, "pessimistic": pessimistic, "points": points}, f, indent=1)
        with open(os.path.join(a.outdir, f"paper001_{name}.svg"), "w") as f:
            f.write(plot(points, pessimistic, f"001 {name.replace('fig', 'Fig. ')}: {title}"))


if __name__ == "__main__":
    main()
