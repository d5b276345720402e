"""Bad input raises warpspan.InputError (a ValueError) with the CLI's message in Python's words: the
library names its parameters neutrally (include/warpspan/core/error.hpp), the CLI spells them as its
options (--warps), Python as keyword arguments (warps=)."""

import re

import pytest

import warpspan
from conftest import assert_ctrl_c_interrupts, cli, data


def cli_message(args):
    code, _, err = cli(args, expect=2)
    assert err.startswith("warpspan: ")
    return err[len("warpspan: "):].strip().removesuffix(" (see warpspan --help)")  # CLI11's parse errors


OPTION = re.compile(r"(?<![\w-])--[a-z]")


def in_python_words(message, words):
    """The CLI's `message` with each (option, keyword) of `words` replaced: what Python says."""
    for option, keyword in words:
        assert option in message, message  # the CLI names its option
        message = message.replace(option, keyword)
    assert not OPTION.search(message), message
    return message


# The CLI's message, and what Python says instead of the CLI's options in it (none: the same text).
@pytest.mark.parametrize("call, args, words", [
    (lambda: warpspan.bound("5L9X", 4, "L=1,C=4"), "bound --kernel 5L9X --warps 4 --sigma L=1,C=4", []),
    (lambda: warpspan.bound("LC", 4), "bound --kernel LC --warps 4",
     [("--sigma (", "sigma= ("), ("--sigma L=1,C=4", "sigma='L=1,C=4'"), ("--sm NAME", "sm='NAME'")]),
    (lambda: warpspan.bound("LC", 0, "L=1,C=4"), "bound --kernel LC --warps 0 --sigma L=1,C=4", [("--warps", "warps=")]),
    (lambda: warpspan.bound("LC", 4, "L=1,Q=4"), "bound --kernel LC --warps 4 --sigma L=1,Q=4", [("--sigma:", "sigma:")]),
    (lambda: warpspan.bound("LC", 4, sm="nosuch"), "bound --kernel LC --warps 4 --sm nosuch", []),
    (lambda: warpspan.build("LCL", 2, "L=1,C=1", "1 2 2"), "build --kernel LCL --warps 2 --sigma L=1,C=1 --string '1 2 2'",
     []),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", init="zz"), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --init zz",
     [("--init:", "init:")]),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", chains=-1), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --chains -1",
     [("--chains:", "chains:")]),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", seed=-1), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --seed -1",
     [("--seed:", "seed:")]),
    (lambda: warpspan.inputs("bisect", seed=2**64), "inputs --kernel bisect --seed 18446744073709551616",
     [("--seed:", "seed:")]),
    (lambda: warpspan.exact("LC", 4, "L=1,C=1", method="magic"), "exact --kernel LC --warps 4 --sigma L=1,C=1 --method magic",
     [("--method:", "method:")]),
    (lambda: warpspan.dbf("/nonexistent.json"), "dbf /nonexistent.json", []),
    (lambda: warpspan.dbf(data("tasks", "fig2_example.json"), backend="gpu"),
     "dbf " + data("tasks", "fig2_example.json") + " --backend gpu", []),
    (lambda: warpspan.kernel_from_ptx("/nonexistent.ptx"), "kernel --ptx /nonexistent.ptx", []),
])
def test_same_message_as_cli(call, args, words):
    with pytest.raises(warpspan.InputError) as e:
        call()
    assert str(e.value) == in_python_words(cli_message(args), words)
    assert isinstance(e.value, ValueError)


# Errors raised deep in the library (core/, makespan/, dbf/, sm/, wcet/, inputs/) reach Python with
# Python's keywords and the CLI with its options: the same message, two spellings.
@pytest.mark.parametrize("call, args, python, option", [
    (lambda: warpspan.bound("LC", 0, "L=1,C=4"), "bound --kernel LC --warps 0 --sigma L=1,C=4",
     "warps= must be at least 1 (got 0)", "--warps must be at least 1 (got 0)"),
    (lambda: warpspan.bound("LC", 100000, "L=1,C=4"), "bound --kernel LC --warps 100000 --sigma L=1,C=4",
     "warps=100000 is more than the ", "--warps 100000 is more than the "),
    (lambda: warpspan.bound("LC", 4, "L=1,C=4,S=0"), "bound --kernel LC --warps 4 --sigma L=1,C=4,S=0",
     "sigma='S=0': sigma must be at least 1", "--sigma S=0: sigma must be at least 1"),
    (lambda: warpspan.dbf(data("tasks", "fig2_example.json"), block=96),
     "dbf " + data("tasks", "fig2_example.json") + " --block 96",
     "block= must be a power of two from 32 to 1024, got 96", "--block must be a power of two from 32 to 1024, got 96"),
    (lambda: warpspan.dbf(data("tasks", "fig2_example.json"), max_table_mib=0),
     "dbf " + data("tasks", "fig2_example.json") + " --max-table-mib 0",
     "max_table_mib= must be from 1 to 2^40", "--max-table-mib must be from 1 to 2^40"),
    (lambda: warpspan.dbf_sweep(data("tasks", "fig2_example.json"), "wcet:1:2"),
     "dbf " + data("tasks", "fig2_example.json") + " --sweep wcet:1:2",
     "sweep='wcet:1:2': expected KIND:FROM:TO:STEPS[:TASK]", "--sweep 'wcet:1:2': expected KIND:FROM:TO:STEPS[:TASK]"),
    (lambda: warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), classes="zz"),
     "kernel --ptx " + data("kernels", "voronoi_fig11.ptx") + " --ptx-map zz",
     "classes: 'zz' has no '='", "--ptx-map: 'zz' has no '='"),
    (lambda: warpspan.wcet(data("wcet", "fig1.cfg.json"), data("wcet", "fig1.trace"), loop_bounds={"b9": 1}),
     "wcet --cfg " + data("wcet", "fig1.cfg.json") + " --trace " + data("wcet", "fig1.trace") + " --loop-bound b9=1",
     "loop_bounds: 'b9' is not the header", "--loop-bound: 'b9' is not the header"),
    (lambda: warpspan.inputs("bisect", atom_threads=1), "inputs --kernel bisect --atom-threads 1",
     "atom_threads= must be between 2 and 64", "--atom-threads must be between 2 and 64"),
])
def test_library_errors_in_python_words(call, args, python, option):
    with pytest.raises(warpspan.InputError) as e:
        call()
    assert str(e.value).startswith(python), str(e.value)
    assert not OPTION.search(str(e.value)), str(e.value)
    assert cli_message(args).startswith(option)


def test_a_missing_cuda_backend_is_said_in_python_words():
    if warpspan.cuda_compiled():
        pytest.skip("this build has the CUDA backend")
    with pytest.raises(warpspan.InputError) as e:
        warpspan.estimate("LC", 4, "L=1,C=1", backend="cuda")
    assert str(e.value) == ("backend='cuda': this build has no CUDA backend (built without nvcc); use backend='cpu' "
                            "or auto")
    assert cli_message("estimate --kernel LC --warps 4 --sigma L=1,C=1 --backend cuda") == (
        "--backend cuda: this build has no CUDA backend (built without nvcc); use --backend cpu or auto")


def test_invalid_task_dict():
    bad = {"tasks": [{"name": "t", "period": 10, "vertices": [], "edges": []}]}
    with pytest.raises(warpspan.InputError, match="t"):
        warpspan.dbf(bad)
    with pytest.raises(warpspan.InputError, match=r"taskset\[1\]"):
        warpspan.dbf_batch([data("tasks", "fig2_example.json"), bad])
    with pytest.raises(TypeError):
        warpspan.dbf(42)


def test_ctrl_c_interrupts_a_long_estimate():
    """SIGINT during a long estimate: KeyboardInterrupt within a fraction of a second."""
    assert_ctrl_c_interrupts("warpspan.estimate('5L9C2L9C', 32, 'L=1,C=4', iterations=10**9, threads=1, exact_seconds=0)")
