# %% [markdown]
# # Design-space sweep with warpspan (notebook style: run as a script, or cell by cell in Jupyter/VS Code)
#
# How much can the tasks of `data/tasks/two_tasks_schedulable.json` grow before EDF can no longer
# schedule them? We scale every vertex's wcet by a factor, test all variants in one
# `warpspan.dbf_batch` call, and plot schedulability against utilisation. A second sweep asks how
# the Voronoi kernel's makespan bound grows with the number of warps.
#
#     PYTHONPATH=build/python python3 python/examples/schedulability_sweep.py [OUT_DIR]
#
# matplotlib is optional: without it the example prints its tables and skips the plots.

# %%
import copy
import json
import math
import sys
from pathlib import Path

import numpy as np

import warpspan

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("out/python")
try:
    import matplotlib

    matplotlib.use("Agg")  # files, no window
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("matplotlib not installed: tables only, no plots")

# %% [markdown]
# ## 1. Scale the wcets: 200 variants, one batch

# %%
base = json.loads((ROOT / "data/tasks/two_tasks_schedulable.json").read_text())


def scaled(taskset, factor):
    """A copy of the set with every wcet multiplied by factor (rounded up, at least 1)."""
    out = copy.deepcopy(taskset)
    for task in out["tasks"]:
        for v in task["vertices"]:
            v["wcet"] = max(1, math.ceil(v["wcet"] * factor))
    return out


factors = np.linspace(0.25, 2.5, 200)
verdicts = warpspan.dbf_batch([scaled(base, f) for f in factors])
schedulable = np.array([v.schedulable for v in verdicts])
utilization = np.array([v.utilization for v in verdicts])
largest = factors[schedulable].max() if schedulable.any() else None
print(f"{schedulable.sum()} of {len(factors)} variants schedulable; largest wcet factor {largest:.3f}")
print("factor      U  schedulable  first violation")
for f, v in list(zip(factors, verdicts))[::20]:
    print(f"{f:6.3f}  {v.utilization:5.3f}  {str(v.schedulable):11}  {v.first_violation}")

# %% [markdown]
# ## 2. The demand of the last schedulable and the first unschedulable variant

# %%
t = np.arange(0, 61)  # the violations of this set come early (t = 10 to 20)
first_bad = int(np.argmin(schedulable)) if not schedulable.all() else len(factors) - 1
curves = {f"x{factors[k]:.2f}": warpspan.dbf(scaled(base, factors[k]), at=t).total_dbf_at
          for k in sorted({max(first_bad - 1, 0), first_bad})}

# %% [markdown]
# ## 3. Voronoi: the pessimistic bound (above the worst case) and a round-robin schedule (below it) against W

# %%
warps = np.arange(1, 17)
pessimistic = np.array([warpspan.bound("5L9C2L9C", int(w), "L=1,C=4").pessimistic for w in warps])
build_rr = np.array([warpspan.build("5L9C2L9C", int(w), "L=1,C=4", init="rr").makespan for w in warps])
print(" W  pessimistic  round-robin schedule")
for w, b, r in zip(warps, pessimistic, build_rr):
    print(f"{w:2d}  {b:11d}  {r:20d}")

# %%
if plt is not None:
    OUT.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    ax.scatter(utilization, schedulable.astype(int), c=np.where(schedulable, "tab:green", "tab:red"), s=10)
    ax.set(xlabel="utilisation U", ylabel="schedulable by EDF", yticks=[0, 1], title="wcet sweep")
    ax = axes[1]
    for label, demand in curves.items():
        ax.step(t, demand, where="post", label=f"sum dbf, wcet {label}")
    ax.plot(t, t, "k--", label="t")
    ax.set(xlabel="t", ylabel="demand", title="demand at the edge")
    ax.legend()
    ax = axes[2]
    ax.plot(warps, pessimistic, "o-", label="pessimistic bound")
    ax.plot(warps, build_rr, "s-", label="round-robin schedule")
    ax.set(xlabel="warps W", ylabel="cycles", title="Voronoi 5L9C2L9C, sigma L=1, C=4")
    ax.legend()
    fig.tight_layout()
    fig.savefig(OUT / "schedulability_sweep.png", dpi=100)
    print(f"wrote {OUT / 'schedulability_sweep.png'}")
