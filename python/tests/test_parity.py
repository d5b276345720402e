"""Every Python function against the same call through the command line: every key of the CLI's
--json is in the Python result with the same value (timings aside), with and without time budgets.
A key added to one face and not the other, or a policy (a budget split, a cooling schedule) that one
face applies and the other does not, fails here."""
import json

import pytest

import warpspan
from conftest import cli, cli_json, data

VORONOI = "5L9C2L9C"
FIG2 = data("tasks", "fig2_example.json")
FIG4 = (data("wcet", "fig4.cfg.json"), data("wcet", "fig4.trace"))
# What depends on the machine or the moment.
TIMINGS = {"elapsed_s", "setup_s", "envelope", "seconds", "reached_seconds", "atom_seconds", "iterations",
           "iterations_per_chain", "best_makespan", "best_string", "best_chain", "best_chain_init",
           "warp_cycle_string", "time_limited", "history", "reached_at", "evaluations", "proven", "safe_upper_bound",
           "safe_upper_bound_from", "validated_chains", "points"}


def same(py, cli_out, ignore=()):
    """Every key of the CLI's JSON is in the Python result, equal unless ignored."""
    d = py.to_dict() if hasattr(py, "to_dict") else py
    d = json.loads(json.dumps(d, default=lambda a: a.tolist()))  # numpy arrays as lists
    missing = set(cli_out) - set(d)
    assert not missing, f"keys only the CLI has: {sorted(missing)}"
    for k, v in cli_out.items():
        if k not in ignore:
            if isinstance(v, dict) and isinstance(d[k], dict):  # timings inside, e.g. the beam's
                v = {x: y for x, y in v.items() if x not in TIMINGS}
                d[k] = {x: y for x, y in d[k].items() if x not in TIMINGS}
            assert d[k] == v, k


def test_estimate_without_a_budget():
    r = warpspan.estimate(VORONOI, 8, "L=1,C=4", chains=4, iterations=3000, seed=3, threads=1, exact_seconds=0)
    c = cli_json(f"estimate --kernel {VORONOI} --warps 8 --sigma L=1,C=4 --chains 4 --iterations 3000 --seed 3 "
                 "--threads 1 --exact-seconds 0 --json -q")
    same(r, c, ignore={"elapsed_s", "setup_s", "envelope"})
    assert c["cooling_fitted_to_seconds"] is False


def test_estimate_with_a_budget_fits_the_cooling_in_both():
    r = warpspan.estimate(VORONOI, 6, "L=1,C=4", chains=2, seconds=0.6, threads=1, exact_seconds=0.2)
    c = cli_json(f"estimate --kernel {VORONOI} --warps 6 --sigma L=1,C=4 --chains 2 --seconds 0.6 --threads 1 "
                 "--exact-seconds 0.2 --json -q")
    same(r, c, ignore=TIMINGS)
    assert r.cooling_fitted_to_seconds is True and c["cooling_fitted_to_seconds"] is True
    # the interval got its share of the budget in both (at most a quarter of 0.6 s, 0.15 s)
    for p in (r.proven, c["proven"]):
        assert p is not None and p["lower"] <= p["upper"]


def test_estimate_with_a_budget_and_iterations_keeps_the_schedule():
    r = warpspan.estimate(VORONOI, 4, "L=1,C=4", chains=2, iterations=500, seconds=5, threads=1, exact_seconds=0)
    c = cli_json(f"estimate --kernel {VORONOI} --warps 4 --sigma L=1,C=4 --chains 2 --iterations 500 --seconds 5 "
                 "--threads 1 --exact-seconds 0 --json -q")
    same(r, c, ignore={"elapsed_s", "setup_s", "envelope"})
    assert r.cooling_fitted_to_seconds is False


def test_exact():
    r = warpspan.exact(VORONOI, 4, "L=1,C=4", threads=1)
    c = cli_json(f"exact --kernel {VORONOI} --warps 4 --sigma L=1,C=4 --threads 1 --json -q")
    same(r, c, ignore={"elapsed_s", "states_per_s"})  # states and pruned too: both warm-started alike
    assert r.makespan == c["makespan"] == 45


def test_exact_without_the_warm_start():
    r = warpspan.exact(VORONOI, 5, "L=1,C=4", threads=1, warm_start=0)
    c = cli_json(f"exact --kernel {VORONOI} --warps 5 --sigma L=1,C=4 --threads 1 --warm-start 0 --json -q")
    same(r, c, ignore={"elapsed_s", "states_per_s"})
    assert r.makespan == c["makespan"] == 57


def test_exact_asked_whether_at_most():
    # Voronoi W = 6: T = 67. At 70 the question is proven without the exact value; at 60 a longer
    # schedule answers it, and the exact value with it. As the CLI says it.
    for at_most, holds in ((70, True), (60, False)):
        r = warpspan.exact(VORONOI, 6, "L=1,C=4", threads=1, at_most=at_most)
        c = cli_json(f"exact --kernel {VORONOI} --warps 6 --sigma L=1,C=4 --threads 1 --at-most {at_most} --json -q")
        same(r, c, ignore={"elapsed_s", "states_per_s"})
        assert r.at_most == at_most and r.at_most_holds is holds
        assert r.upper == (70 if holds else 67) and r.complete is (not holds)
    with pytest.raises(warpspan.InputError, match="at_most"):
        warpspan.exact(VORONOI, 6, "L=1,C=4", at_most=70, prune=False)


def test_bound_with_and_without_a_time_limit():
    same(warpspan.bound(VORONOI, 16, "L=1,C=4"), cli_json(f"bound --kernel {VORONOI} --warps 16 --sigma L=1,C=4 --json"))
    r = warpspan.bound(VORONOI, 9, "L=1,C=4", exact_up_to=3, time_limit=30)
    c = cli_json(f"bound --kernel {VORONOI} --warps 9 --sigma L=1,C=4 --exact-up-to 3 --time-limit 30 --json")
    same(r, c, ignore={"elapsed_s", "T"})


def test_build():
    s = "1 1 2 2 3 3 1 2 3 4 4 4"
    same(warpspan.build("LCL", 4, "L=1,C=1", s), cli_json(f"build --kernel LCL --warps 4 --sigma L=1,C=1 --string '{s}' --json"))


def test_kernel_from_ptx_and_presets():
    ptx = data("kernels", "voronoi_fig11.ptx")
    same(warpspan.kernel_from_ptx(ptx), cli_json(f"kernel --ptx {ptx} --json"))
    presets = warpspan.sm_presets()
    for p in cli_json("sm --json"):
        assert presets[p["name"]] == p


def test_dbf_and_dbf_batch():
    at = [10, 50, 7]
    r = warpspan.dbf(FIG2, at=at, backend="cpu")
    c = cli_json(f"dbf {FIG2} --at 10,50,7 --backend cpu --json")
    same(r, c, ignore={"elapsed_s", "tasks", "total_dbf_at"})
    # Python gives the {"t": dbf(t)} objects as arrays in the order of `at`
    assert r.total_dbf_at.tolist() == [c["total_dbf_at"][str(t)] for t in at]
    for py_task, cli_task in zip(r.tasks, c["tasks"]):
        same(py_task, cli_task, ignore={"dbf_at"})
        assert py_task["dbf_at"].tolist() == [cli_task["dbf_at"][str(t)] for t in at]
    variants = data("tasks", "variants.jsonl")
    _, out, _ = cli(f"dbf --batch {variants} --backend cpu --json --keep-going -q", expect=None)
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    sets = [l for l in lines if "set" in l and "error" not in l]
    valid = [s["path"] for s in sets]
    results = warpspan.dbf_batch(variants, backend="cpu") if not any("error" in l for l in lines) else None
    if results is not None:
        for r, c in zip(results, sets):
            same(r, c, ignore={"elapsed_s", "path", "set"})
    assert valid


def test_wcet():
    same(warpspan.wcet(*FIG4), cli_json(f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --json"))


def test_inputs():
    r = warpspan.inputs("bisect", evaluations=60, population=10, seed=5, jobs=1)
    c = cli_json("inputs --kernel bisect --evaluations 60 --population 10 --seed 5 --jobs 1 --json")
    same(r, c, ignore={"seconds", "reached_seconds", "history", "atoms"})
    assert r.best_fitness == c["best_fitness"]
    c["atoms"].pop("seconds")
    assert {k: v for k, v in r.to_dict()["atoms"].items() if k != "seconds"} == c["atoms"]


def test_dbf_sweep_with_its_critical_factor():
    for sweep, critical in (("wcet:0.5:3:26", 1.7499984741210937), ("period:0.4:1.2:17", None)):
        r = warpspan.dbf_sweep(FIG2, sweep, backend="cpu")
        _, out, _ = cli(f"dbf {FIG2} --sweep {sweep} --backend cpu --json -q", expect=None)
        lines = [json.loads(l) for l in out.splitlines() if l.strip()]
        assert r.variants == lines[:-1]
        assert r.summary == lines[-1]["summary"]
        # the run's times, as the CLI's last line has them: no GPU kernel time on the CPU
        assert r.elapsed_s >= 0 and r.kernel_s is None and lines[-1]["kernel_s"] is None
        assert r.summary["critical_factor"] == pytest.approx(critical, abs=1e-5) if critical else r.summary["critical_factor"] is None
