"""wcet (hybrid WCET from traces, paper 002) and inputs (GDivAn, paper 004) give the CLI's answers."""
import os
from pathlib import Path

import numpy as np
import pytest

import warpspan
from conftest import assert_ctrl_c_interrupts, cli, cli_json, data
from test_errors import cli_message, in_python_words

FIG4 = (data("wcet", "fig4.cfg.json"), data("wcet", "fig4.trace"))
FIG1 = (data("wcet", "fig1.cfg.json"), data("wcet", "fig1.trace"))
WCET_KEYS = ["kernel", "z_warp", "z_dynamic", "z_hybrid", "hwmt", "jitter", "waves", "warps_per_wave", "delta",
             "longest_wst", "overestimation_percent", "method", "tree", "runs", "warps", "ipoints", "edges",
             "divergent_edges", "loops", "probe_cost", "skipped_lines", "warnings", "hwmt_per_sm", "hwmt_launch", "clock",
             "hwmt_net", "overestimation_percent_launch", "visit_bounds", "visits_unbounded"]


def test_wcet_fig4_matches_cli():
    r = warpspan.wcet(*FIG4)
    assert (r.z_warp, r.z_dynamic, r.z_hybrid, r.hwmt) == (30, 37, 38, 34)
    c = cli_json(f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --json")
    assert {k: r.to_dict()[k] for k in WCET_KEYS} == c
    assert (r.waves, r.warps_per_wave, r.delta, r.runs, r.warps) == (c["waves"], c["warps_per_wave"], c["delta"],
                                                                    c["runs"], c["warps"])
    assert r.probe_cost == 0 and isinstance(r, warpspan.WcetResult)


@pytest.mark.parametrize("method", ["ilp", "tree", "enumerate"])
def test_wcet_fig1_is_31_by_every_method(method):
    r = warpspan.wcet(FIG1[0], FIG1[1], method=method)
    assert r.z_warp == 31 == cli_json(f"wcet --cfg {FIG1[0]} --trace {FIG1[1]} --method {method} --json")["z_warp"]
    assert r.method == method


def test_wcet_trace_text_list_and_loop_bound():
    text = Path(FIG4[1]).read_text()
    assert warpspan.wcet(FIG4[0], trace_text=text).z_hybrid == 38  # the trace's text
    assert warpspan.wcet(Path(FIG4[0]), [Path(FIG4[1])]).z_hybrid == 38  # a list of paths
    r = warpspan.wcet(*FIG1, loop_bounds={"b2": 5}, probe_cost=1)
    c = cli_json(f"wcet --cfg {FIG1[0]} --trace {FIG1[1]} --loop-bound b2=5 --probe-cost 1 --json")
    assert r.z_warp == c["z_warp"] and r.loops == c["loops"] and r.probe_cost == 1


def test_wcet_ptx():
    ptx, trace = data("wcet", "count_loop.ptx"), data("wcet", "count_loop.trace")
    r = warpspan.wcet(ptx=ptx, trace=trace)
    c = cli_json(f"wcet --ptx {ptx} --trace {trace} --json")
    assert (r.z_warp, r.z_hybrid, r.hwmt, r.edges) == (c["z_warp"], c["z_hybrid"], c["hwmt"], c["edges"])


# The CLI's message, and what Python says instead of the CLI's options in it (test_errors.py).
@pytest.mark.parametrize("call, args, words", [
    (lambda: warpspan.wcet(FIG4[0], FIG4[1], method="magic"), f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --method magic",
     [("--method:", "method:")]),
    (lambda: warpspan.wcet(FIG4[0], FIG4[1], probe_cost=-3), f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --probe-cost -3",
     [("--probe-cost:", "probe_cost:")]),
    (lambda: warpspan.wcet(FIG4[0], FIG4[1], loop_bounds={"b2": -1}),
     f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --loop-bound b2=-1", [("--loop-bound:", "loop_bounds:")]),
    (lambda: warpspan.wcet(FIG4[0], FIG4[1], trace_format="xml"),
     f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --trace-format xml", [("--trace-format:", "trace_format:")]),
    (lambda: warpspan.wcet("/nonexistent.json", FIG4[1]), f"wcet --cfg /nonexistent.json --trace {FIG4[1]}", []),
    (lambda: warpspan.wcet(FIG4[0], "/nonexistent.trace"), f"wcet --cfg {FIG4[0]} --trace /nonexistent.trace", []),
    (lambda: warpspan.inputs("nosuch"), "inputs --kernel nosuch", [("--harness", "harness=")]),
    (lambda: warpspan.inputs(harness="/no/such/lib.so"), "inputs --harness /no/such/lib.so", []),
    (lambda: warpspan.inputs("artificial", threads=0), "inputs --kernel artificial --threads 0", [("--threads", "threads=")]),
    (lambda: warpspan.inputs("artificial", method="hill"), "inputs --kernel artificial --method hill", []),
    (lambda: warpspan.inputs("artificial", evaluations=0), "inputs --kernel artificial --evaluations 0",
     [("--evaluations", "evaluations=")]),
    (lambda: warpspan.inputs("artificial", atom_threads=1), "inputs --kernel artificial --atom-threads 1",
     [("--atom-threads", "atom_threads=")]),
    (lambda: warpspan.inputs("artificial", sm="nosuch"), "inputs --kernel artificial --sm nosuch", []),
])
def test_same_message_as_cli(call, args, words):
    with pytest.raises(warpspan.InputError) as e:
        call()
    assert str(e.value) == in_python_words(cli_message(args), words)


@pytest.mark.parametrize("method", ["gdivan", "random-ga", "random"])
def test_inputs_matches_cli_seed_for_seed(method):
    r = warpspan.inputs("artificial", threads=256, method=method, evaluations=150, seed=3, jobs=1)
    c = cli_json(f"inputs --kernel artificial --threads 256 --method {method} --evaluations 150 --seed 3 --jobs 1 "
                 "--json")
    assert isinstance(r, warpspan.InputsResult)
    assert (r.best_fitness, r.fitness_unit, r.evaluations, r.reached_at, r.method, r.seed, r.coverage) == (
        c["best_fitness"], c["fitness_unit"], c["evaluations"], c["reached_at"], c["method"], c["seed"], c["coverage"])
    assert r.history.shape == (len(c["history"]), 2)
    assert r.history.tolist() == c["history"]
    assert r.history[-1, 1] == r.best_fitness
    assert r.model == c["model"] and r.threads == 256
    assert isinstance(r.best_input, np.ndarray) and r.best_input.dtype == np.int32 and len(r.best_input) > 0
    assert ("atoms" in r.to_dict()) == (method == "gdivan")


def test_inputs_best_input_is_what_the_cli_saves(tmp_path):
    r = warpspan.inputs("artificial", threads=64, evaluations=100, jobs=1)
    saved = tmp_path / "a.input"
    cli(f"inputs --kernel artificial --threads 64 --evaluations 100 --jobs 1 --save-input {saved}")
    numbers = [int(v) for line in saved.read_text().splitlines() if not line.startswith("#") for v in line.split()]
    assert r.best_input.tolist() == numbers
    c = cli_json(f"inputs --kernel artificial --threads 64 --eval-input {saved} --json")
    assert c["best_fitness"] == r.best_fitness


HARNESS = os.environ.get("WARPSPAN_TEST_HARNESS", "")
needs_harness = pytest.mark.skipif(not HARNESS, reason="WARPSPAN_TEST_HARNESS (set by ctest) names no test harness")


@needs_harness
@pytest.mark.parametrize("method", ["gdivan", "random-ga", "random"])
def test_harness_matches_cli_seed_for_seed(method):
    """A harness library (tests/inputs/harness/) searched from Python: the CLI's answer."""
    r = warpspan.inputs(harness=HARNESS, threads=70, method=method, evaluations=150, seed=5, jobs=1)
    c = cli_json(f"inputs --harness {HARNESS} --threads 70 --method {method} --evaluations 150 --seed 5 --jobs 1 --json")
    assert (r.kernel, r.harness) == ("fixture", HARNESS) == (c["kernel"], c["harness"])
    assert (r.best_fitness, r.evaluations, r.reached_at) == (c["best_fitness"], c["evaluations"], c["reached_at"])
    assert r.history.tolist() == c["history"]
    assert len(r.best_input) == 70 * 2 + 2  # 70 records of (n, x), then 2 blocks' (mode)
    # The best input's slowest block as warps of the makespan model, as the CLI reports it; estimate
    # takes its spec as warp_kernels= (a string).
    assert r.worst_block == c["worst_block"]
    e = warpspan.bound(warp_kernels=r.worst_block["warp_kernels"], sigma="L=1,C=4")
    assert e.problem["warps"] == r.worst_block["warps"]


@needs_harness
def test_harness_or_kernel_not_both_not_neither():
    with pytest.raises(warpspan.InputError, match=r"^kernel= and harness= are exclusive"):
        warpspan.inputs("bfs", harness=HARNESS)
    with pytest.raises(warpspan.InputError, match=r"^kernel= \(one of: artificial, bfs, petri, bisect, lbm\) or harness="):
        warpspan.inputs()
    with pytest.raises(TypeError, match=r"warpspan\.inputs\(\): harness must be a path"):
        warpspan.inputs(harness=3)
    assert warpspan.inputs(harness=Path(HARNESS), threads=8, evaluations=20, population=10).harness == HARNESS


@needs_harness
def test_a_harness_that_aborts_is_an_input_error_holding_the_results_so_far():
    """A harness that calls abort() on one input: the search stops, InputError says what it did, and
    its result holds the evaluations so far and the input it failed on (the CLI's answer)."""
    aborts = HARNESS.replace("libfixture_good", "libfixture_aborts")
    args = dict(method="random", evaluations=4000, population=50, seed=4, jobs=2)
    with pytest.raises(warpspan.InputError, match=r"^harness 'fixture' \(.*\): .*aborted \(SIGABRT") as e:
        warpspan.inputs(harness=aborts, **args)
    r = e.value.result
    c = cli_json(f"inputs --harness {aborts} --method random --evaluations 4000 --population 50 --seed 4 --jobs 2 --json",
                 expect_code=2)
    assert 0 < r["evaluations"] == c["evaluations"] < 4000
    assert r["failure"] == str(e.value) == c["failure"]
    assert r["failing_input"].tolist() == c["failing_input"]
    assert sum(r["failing_input"][0:200:2]) >= 470  # the fixture's trigger: loop trips adding up to 470


@pytest.mark.parametrize("method", ["gdivan", "random"])
def test_ctrl_c_interrupts_a_long_search(method):
    """SIGINT during a long input search: KeyboardInterrupt soon after (between generations/batches)."""
    assert_ctrl_c_interrupts(f"warpspan.inputs('artificial', threads=4096, method='{method}', evaluations=10**8, patience=0, jobs=1)")


def test_missing_program_or_traces_in_pythons_words():
    # The command line says --cfg/--ptx and --trace; Python names its own parameters.
    with pytest.raises(warpspan.InputError, match=r"^give the program structure with cfg= or ptx="):
        warpspan.wcet(None, FIG4[1])
    with pytest.raises(warpspan.InputError, match=r"^give at least one trace \(trace= or trace_text=\)"):
        warpspan.wcet(FIG4[0], [])
    assert "--cfg or --ptx" in cli(f"wcet --trace {FIG4[1]}", expect=2)[2]


TWO_SM_CFG = ('{"name": "two_sm", "entry": "s", "exit": "t", "blocks": ["s", "m", "t"], '
              '"edges": [["s", "m"], ["m", "t"]], "ipoints": {"s": "s", "m": "m", "t": "t"}}')
TWO_SM_TRACE = "0 0 0 0 s 0\n0 0 0 0 m 4\n0 0 0 0 t 8\n0 1 1 0 s 100\n0 1 1 0 m 104\n0 1 1 0 t 108\n"


def test_wcet_hwmt_per_sm_and_over_the_launch(tmp_path):
    """Issue 25: a warp on SM 0 runs 0-8, one on SM 1 100-108; with one clock the launch took 108."""
    cfg = tmp_path / "two_sm.json"
    cfg.write_text(TWO_SM_CFG)
    with pytest.warns(UserWarning, match="the launch ran 108 cycles"):
        r = warpspan.wcet(cfg, trace_text="# clock: global\n" + TWO_SM_TRACE)
    assert (r.hwmt, r.hwmt_per_sm, r.hwmt_launch, r.clock, r.z_hybrid) == (8, 8, 108, "global", 8)
    assert r.overestimation_percent_launch["z_hybrid"] == -92.6
    trace = tmp_path / "two_sm.trace"
    trace.write_text(TWO_SM_TRACE)
    c = cli_json(f"wcet --cfg {cfg} --trace {trace} --clock global --json")
    assert {k: r.to_dict()[k] for k in ["hwmt_per_sm", "hwmt_launch", "clock", "overestimation_percent_launch"]} == {
        k: c[k] for k in ["hwmt_per_sm", "hwmt_launch", "clock", "overestimation_percent_launch"]}
    s = warpspan.wcet(cfg, trace)  # a text trace without '# clock: global': per-SM clocks
    assert (s.hwmt, s.hwmt_launch, s.clock) == (8, None, "sm")
    with pytest.warns(UserWarning, match="the launch ran 108 cycles"):
        assert warpspan.wcet(cfg, trace, clock="global").hwmt_launch == 108


def test_wcet_divergent_diamond_is_40(tmp_path):
    """Issue 25: s -> {a, b} -> j -> t, the warps take a then b and b then a: 40, not 50."""
    cfg = tmp_path / "diamond.json"
    cfg.write_text('{"name": "d", "entry": "s", "exit": "t", "blocks": ["s", "a", "b", "j", "t"], "edges": '
                   '[["s", "a"], ["s", "b"], ["a", "j"], ["b", "j"], ["j", "t"]], '
                   '"ipoints": {"s": "s", "a": "a", "b": "b", "j": "j", "t": "t"}}')
    trace = "".join(f"0 0 0 {w} {p} {10 * i}\n" for w, path in enumerate(["sabjt", "sbajt"]) for i, p in enumerate(path))
    for method in ["ilp", "enumerate"]:
        assert warpspan.wcet(cfg, trace_text=trace, method=method).z_warp == 40
