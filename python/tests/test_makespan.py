"""The makespan functions give the CLI's answers (paper 000's figures and Voronoi)."""
import numpy as np
import pytest

import warpspan
from conftest import cli_json, data

VORONOI = "5L9C2L9C"


def test_build_reproduces_fig5():
    r = warpspan.build("LCL", 4, "L=1,C=1", "1 1 2 2 3 3 1 2 3 4 4 4")
    assert r.makespan == 9
    c = cli_json('build --kernel LCL --warps 4 --sigma L=1,C=1 --json --string "1 1 2 2 3 3 1 2 3 4 4 4"')
    assert r.makespan == c["makespan"]
    assert r.string.tolist() == c["string"]
    assert r.warp_cycle_string.tolist() == c["warp_cycle_string"]
    assert r.upper_bound == c["upper_bound"]
    assert r.cycles.shape == (4, 3)
    assert r.cycles.max() == 9
    # a sequence of ints works as well as the text
    assert warpspan.build("LCL", 4, "L=1,C=1", [1, 1, 2, 2, 3, 3, 1, 2, 3, 4, 4, 4]).makespan == 9


@pytest.mark.parametrize("init", ["rr", "fp", "mpwf", "starve", "beam"])
def test_build_constructed_strings_match_cli(init):
    r = warpspan.build(VORONOI, 8, "L=1,C=4", init=init)
    c = cli_json(f"build --kernel {VORONOI} --warps 8 --sigma L=1,C=4 --init {init} --json")
    assert (r.makespan, r.string.tolist()) == (c["makespan"], c["string"])


def test_bound_of_voronoi_is_197():
    r = warpspan.bound(VORONOI, 16, "L=1,C=4")
    assert r.pessimistic == 197
    assert r.pessimistic == cli_json(f"bound --kernel {VORONOI} --warps 16 --sigma L=1,C=4 --json")["pessimistic"]
    assert r.problem["kernel"] == VORONOI and r.problem["sigma"] == {"L": 1, "C": 4}


def test_bound_tractable_matches_cli():
    r = warpspan.bound(VORONOI, 6, "L=1,C=4", exact_up_to=3)
    c = cli_json(f"bound --kernel {VORONOI} --warps 6 --sigma L=1,C=4 --exact-up-to 3 --json")
    assert (r.tractable, r.tractable_y, r.exact_T.tolist()) == (c["tractable"], c["tractable_y"], c["exact_T"])


def test_exact_voronoi_w4_is_45():
    r = warpspan.exact(VORONOI, 4, "L=1,C=4")
    c = cli_json(f"exact --kernel {VORONOI} --warps 4 --sigma L=1,C=4 --json --quiet")
    assert r.complete and r.makespan == 45 == c["makespan"]
    assert (r.lower, r.upper, r.pessimistic) == (c["lower"], c["upper"], c["pessimistic"])
    # the witness builds to the makespan
    assert warpspan.build(VORONOI, 4, "L=1,C=4", r.best_string).makespan == 45
    assert r.cycles.shape == (4, r.problem["instructions"])


def test_estimate_matches_cli_seed_for_seed():
    args = dict(chains=4, iterations=3000, seed=7, threads=1, backend="cpu", exact_seconds=0)
    r = warpspan.estimate(VORONOI, 16, "L=1,C=4", **args)
    c = cli_json(f"estimate --kernel {VORONOI} --warps 16 --sigma L=1,C=4 --chains 4 --iterations 3000 --seed 7 "
                 "--threads 1 --backend cpu --exact-seconds 0 --json --quiet")
    assert r.best_makespan == c["best_makespan"]
    assert r.best_string.tolist() == c["best_string"]
    assert r.warp_cycle_string.tolist() == c["warp_cycle_string"]
    assert r.upper_bound == c["upper_bound"] == 197
    assert r.envelope.ndim == 2 and r.envelope.shape[1] == 2
    assert r.envelope[-1, 1] == r.best_makespan
    assert r.proven is None
    assert (r.safe_upper_bound, r.safe_upper_bound_from) == (c["safe_upper_bound"], c["safe_upper_bound_from"])
    d = r.to_dict()
    assert isinstance(d["envelope"], list) and d["best_makespan"] == r.best_makespan


def test_estimate_proves_an_interval():
    r = warpspan.estimate(VORONOI, 8, "L=1,C=4", chains=4, iterations=2000, threads=1, exact_seconds=1)
    assert r.proven["lower"] <= r.best_makespan <= r.proven["upper"]
    assert r.safe_upper_bound == min(r.proven["upper"], r.upper_bound)


def test_sm_presets_and_sm_option():
    presets = warpspan.sm_presets()
    names = {p["name"] if "name" in p else n for n, p in presets.items()}
    assert "fermi-2.0" in presets, names
    assert len(presets) == len(cli_json("sm --json"))
    r = warpspan.bound(VORONOI, 16, sm="fermi-2.0")
    assert r.pessimistic == cli_json(f"bound --kernel {VORONOI} --warps 16 --sm fermi-2.0 --json")["pessimistic"]


def test_kernel_from_ptx_is_voronoi():
    k = warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), lines=(1, 66))
    c = cli_json(f"kernel --ptx {data('kernels', 'voronoi_fig11.ptx')} --ptx-lines 1:66 --json")
    assert str(k) == k.kernel == c["kernel"] == VORONOI
    assert k.entry == c["entry"] and k.stop_reason == c["stop_reason"] and k.loops == c["loops"]
    whole = warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"))
    assert whole.kernel == "5L9C2L15CLC" and whole.loops == [{"head_line": 53, "back_line": 67, "passes": 1}]
    assert warpspan.bound(k, 16, "L=1,C=4").pessimistic == 197
    two = warpspan.kernel_from_ptx(data("kernels", "voronoi_fig11.ptx"), loops=2)
    c2 = cli_json(f"kernel --ptx {data('kernels', 'voronoi_fig11.ptx')} --ptx-loops 2 --json")
    assert two.kernel == c2["kernel"]


def test_barriers_and_blocks():
    # docs/makespan.md's worked example: every schedule of LCCBCL, W = 4, takes 12 cycles
    assert warpspan.exact("LCCBCL", 4, "L=1,C=4").makespan == 12
    b = warpspan.build("LBL", 4, "L=1", "1 2 1 2 1 2 3 4 3 4 3 4", block_warps=2)
    c = cli_json("build --kernel LBL --warps 4 --sigma L=1 --block-warps 2 --string '1 2 1 2 1 2 3 4 3 4 3 4' --json")
    assert b.makespan == c["makespan"]
    assert b.problem["block_warps"] == 2 and b.problem["barriers"] == 1
    # in one block of 4 the same string breaks the barrier: warp 1 goes on before warps 3 and 4
    with pytest.raises(warpspan.InputError, match="before warp 3 of its block has issued that barrier"):
        warpspan.build("LBL", 4, "L=1", "1 2 1 2 1 2 3 4 3 4 3 4")
    with pytest.raises(warpspan.InputError, match="block_warps=3 must divide"):
        warpspan.bound("LBL", 4, "L=1", block_warps=3)


def test_warp_kernels_give_the_cli_answers():
    # docs/makespan.md, "A path per warp": warp 1 runs LCL, warps 2 and 3 run CCL; worst case 6.
    groups = [("LCL", 1), ("CCL", 2)]
    r = warpspan.exact(warp_kernels=groups, sigma="L=1,C=1")
    c = cli_json("exact --warp-kernels LCL:1,CCL:2 --sigma L=1,C=1 --json")
    assert r.makespan == c["makespan"] == 6
    assert r.problem["warp_kernels"] == c["problem"]["warp_kernels"]
    assert [g["warps"] for g in r.problem["warp_kernels"]] == [1, 2]
    b = warpspan.build(warp_kernels=groups, sigma="L=1,C=1", string="1 2 2 2 3 3 1 3 1")
    assert b.makespan == 6 and b.warp_cycle_string.tolist() == [1, 1, 2, 3, 3, 4, 5, 5, 6]
    assert b.cycles.tolist() == [[1, 5, 6], [1, 2, 3], [3, 4, 5]]
    # cycles: a row per warp, as long as the longest warp's kernel, 0 past a warp's own
    assert warpspan.build(warp_kernels=[("LC", 1), ("L", 1)], sigma="L=1,C=1", init="rr").cycles.tolist() == [[1, 2], [2, 0]]
    assert warpspan.bound(warp_kernels=groups, sigma="L=1,C=1").pessimistic == 10
    e = warpspan.estimate(warp_kernels=groups, sigma="L=1,C=1", iterations=2000, chains=4)
    assert e.best_makespan == 6
    # One group of W warps is the one-kernel problem.
    assert warpspan.exact(warp_kernels=[("LCL", 4)], sigma="L=1,C=1").makespan == warpspan.exact("LCL", 4, "L=1,C=1").makespan


def test_warp_kernels_errors():
    with pytest.raises(warpspan.InputError, match="warp_kernels: group 2 has count 0"):
        warpspan.exact(warp_kernels=[("LCL", 1), ("CCL", 0)], sigma="L=1,C=1")
    with pytest.raises(warpspan.InputError, match="leave out kernel="):
        warpspan.exact("LCL", warp_kernels=[("LCL", 1)], sigma="L=1,C=1")
    with pytest.raises(warpspan.InputError, match="white space at position 4.*warp_kernels"):
        warpspan.exact("LCL CCL", 2, "L=1,C=1")
    with pytest.raises(warpspan.InputError, match="no group of warps"):
        warpspan.bound(warp_kernels=[], sigma="L=1,C=1")
    with pytest.raises(TypeError, match="warp_kernels must be a list of"):
        warpspan.bound(warp_kernels=3, sigma="L=1,C=1")
    # The spec as a string, as --warp-kernels and inputs()'s worst_block give it.
    assert warpspan.bound(warp_kernels="LCL:1,CCL:2", sigma="L=1,C=1").pessimistic == 10
    with pytest.raises(warpspan.InputError, match="group 2 'CCL' is not KERNEL:COUNT"):
        warpspan.bound(warp_kernels="LCL:1,CCL", sigma="L=1,C=1")
