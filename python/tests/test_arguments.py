"""Every function checks its arguments (issue 21, items 5, 6, 11): the wrong type is a TypeError
naming the argument (a float or a bool is never truncated to an integer), a value out of range an
InputError naming the option, never a pybind11 dump of internal types."""
import inspect
import json
import os
from pathlib import Path

import numpy as np
import pytest

import warpspan
from conftest import batch_records, cli, data

VORONOI = "5L9C2L9C"
FIG2 = data("tasks", "fig2_example.json")
FIG1 = (data("wcet", "fig1.cfg.json"), data("wcet", "fig1.trace"))
VARIANTS = data("tasks", "variants.jsonl")

# Per public function: a valid call (keywords) and its integer parameters.
CALLS = {
    "estimate": (dict(kernel=VORONOI, warps=4, sigma="L=1,C=4", iterations=100, threads=1, exact_seconds=0),
                 ["warps", "schedulers", "chains", "iterations", "seed", "reach", "threads", "validate", "beam_width"]),
    "exact": (dict(kernel=VORONOI, warps=2, sigma="L=1,C=4"), ["warps", "schedulers", "max_states", "threads", "warm_start",
                                                                  "at_most"]),
    "bound": (dict(kernel=VORONOI, warps=4, sigma="L=1,C=4"), ["warps", "schedulers", "exact_up_to"]),
    "build": (dict(kernel=VORONOI, warps=4, sigma="L=1,C=4"), ["warps", "schedulers"]),
    "kernel_from_ptx": (dict(path=data("kernels", "voronoi_fig11.ptx")), ["loops"]),
    "dbf": (dict(taskset=FIG2, at=[10]), ["at", "threads", "block", "max_table_mib"]),
    "dbf_batch": (dict(tasksets=[FIG2]), ["threads", "block", "max_table_mib"]),
    "dbf_sweep": (dict(taskset=FIG2, sweep="wcet:0.5:1.5:3", backend="cpu"), ["threads", "block", "max_table_mib"]),
    "wcet": (dict(cfg=FIG1[0], trace=FIG1[1]), ["probe_cost"]),
    "merge": (dict(shards=[warpspan.dbf_batch(FIG2, backend="cpu", shard=(0, 1))]), ["max_mib"]),
    "inputs": (dict(kernel="artificial", threads=64, evaluations=20, jobs=1),
               ["threads", "evaluations", "seed", "sms", "population", "patience", "atom_threads", "atom_runs", "jobs"]),
}
# Parameters where None (the default) is valid.
NONE_OK = {("estimate", "schedulers"), ("estimate", "iterations"), ("exact", "schedulers"), ("bound", "schedulers"), ("build", "schedulers"),
           ("dbf", "at"), ("inputs", "threads")}


def public_functions():
    return {n for n in warpspan.__all__ if inspect.isfunction(getattr(warpspan, n))}


def test_every_public_function_and_integer_parameter_is_covered():
    """The table above is every function with arguments and every parameter whose default is an int."""
    takes_arguments = {n for n in public_functions() if inspect.signature(getattr(warpspan, n)).parameters}
    assert takes_arguments == set(CALLS)
    for name, (_, ints) in CALLS.items():
        defaults = {p.name for p in inspect.signature(getattr(warpspan, name)).parameters.values()
                    if type(p.default) is int}
        assert defaults <= set(ints), name


def test_valid_calls_work():
    for name, (kwargs, _) in CALLS.items():
        assert getattr(warpspan, name)(**kwargs) is not None, name


INTEGER_CASES = [(f, p, bad) for f, (_, ints) in CALLS.items() for p in ints
                 for bad in (1.5, 2.0, True, False, None, "3", np.float64(4.0), np.bool_(True))
                 if not (bad is None and (f, p) in NONE_OK) and not (p == "probe_cost" and bad == "3")]


@pytest.mark.parametrize("function, param, bad", INTEGER_CASES,
                         ids=[f"{f}-{p}-{type(b).__name__}" for f, p, b in INTEGER_CASES])
def test_float_bool_none_or_str_for_an_integer_is_a_type_error(function, param, bad):
    kwargs = dict(CALLS[function][0], **{param: bad})
    with pytest.raises(TypeError) as e:
        getattr(warpspan, function)(**kwargs)
    msg = str(e.value)
    assert f"warpspan.{function}(): {param}" in msg and "integer" in msg, msg


LARGE_CASES = [(f, p) for f, (_, ints) in CALLS.items() for p in ints if p != "probe_cost"]


@pytest.mark.parametrize("function, param", LARGE_CASES, ids=[f"{f}-{p}" for f, p in LARGE_CASES])
def test_an_integer_too_large_for_the_library_is_refused_by_name(function, param):
    kwargs = dict(CALLS[function][0], **{param: 2**70})
    with pytest.raises(warpspan.InputError) as e:
        getattr(warpspan, function)(**kwargs)
    msg = str(e.value)
    assert msg.startswith(param + ":") and str(2**70) in msg, msg  # the argument, as Python spells it
    assert "_SearchRequest" not in msg and "incompatible" not in msg


def test_the_issues_truncations_are_type_errors():
    with pytest.raises(TypeError, match=r"warpspan\.bound\(\): warps must be an integer, not float \(1\.5\)"):
        warpspan.bound("LCL", 1.5, "L=1,C=4")
    with pytest.raises(TypeError, match=r"warps .*float \(2\.9\)"):
        warpspan.estimate("LCL", 2.9, "L=1,C=1", iterations=10, exact_seconds=0)
    with pytest.raises(TypeError, match=r"at\[0\] must be an integer, not float \(1\.5\)"):
        warpspan.dbf(FIG2, at=[1.5, 10.9])
    with pytest.raises(TypeError, match=r"at\[1\] must be an integer, not float \(10\.9\)"):
        warpspan.dbf(FIG2, at=[1, 10.9])
    with pytest.raises(TypeError, match=r"at\[0\] must be an integer, not float"):
        warpspan.dbf(FIG2, at=np.array([1.5, 10.9]))
    with pytest.raises(TypeError, match=r"warps must be an integer, not bool \(True\)"):
        warpspan.bound("LCL", True, "L=1,C=4")


def test_numpy_integers_are_integers():
    assert warpspan.bound(VORONOI, np.int64(16), "L=1,C=4").pessimistic == 197
    assert warpspan.bound(VORONOI, np.uint8(16), "L=1,C=4", exact_up_to=np.int32(0)).pessimistic == 197
    r = warpspan.dbf(FIG2, at=np.array([10, 20], dtype=np.uint64))
    assert r.total_dbf_at.tolist() == warpspan.dbf(FIG2, at=[10, 20]).total_dbf_at.tolist()
    assert warpspan.dbf(FIG2, at=np.int64(10)).at.tolist() == [10]
    assert warpspan.build(VORONOI, 2, "L=1,C=4", np.array([1, 2] * 25)).makespan > 0


FLOAT_CASES = [("estimate", "seconds"), ("estimate", "t0"), ("estimate", "exact_seconds"), ("exact", "time_limit"),
               ("bound", "time_limit"), ("inputs", "tolerance")]


@pytest.mark.parametrize("function, param", FLOAT_CASES)
@pytest.mark.parametrize("bad", [True, None, "1"])
def test_a_bool_none_or_str_for_a_number_is_a_type_error(function, param, bad):
    with pytest.raises(TypeError, match=rf"warpspan\.{function}\(\): {param} must be a number"):
        getattr(warpspan, function)(**dict(CALLS[function][0], **{param: bad}))


STRING_CASES = [(f, p) for f in CALLS for p, v in inspect.signature(getattr(warpspan, f)).parameters.items()
                if isinstance(v.default, str) and p != "probe_cost"]
STRING_CASES += [("estimate", "kernel"), ("bound", "kernel"), ("inputs", "kernel"), ("bound", "sigma"),
                 ("bound", "sm")]


@pytest.mark.parametrize("function, param", STRING_CASES, ids=[f"{f}-{p}" for f, p in STRING_CASES])
def test_a_number_for_a_string_is_a_type_error(function, param):
    with pytest.raises(TypeError, match=rf"warpspan\.{function}\(\): {param} must be a string"):
        getattr(warpspan, function)(**dict(CALLS[function][0], **{param: 5}))


def test_none_kernel_is_a_type_error_not_an_unknown_name():
    with pytest.raises(TypeError, match=r"warpspan\.bound\(\): kernel must be a string, not None"):
        warpspan.bound(None, 4, "L=1,C=4")
    with pytest.raises(TypeError, match=r"warpspan\.inputs\(\): kernel must be a string, not int"):
        warpspan.inputs(3)
    # inputs() takes a kernel or a harness: None is "not given", and one of them is required
    with pytest.raises(warpspan.InputError, match=r"or harness= \(a harness library of your own\) is required"):
        warpspan.inputs(None)
    with pytest.raises(TypeError, match=r"prune must be True or False, not int \(1\)"):
        warpspan.exact(VORONOI, 2, "L=1,C=4", prune=1)
    # a Kernel from kernel_from_ptx is a kernel
    assert warpspan.bound(warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), lines=(1, 66)), 16,
                          "L=1,C=4").pessimistic == 197


@pytest.mark.parametrize("function", ["estimate", "inputs"])
@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_a_seed_outside_0_to_2_64_is_refused_the_same_way_everywhere(function, seed):
    with pytest.raises(warpspan.InputError) as e:
        getattr(warpspan, function)(**dict(CALLS[function][0], seed=seed))
    assert str(e.value) == (f"seed: must be an integer from 0 to 18446744073709551615, got '{seed}'")
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("function", ["estimate", "inputs"])
def test_the_largest_seed_is_taken(function):
    r = getattr(warpspan, function)(**dict(CALLS[function][0], seed=2**64 - 1))
    assert r.seed == 2**64 - 1


def test_sequences_of_integers_are_checked_element_by_element():
    with pytest.raises(TypeError, match=r"warpspan\.build\(\): string\[1\] must be an integer, not float \(2\.0\)"):
        warpspan.build("LCL", 2, "L=1,C=1", [1, 2.0, 1, 2, 1, 2])
    with pytest.raises(TypeError, match=r"string must be the warp ids as text or a sequence of integers, not int"):
        warpspan.build("LCL", 2, "L=1,C=1", 5)
    with pytest.raises(warpspan.InputError, match=r"^string\[0\]: must be an integer from .* got '1180591620717411303424'"):
        warpspan.build("LCL", 2, "L=1,C=1", [2**70] * 6)
    with pytest.raises(TypeError, match=r"at must be an integer or a sequence of integers, not float \(1\.5\)"):
        warpspan.dbf(FIG2, at=1.5)


def test_pairs_of_kernel_from_ptx_lines_are_checked():
    with pytest.raises(TypeError, match=r"lines must be a pair"):
        warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), lines=5)
    with pytest.raises(TypeError, match=r"lines\[1\] must be an integer, not float"):
        warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), lines=(1, 2.5))
    with pytest.raises(TypeError, match=r"path must be a path"):
        warpspan.kernel_from_ptx(None)


# ---------------------------------------------------------------------------------- wcet
def test_wcet_trace_must_be_paths_not_an_int():
    with pytest.raises(TypeError, match=r"warpspan\.wcet\(\): trace must be a path .*not int \(5\)"):
        warpspan.wcet(FIG1[0], 5)
    with pytest.raises(TypeError, match=r"trace\[1\] must be a path"):
        warpspan.wcet(FIG1[0], [FIG1[1], 5])
    with pytest.raises(TypeError, match=r"trace_text must be the text of a trace"):
        warpspan.wcet(FIG1[0], trace_text=5)
    with pytest.raises(TypeError, match=r"cfg must be a path"):
        warpspan.wcet(5, FIG1[1])


def test_wcet_one_line_trace_text_is_text(tmp_path):
    """trace_text= is a trace's text however short; trace= is a path (text there is refused, not opened)."""
    cfg = tmp_path / "one.cfg.json"  # one block, entry and exit: one record is a whole warp
    cfg.write_text(json.dumps({"name": "one", "entry": "b1", "exit": "b1", "blocks": ["b1"], "edges": [],
                               "ipoints": {"b1": "i1"}}))
    line = "0 0 0 0 i1 5"
    (tmp_path / "one.trace").write_text(line + "\n")
    r = warpspan.wcet(cfg, trace_text=line)
    c = json.loads(cli(f"wcet --cfg {cfg} --trace {tmp_path / 'one.trace'} --json")[1])
    assert (r.runs, r.warps, r.z_hybrid) == (c["runs"], c["warps"], c["z_hybrid"]) == (1, 1, 0)
    # the cut-short record is read as a trace of fig1 (and named trace_text), not looked up as a file
    with pytest.raises(warpspan.InputError, match=r"^trace_text:1: warp .* ends at Ipoint 'i1'"):
        warpspan.wcet(FIG1[0], trace_text="0 0 0 0 i1 0")
    text = Path(FIG1[1]).read_text()
    assert warpspan.wcet(FIG1[0], trace_text=text).z_warp == 31
    records = [line for line in text.splitlines() if line and not line.startswith("#")]
    by_run = ["\n".join(r for r in records if r.startswith(f"{run} ")) for run in (0, 1)]
    assert warpspan.wcet(FIG1[0], trace_text=by_run).to_dict() == warpspan.wcet(*FIG1).to_dict()
    with pytest.raises(warpspan.InputError, match=r"^trace: a path has no line break, and this str has one: pass a trace's text as trace_text=$"):
        warpspan.wcet(FIG1[0], text)


def test_wcet_loop_bounds_as_pairs_or_dict():
    by_dict = warpspan.wcet(*FIG1, loop_bounds={"b2": 3})
    by_pairs = warpspan.wcet(*FIG1, loop_bounds=[("b2", 3)])
    c = json.loads(cli(f"wcet --cfg {FIG1[0]} --trace {FIG1[1]} --loop-bound b2=3 --json")[1])
    assert by_dict.z_warp == by_pairs.z_warp == c["z_warp"] and by_pairs.loops == c["loops"]
    with pytest.raises(TypeError, match=r"loop_bounds must be a dict"):
        warpspan.wcet(*FIG1, loop_bounds=5)
    with pytest.raises(TypeError, match=r"loop_bounds\[0\] must be a pair"):
        warpspan.wcet(*FIG1, loop_bounds=["b2=3"])
    with pytest.raises(TypeError, match=r"loop_bounds\['b2'\] must be an integer, not float"):
        warpspan.wcet(*FIG1, loop_bounds={"b2": 3.5})
    with pytest.raises(TypeError, match=r"probe_cost must be an integer \(cycles\) or 'auto', not float"):
        warpspan.wcet(*FIG1, probe_cost=1.5)


# ---------------------------------------------------------------------------------- dbf_batch
def test_dbf_batch_reads_jsonl_as_the_cli_batch_does():
    lines = batch_records(cli(f"dbf --batch {VARIANTS} --json --backend cpu")[1])
    keys = ["set", "schedulable", "utilization_exact", "t_max", "checked_to", "first_violation"]
    for given in ([VARIANTS], VARIANTS, [Path(VARIANTS)]):
        got = warpspan.dbf_batch(given, backend="cpu")
        assert [{k: getattr(g, k) for k in keys} for g in got] == [{k: c[k] for k in keys} for c in lines]
    assert got[0].set == "variants.jsonl:1"
    mixed = warpspan.dbf_batch([FIG2, VARIANTS, json.loads(Path(FIG2).read_text())], backend="cpu")
    assert len(mixed) == len(lines) + 2
    assert [m.set for m in mixed[:2]] == ["fig2_example.json", "variants.jsonl:1"]
    assert mixed[-1].set == f"taskset[2]"


def test_dbf_batch_jsonl_errors_name_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(Path(FIG2).read_text().replace("\n", " ") + "\n\n{\"tasks\": []}\n")
    _, _, err = cli(f"dbf --batch {bad}", expect=2)
    with pytest.raises(warpspan.InputError) as e:
        warpspan.dbf_batch([bad])
    assert f"{bad}:3" in str(e.value) and str(e.value) in err
    with pytest.raises(TypeError, match=r"tasksets\[0\] must be a dict in the JSON task format or a path, not int"):
        warpspan.dbf_batch([5])
    with pytest.raises(TypeError, match=r"tasksets must be a list"):
        warpspan.dbf_batch(5)


# ---------------------------------------------------------------------------------- the interpreter
def test_python_records_the_interpreter_it_was_built_for():
    assert os.path.isfile(warpspan.__python__)
    from warpspan import _build_info
    import sys
    assert _build_info.PYTHON_VERSION.split(".")[:2] == [str(v) for v in sys.version_info[:2]]


@pytest.mark.parametrize("call", [
    lambda: warpspan.build("L\ud800C", 2, "L=1,C=4"),
    lambda: warpspan.estimate("LC", 2, "L=1,\udc80C=4", iterations=10),
    lambda: warpspan.dbf("tasks\udcff.json"),
], ids=["kernel", "sigma", "taskset"])
def test_a_lone_surrogate_is_an_input_error_naming_the_argument(call):
    # pybind11 cannot make UTF-8 of a lone surrogate and said only "incompatible function arguments".
    with pytest.raises(warpspan.InputError) as e:
        call()
    msg = str(e.value)
    assert "lone surrogate" in msg and "incompatible" not in msg, msg
    assert msg.split(":")[0] in ("kernel", "sigma", "taskset"), msg


def test_kernel_from_ptx_takes_the_sm_table_as_the_cli_does(tmp_path):
    ptx = tmp_path / "k.ptx"
    ptx.write_text("ld.global.f32 %f1, [a];\ndiv.rn.f32 %f2, %f1, %f1;\nst.global.f32 [a], %f2;\nret;\n")
    k = warpspan.kernel_from_ptx(str(ptx), sm="ampere-8.0")
    c = json.loads(cli(f"kernel --ptx {ptx} --sm ampere-8.0 --json --trace")[1])
    assert k.kernel == c["kernel"] == "LS10CLC"
    assert k.by_sm_rule == 1
    assert k.trace[1] == (2, "div.rn.f32", "C", "S10C")
    assert warpspan.kernel_from_ptx(str(ptx)).kernel == "LCLC"
    with pytest.raises(warpspan.InputError):
        warpspan.kernel_from_ptx(str(ptx), sm="nosuchsm")
