"""Threads (issue 41): first calls at once from many threads before numpy is imported, and CBC's
solves from many threads. Each case runs in a fresh interpreter (numpy not yet imported there)."""
import json
import os
import subprocess
import sys

from conftest import cli_json, data

FIG2 = data("tasks", "fig2_example.json")
FIG4 = (data("wcet", "fig4.cfg.json"), data("wcet", "fig4.trace"))


def run_script(body):
    """Runs `body` after `import warpspan` in a fresh Python; returns (stdout, stderr)."""
    script = "import json, sys, threading\nimport warpspan\n" + body
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=os.environ)
    assert p.returncode == 0, p.stderr
    return p.stdout, p.stderr


def test_first_calls_from_12_threads_before_numpy_is_imported():
    """The lazy import of numpy raced: 11 of 12 threads saw a partially initialised numpy, also in
    wcet and dbf_batch, which need none."""
    out, _ = run_script(f"""
assert "numpy" not in sys.modules
calls = [lambda: int(warpspan.dbf({FIG2!r}, at=[10, 14]).total_dbf_at[1]),
         lambda: warpspan.dbf_batch([{FIG2!r}])[0].schedulable,
         lambda: warpspan.wcet({FIG4[0]!r}, {FIG4[1]!r}).z_hybrid,
         lambda: int(warpspan.bound("LC", 4, "L=1,C=1").pessimistic)]
barrier = threading.Barrier(12)
results = [None] * 12
def work(k):
    barrier.wait()
    try:
        results[k] = calls[k % 4]()
    except Exception as e:
        results[k] = "error: " + repr(e)
threads = [threading.Thread(target=work, args=(k,)) for k in range(12)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(results))
""")
    results = json.loads(out)
    c = cli_json(f"dbf {FIG2} --at 14 --json")
    w = cli_json(f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --json")
    b = cli_json("bound --kernel LC --warps 4 --sigma L=1,C=1 --json")
    expected = [c["total_dbf_at"]["14"], c["schedulable"], w["z_hybrid"], b["pessimistic"]]
    assert results == [expected[k % 4] for k in range(12)]


def test_functions_without_arrays_do_not_import_numpy():
    out, _ = run_script(f"""
warpspan.dbf_batch([{FIG2!r}])
warpspan.wcet({FIG4[0]!r}, {FIG4[1]!r})
warpspan.dbf_sweep({FIG2!r}, "wcet:1:2:3")
print("numpy" in sys.modules)
""")
    assert out.strip() == "False"


def test_cbc_from_16_threads_is_serialised_and_quiet():
    """CBC is not thread-safe: concurrent wcet calls failed now and then ("CBC found no optimal
    solution (status -1)") and concurrent ILPs printed CBC's prompt on stdout. 16 threads, 13 wcet
    ILPs each, and 16 exact ILPs: every answer the one of a single call, nothing else on stdout."""
    w = cli_json(f"wcet --cfg {FIG4[0]} --trace {FIG4[1]} --method ilp --json")
    x = cli_json("exact --kernel LCL --warps 3 --sigma L=1,C=1 --method ilp --json")
    out, _ = run_script(f"""
barrier = threading.Barrier(16)
results = [[] for _ in range(16)]
def work(k):
    barrier.wait()
    for _ in range(13):
        try:
            results[k].append(warpspan.wcet({FIG4[0]!r}, {FIG4[1]!r}, method="ilp").z_hybrid)
        except Exception as e:
            results[k].append("error: " + repr(e))
    try:
        results[k].append(warpspan.exact("LCL", 3, "L=1,C=1", method="ilp").makespan)
    except Exception as e:
        results[k].append("error: " + repr(e))
threads = [threading.Thread(target=work, args=(k,)) for k in range(16)]
for t in threads: t.start()
for t in threads: t.join()
sys.stdout.flush()
print("RESULTS " + json.dumps(results))
""")
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("RESULTS "), out[:2000]
    assert json.loads(lines[0][len("RESULTS "):]) == [[w["z_hybrid"]] * 13 + [x["makespan"]]] * 16
