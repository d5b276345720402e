"""bench/plot_results.py's paper-003 modes on the committed H200 results: each SVG parses, holds the
expected series, and draws the numbers the benchmark JSON holds (no warpspan binary needed)."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

from conftest import SOURCE_DIR

SCRIPT = SOURCE_DIR / "bench" / "plot_results.py"
RESULTS = SOURCE_DIR / "bench" / "results" / "current" / "gpu_h200_2026-11-27"
NS = "{http://www.w3.org/2000/svg}"


def run(tmp_path, mode, json_name, *extra):
    svg, md = tmp_path / f"{mode}.svg", tmp_path / f"{mode}.md"
    subprocess.run([sys.executable, str(SCRIPT), mode, str(RESULTS / json_name), str(svg), "--md", str(md), *extra],
                   check=True, capture_output=True, text=True, timeout=60)
    root = ET.parse(svg).getroot()
    assert root.tag == NS + "svg"
    drawn = {}
    for el in root.iter():
        if el.get("data-value") is not None:
            drawn[(el.get("data-series"), el.get("data-group") or el.get("data-x"))] = float(el.get("data-value"))
    return drawn, md.read_text()


def benchmarks(json_name):
    with open(RESULTS / json_name) as f:
        return [b for b in json.load(f)["benchmarks"] if b.get("run_type") != "aggregate" or b.get("aggregate_name") == "median"]


def close(a, b):
    return abs(a - b) <= 1e-4 * abs(b)


def test_table1_draws_the_median_times(tmp_path):
    drawn, md = run(tmp_path, "dbf-table1", "bench.json", "--paper")
    names = ["cpu", "cpu-parallel", "cuda", "cuda-sm"]
    expected = {}
    for b in benchmarks("bench.json"):
        if b["name"].startswith("BM_DbfTable/") and "/block:256/" in b["name"]:
            backend = int(b["name"].split("backend:")[1][0])
            vertices = b["name"].split("vertices:")[1].split("/")[0]
            expected[(names[backend], vertices)] = b["kernel_ms"] if backend >= 2 else b["real_time"]
    assert len(expected) == 20
    for key, value in expected.items():
        assert close(drawn[key], value), (key, drawn.get(key), value)
    assert close(drawn[("paper GPU-SM", "50")], 1496.557251)
    assert "| 50 | 100 x 193,338 |" in md and "Paper 003, Table I" in md


def test_data_home_draws_kernel_times_cached_and_uncached(tmp_path):
    drawn, md = run(tmp_path, "dbf-home", "bench_dbf_home.json", "--uncached", str(RESULTS / "bench_uncached.json"))
    for json_name, tag in (("bench_dbf_home.json", "cached"), ("bench_uncached.json", "uncached")):
        rows = [b for b in benchmarks(json_name) if b["name"].startswith("BM_DbfPredecessors/")]
        assert len(rows) == 25
        for b in rows:
            key = (f"{b['label']}, {tag}", f"{b['predecessors']:g}")
            assert close(drawn[key], b["kernel_ms"]), (key, drawn.get(key), b["kernel_ms"])
    assert "## loads past L1 (-dlcm=cg)" in md


def test_sets_draws_sets_per_second(tmp_path):
    drawn, md = run(tmp_path, "dbf-sets", "bench_dbf_home.json")
    rows = [b for b in benchmarks("bench_dbf_home.json") if b["name"].startswith(("BM_DbfBatch/", "BM_DbfEndToEnd/"))]
    assert len(rows) == 16
    for b in rows:
        kind = "tables only" if b["name"].startswith("BM_DbfBatch/") else "end to end"
        vertices = b["name"].split("vertices:")[1].split("/")[0]
        series = b["label"].split(",")[0]
        key = (series, f"{vertices} v., {kind}")
        assert close(drawn[key], b["sets/s"]), (key, drawn.get(key), b["sets/s"])
    assert "| 10 vertices, end to end |" in md
