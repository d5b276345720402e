"""dbf and dbf_batch give the CLI's answers on the paper's example and the shipped variants."""
import json

import numpy as np

import warpspan
from conftest import assert_ctrl_c_interrupts, batch_records, cli, cli_json, data

FIG2 = data("tasks", "fig2_example.json")


def test_dbf_fig2_matches_cli_from_path_and_dict():
    at = [0, 5, 10, 20, 50, 100, 1000]
    c = cli_json(f"dbf {FIG2} --at {','.join(map(str, at))} --json --backend cpu")
    with open(FIG2) as f:
        as_dict = json.load(f)
    for source in (FIG2, as_dict):
        r = warpspan.dbf(source, at=at, backend="cpu")
        assert r.schedulable == c["schedulable"]
        assert r.utilization_exact == c["utilization_exact"]
        assert (r.t_max, r.checked_to, r.first_violation, r.hyperperiod) == (
            c["t_max"], c["checked_to"], c["first_violation"], c["hyperperiod"])
        assert isinstance(r.total_dbf_at, np.ndarray)
        assert r.total_dbf_at.tolist() == [c["total_dbf_at"][str(t)] for t in at]
        assert r.tasks[0]["dbf_at"].tolist() == [c["tasks"][0]["dbf_at"][str(t)] for t in at]
        assert r.tasks[0]["E"] == c["tasks"][0]["E"]


def test_dbf_many_points_as_numpy():
    t = np.arange(0, 500)
    r = warpspan.dbf(FIG2, at=t)
    assert r.total_dbf_at.shape == t.shape
    assert np.all(np.diff(r.total_dbf_at.astype(np.int64)) >= 0)  # dbf never decreases


def test_overloaded_matches_cli():
    path = data("tasks", "overloaded.json")
    c = cli_json(f"dbf {path} --json")
    r = warpspan.dbf(path)
    assert not r.schedulable and r.schedulable == c["schedulable"]
    assert r.first_violation == c["first_violation"]


def test_batch_matches_cli_batch():
    path = data("tasks", "variants.jsonl")
    with open(path) as f:
        sets = [json.loads(line) for line in f if line.strip()]
    lines = batch_records(cli(f"dbf --batch {path} --json")[1])
    got = warpspan.dbf_batch(sets)
    assert len(got) == len(sets) == len(lines)
    keys = ["schedulable", "utilization_exact", "t_max", "checked_to", "first_violation"]
    for g, c in zip(got, lines):
        assert {k: getattr(g, k) for k in keys} == {k: c[k] for k in keys}
    assert got[3].set == "taskset[3]"


def test_batch_of_1000_generated_sets_matches_cli(tmp_path):
    out = tmp_path / "sets.jsonl"
    cli(f"generate-tasks --sets 1000 --tasks 3 --vertices 5 --utilization 0.9 --seed 3 --out {out}")
    sets = [json.loads(line) for line in out.read_text().splitlines()]
    got = warpspan.dbf_batch(sets, backend="cpu")
    lines = batch_records(cli(f"dbf --batch {out} --json --backend cpu", expect=None)[1])
    assert [g.schedulable for g in got] == [c["schedulable"] for c in lines]
    assert [g.first_violation for g in got] == [c["first_violation"] for c in lines]
    assert got[0].to_dict()["set"] == "taskset[0]"


def test_dbf_at_many_points_is_one_lookup_a_point_and_ctrl_c_stops_it():
    """Issue 41: dbf(at=) built a JSON object of the points with a linear search per key, quadratic
    in the points (1e5 points: 40 s, holding the GIL, Ctrl-C unheard). Values at 1e5 points (every
    one repeated once) equal the CLI's at a sample of them; then calls with 1e5 points one after
    another stop on SIGINT with KeyboardInterrupt within the conftest's limit."""
    n = 100000
    points = list(range(n)) + list(range(n - 1, -1, -1))
    r = warpspan.dbf(FIG2, at=points, backend="cpu")
    sample = [0, 1, 7, 99, 1000, 31337, n - 1]
    c = cli_json(f"dbf {FIG2} --at {','.join(map(str, sample))} --json --backend cpu")
    assert r.at.tolist() == points
    for t in sample:
        assert r.total_dbf_at[t] == r.total_dbf_at[2 * n - 1 - t] == c["total_dbf_at"][str(t)]
        assert r.tasks[0]["dbf_at"][t] == c["tasks"][0]["dbf_at"][str(t)]
    assert_ctrl_c_interrupts(f"while True: warpspan.dbf({FIG2!r}, at=range({n}), backend='cpu')")


def test_cli_dbf_json_keeps_one_key_per_point():
    c = cli_json(f"dbf {FIG2} --at 50,10,50,0,10 --json --backend cpu")
    assert sorted(c["total_dbf_at"], key=int) == ["0", "10", "50"]
    assert sorted(c["tasks"][0]["dbf_at"], key=int) == ["0", "10", "50"]
    assert c["total_dbf_at"]["50"] == warpspan.dbf(FIG2, at=50).total_dbf_at[0]
