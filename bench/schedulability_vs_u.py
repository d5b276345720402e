#!/usr/bin/env python3
"""Fraction of generated task sets that EDF schedules, against the target utilisation (the classic
schedulability experiment), for a few deadline factors. Uses the warpspan binary only.

    python3 bench/schedulability_vs_u.py [WARPSPAN] [OUT_PREFIX]

Defaults: build/warpspan (else build-cpu/warpspan) and bench/results/current/schedulability_vs_u; writes
OUT_PREFIX.csv and OUT_PREFIX.svg. Sets: 3 tasks of 10 vertices, wcet up to 10,000, 100 sets per
point, seed 1; utilisation split by UUniFast-Discard (generate-tasks --utilization). A set the EDF test
cannot decide (at U = 1 the hyperperiod is usually too large to check) counts as not schedulable
and is listed in the CSV's `undecided` column.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else next(
    p for p in (os.path.join(ROOT, "build/warpspan"), os.path.join(ROOT, "build-cpu/warpspan")) if os.path.exists(p))
prefix = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "bench/results/current/schedulability_vs_u")
UTILS = [round(0.1 * k, 1) for k in range(1, 11)]
FACTORS = [2.0, 3.0, 5.0]
SETS = 100

rows = []
with tempfile.TemporaryDirectory() as tmp:
    for f in FACTORS:
        for u in UTILS:
            path = os.path.join(tmp, "sets.jsonl")
            subprocess.run([binary, "generate-tasks", "--tasks", "3", "--vertices", "10", "--sets", str(SETS),
                            "--utilization", str(u), "--deadline-factor", str(f), "--seed", "1", "--quiet",
                            "--out", path], check=True, stdout=subprocess.DEVNULL)
            # --keep-going: a set the test cannot decide (U = 1 with a huge hyperperiod) is one error line
            out = subprocess.run([binary, "dbf", "--batch", path, "--json", "--quiet", "--keep-going"],
                                 capture_output=True, text=True)
            lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{\"set\"")]
            decided = [l for l in lines if "error" not in l]
            ok = sum(1 for l in decided if l["schedulable"])
            achieved = sum(l["utilization"] for l in decided) / max(1, len(decided))
            rows.append((f, u, achieved, ok / len(lines), len(lines) - len(decided)))
            print(f"f {f}  U {u:.1f}  achieved {achieved:.4f}  schedulable {ok}/{len(lines)}"
                  f"  undecided {len(lines) - len(decided)}")

with open(prefix + ".csv", "w") as out:
    out.write("deadline_factor,target_u,achieved_u,fraction_schedulable,undecided\n")
    for f, u, a, frac, undecided in rows:
        out.write(f"{f},{u},{a:.4f},{frac:.2f},{undecided}\n")

W, H, L, R, T, B = 640, 400, 60, 150, 40, 50
x = lambda u: L + (W - L - R) * u
y = lambda v: T + (H - T - B) * (1 - v)
colors = ["#4e79a7", "#f28e2b", "#59a14f"]
svg = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{W}' height='{H}' font-family='sans-serif' font-size='11'>",
       "<rect width='100%' height='100%' fill='white'/>",
       f"<text x='{L}' y='22' font-size='14'>EDF-schedulable fraction of generated sets ({SETS} per point)</text>",
       f"<line x1='{L}' y1='{y(0)}' x2='{x(1)}' y2='{y(0)}' stroke='black'/>",
       f"<line x1='{L}' y1='{y(0)}' x2='{L}' y2='{y(1)}' stroke='black'/>"]
for k in range(0, 11, 2):
    v = k / 10
    svg.append(f"<text x='{x(v)}' y='{y(0) + 16}' text-anchor='middle'>{v:.1f}</text>")
    svg.append(f"<text x='{L - 6}' y='{y(v) + 4}' text-anchor='end'>{v:.1f}</text>")
svg.append(f"<text x='{(L + x(1)) / 2}' y='{H - 12}' text-anchor='middle'>target utilisation U (sum of E/P)</text>")
svg.append(f"<text x='16' y='{(T + y(0)) / 2}' transform='rotate(-90 16 {(T + y(0)) / 2})' text-anchor='middle'>"
           "fraction schedulable</text>")
for i, f in enumerate(FACTORS):
    pts = " ".join(f"{x(u):.1f},{y(frac):.1f}" for ff, u, a, frac, _ in rows if ff == f)
    svg.append(f"<polyline fill='none' stroke='{colors[i]}' stroke-width='2' points='{pts}'/>")
    svg.append(f"<line x1='{x(1) + 15}' y1='{T + 10 + 18 * i}' x2='{x(1) + 40}' y2='{T + 10 + 18 * i}' "
               f"stroke='{colors[i]}' stroke-width='2'/><text x='{x(1) + 46}' y='{T + 14 + 18 * i}'>"
               f"deadline factor {f}</text>")
svg.append("</svg>")
with open(prefix + ".svg", "w") as out:
    out.write("\n".join(svg) + "\n")
print("wrote", prefix + ".csv", prefix + ".svg")
