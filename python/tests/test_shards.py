"""Shards from Python (shard=) and warpspan.merge: the shards of a run merge into the whole run's
result, whichever face ran or merged them. A Python shard and a command-line shard of the same run
are interchangeable: the library writes and checks both."""
import json

import pytest

import warpspan
from conftest import cli, cli_json, data

VORONOI = "5L9C2L9C"
EST = dict(chains=6, iterations=3000, seed=5, threads=1, exact_seconds=0)
EST_CLI = (f"estimate --kernel {VORONOI} --warps 8 --sigma L=1,C=4 --chains 6 --iterations 3000 --seed 5 "
           "--threads 1 --exact-seconds 0 -q")
BATCH = data("tasks", "variants.jsonl")
FIG2 = data("tasks", "fig2_example.json")
TIMES = {"elapsed_s", "setup_s", "envelope"}


def plain(result):
    return json.loads(json.dumps(result.to_dict(), default=lambda a: a.tolist()))


def without(d, keys):
    """`d` without `keys`, and its beam without its seconds."""
    out = {k: v for k, v in d.items() if k not in keys}
    if isinstance(out.get("beam"), dict):
        out["beam"] = without(out["beam"], {"elapsed_s"})
    return out


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_estimate_shards_merge_into_the_whole_run(tmp_path):
    whole = warpspan.estimate(VORONOI, 8, "L=1,C=4", **EST)
    parts = [warpspan.estimate(VORONOI, 8, "L=1,C=4", shard=(i, 3), **EST) for i in range(3)]
    assert [p.shard["index"] for p in parts] == [0, 1, 2]
    assert sum(p.iterations for p in parts) == whole.iterations  # every chain ran in exactly one shard
    merged = warpspan.merge(parts[::-1])  # any order
    assert isinstance(merged, warpspan.EstimateResult)
    assert without(plain(merged), TIMES) == without(plain(whole), TIMES)
    # The same shards as files, merged by the command line: the same result.
    files = [write(tmp_path, f"s{i}.json", p.shard_text) for i, p in enumerate(parts)]
    code, out, err = cli(["merge"] + files)
    assert code == 0, err
    assert without(json.loads(out), TIMES) == without(cli_json(EST_CLI + " --json"), TIMES)


def test_a_python_shard_and_a_cli_shard_of_one_run_merge(tmp_path):
    mine = warpspan.estimate(VORONOI, 8, "L=1,C=4", shard="0/2", **EST)
    theirs = write(tmp_path, "s1.json", cli(EST_CLI + " --shard 1/2")[1])
    merged = warpspan.merge([mine, theirs])
    whole = warpspan.estimate(VORONOI, 8, "L=1,C=4", **EST)
    assert merged.best_makespan == whole.best_makespan
    assert merged.best_string.tolist() == whole.best_string.tolist()
    assert merged.cycles.tolist() == whole.cycles.tolist()


def test_dbf_batch_shards_merge_into_the_whole_batch(tmp_path):
    whole = warpspan.dbf_batch(BATCH, backend="cpu")
    parts = [warpspan.dbf_batch(BATCH, backend="cpu", shard=(i, 3)) for i in range(3)]
    assert isinstance(parts[0], warpspan.DbfShard)
    assert sum(len(p.verdicts) for p in parts) == len(whole)
    merged = warpspan.merge(parts)
    assert [plain(v) for v in merged] == [plain(v) for v in whole]
    # The command line merges Python's shards into its own whole run, line for line (the end
    # record's seconds aside).
    files = [write(tmp_path, f"b{i}.jsonl", p.shard_text) for i, p in enumerate(parts)]
    code, out, err = cli(["merge"] + files)
    _, whole_out, _ = cli(["dbf", "--batch", BATCH, "--backend", "cpu", "--json", "-q"])
    assert code == 0, err
    lines, whole_lines = out.splitlines(), whole_out.splitlines()
    assert lines[:-1] == whole_lines[:-1]
    assert without(json.loads(lines[-1]), {"elapsed_s"}) == without(json.loads(whole_lines[-1]), {"elapsed_s"})
    # And Python merges the command line's shards.
    cli_files = [write(tmp_path, f"c{i}.jsonl",
                       cli(["dbf", "--batch", BATCH, "--backend", "cpu", "--json", "--shard", f"{i}/2"])[1])
                 for i in range(2)]
    assert [plain(v) for v in warpspan.merge(cli_files)] == [plain(v) for v in whole]


def test_dbf_sweep_shards_merge_into_the_whole_sweep():
    whole = warpspan.dbf_sweep(FIG2, "wcet:0.5:3:26", backend="cpu")
    parts = [warpspan.dbf_sweep(FIG2, "wcet:0.5:3:26", backend="cpu", shard=(i, 4)) for i in range(4)]
    merged = warpspan.merge(parts)
    assert isinstance(merged, warpspan.DbfSweep)
    assert merged.variants == whole.variants
    assert merged.summary == whole.summary
    assert merged.summary["critical_factor"] is not None


def test_merge_refuses_what_is_not_one_whole_run(tmp_path):
    parts = [warpspan.estimate(VORONOI, 8, "L=1,C=4", shard=(i, 2), **EST) for i in range(2)]
    with pytest.raises(warpspan.InputError, match="shard 1/2 is missing"):
        warpspan.merge(parts[:1])
    with pytest.raises(warpspan.InputError, match="given twice"):
        warpspan.merge([parts[0], parts[0], parts[1]])
    other = warpspan.estimate(VORONOI, 8, "L=1,C=4", shard=(1, 2), **dict(EST, seed=6))
    with pytest.raises(warpspan.InputError, match="different runs"):
        warpspan.merge([parts[0], other])
    altered = json.loads(parts[1].shard_text)
    altered["best_makespan"] += 1
    with pytest.raises(warpspan.InputError, match="the shard was altered"):
        warpspan.merge([parts[0], write(tmp_path, "altered.json", json.dumps(altered) + "\n")])
    # Text shards of the command line are its own to print.
    text = [write(tmp_path, f"t{i}.txt", cli(["dbf", "--batch", BATCH, "--shard", f"{i}/2", "-q"])[1]) for i in range(2)]
    with pytest.raises(warpspan.InputError, match="written as text"):
        warpspan.merge(text)
    with pytest.raises(warpspan.InputError, match="give the shards"):
        warpspan.merge([])


def test_shard_arguments_are_checked():
    with pytest.raises(warpspan.InputError, match="shard="):
        warpspan.estimate(VORONOI, 8, "L=1,C=4", shard="2/2", **EST)
    with pytest.raises(TypeError, match="shard must be"):
        warpspan.estimate(VORONOI, 8, "L=1,C=4", shard=[0, 2], **EST)
    with pytest.raises(TypeError, match="a path with shard="):
        warpspan.dbf_sweep({"tasks": []}, "wcet:0.5:3:26", shard=(0, 2))
    with pytest.raises(TypeError, match="one path with shard="):
        warpspan.dbf_batch([BATCH, BATCH], shard=(0, 2))
    with pytest.raises(TypeError, match="shards must be"):
        warpspan.merge("s0.json")
    with pytest.raises(TypeError, match=r"shards\[0\] must be"):
        warpspan.merge([warpspan.estimate(VORONOI, 8, "L=1,C=4", **EST)])
