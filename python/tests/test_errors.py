"""Bad input raises warpspan.InputError (a ValueError) with the CLI's message."""

import pytest

import warpspan
from conftest import assert_ctrl_c_interrupts, cli, data


def cli_message(args):
    code, _, err = cli(args, expect=2)
    assert err.startswith("warpspan: ")
    return err[len("warpspan: "):].strip().removesuffix(" (see warpspan --help)")  # CLI11's parse errors


@pytest.mark.parametrize("call, args", [
    (lambda: warpspan.bound("5L9X", 4, "L=1,C=4"), "bound --kernel 5L9X --warps 4 --sigma L=1,C=4"),
    (lambda: warpspan.bound("LC", 4), "bound --kernel LC --warps 4"),
    (lambda: warpspan.bound("LC", 0, "L=1,C=4"), "bound --kernel LC --warps 0 --sigma L=1,C=4"),
    (lambda: warpspan.bound("LC", 4, "L=1,Q=4"), "bound --kernel LC --warps 4 --sigma L=1,Q=4"),
    (lambda: warpspan.bound("LC", 4, sm="nosuch"), "bound --kernel LC --warps 4 --sm nosuch"),
    (lambda: warpspan.build("LCL", 2, "L=1,C=1", "1 2 2"), "build --kernel LCL --warps 2 --sigma L=1,C=1 --string '1 2 2'"),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", init="zz"), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --init zz"),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", chains=-1), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --chains -1"),
    (lambda: warpspan.estimate("LC", 4, "L=1,C=1", seed=-1), "estimate --kernel LC --warps 4 --sigma L=1,C=1 --seed -1"),
    (lambda: warpspan.inputs("bisect", seed=2**64), "inputs --kernel bisect --seed 18446744073709551616"),
    (lambda: warpspan.exact("LC", 4, "L=1,C=1", method="magic"), "exact --kernel LC --warps 4 --sigma L=1,C=1 --method magic"),
    (lambda: warpspan.dbf("/nonexistent.json"), "dbf /nonexistent.json"),
    (lambda: warpspan.dbf(data("tasks", "fig2_example.json"), backend="gpu"),
     "dbf " + data("tasks", "fig2_example.json") + " --backend gpu"),
    (lambda: warpspan.kernel_from_ptx("/nonexistent.ptx"), "kernel --ptx /nonexistent.ptx"),
])
def test_same_message_as_cli(call, args):
    with pytest.raises(warpspan.InputError) as e:
        call()
    assert str(e.value) == cli_message(args)
    assert isinstance(e.value, ValueError)


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
