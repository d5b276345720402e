#!/usr/bin/env python3
"""Prints the emulated bandwidth model (bench/results/current/gpu_model_emulated.json, from
warpspan_gpu_model) beside what warpspan_bench measured on a GPU (its --benchmark_format=json
output), row by row: annealing moves per second (items_per_second of BM_ChainsCuda and
BM_ChainsCudaOnChip), dbf cells per second (the cells/s counter of BM_DbfTable) and task sets per
second end to end (the sets/s counter of BM_DbfEndToEnd), and one table's kernel time in ms (the
kernel_ms counter of BM_DbfTableLaunch); then the on-chip dbf kernel's speed-up from its old plan to
its plan now (BM_DbfOnChipPlan), measured beside the latency model's.

    python3 bench/compare_model.py OUT/bench.json [--model bench/results/current/gpu_model_emulated.json]
                                   [--device "H100 SXM"] [--device-file OUT/device.txt]

bench/run_on_gpu.sh --run calls it last. The device defaults to the model's H100 SXM, or to its
A100 when the device file names an A100. Measured over predicted is how much of the bandwidth
bound the kernel reaches (above 1: caches served what the model charged to DRAM); for a time (ms)
it is the other way round (below 1: faster than predicted)."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measured_rows(bench, prefix, unit):
    """(run name, rate) for the benchmark runs whose name starts with prefix: the median aggregate
    where there is one, else the mean, else the mean of the iteration rows."""
    key = {"moves/s": "items_per_second", "sets/s": "sets/s", "ms": "kernel_ms"}.get(unit, "cells/s")
    runs = {}
    for b in bench.get("benchmarks", []):
        name = b.get("run_name", b.get("name", ""))
        if not name.startswith(prefix):
            continue
        r = runs.setdefault(name, {"median": None, "mean": None, "iterations": [], "error": None})
        if b.get("error_occurred"):
            r["error"] = b.get("error_message", "error")
            continue
        value = b.get(key)
        if value is None:
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") in ("median", "mean"):
                r[b["aggregate_name"]] = float(value)
        else:
            r["iterations"].append(float(value))
    out = []
    for name, r in sorted(runs.items()):
        if r["median"] is not None:
            out.append((name, r["median"], None))
        elif r["mean"] is not None:
            out.append((name, r["mean"], None))
        elif r["iterations"]:
            out.append((name, sum(r["iterations"]) / len(r["iterations"]), None))
        else:
            out.append((name, None, r["error"] or "no rate"))
    return out


def fmt(x):
    return "-" if x is None else f"{x:.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", help="warpspan_bench JSON (--benchmark_format=json --benchmark_out=...)")
    ap.add_argument("--model", default=os.path.join(HERE, "results", "current", "gpu_model_emulated.json"))
    ap.add_argument("--device", help="the model's device name (default: from --device-file, else H100 SXM)")
    ap.add_argument("--device-file", help="nvidia-smi output (run_on_gpu.sh's device.txt)")
    args = ap.parse_args()

    with open(args.model) as f:
        model = json.load(f)
    with open(args.bench) as f:
        bench = json.load(f)
    names = [d["name"] for d in model["devices"]]
    device = args.device
    if device is None:
        device = names[0]
        if args.device_file and os.path.exists(args.device_file):
            text = open(args.device_file, errors="replace").read()
            for n in names:
                if n.split()[0] in text:
                    device = n
                    break
    if device not in names:
        sys.exit(f"compare_model: no device {device!r} in the model (it has {', '.join(names)})")

    print(f"Measured on this GPU beside the emulated bandwidth model for the {device} "
          f"({os.path.relpath(args.model)}; {model['assumptions']})")
    print()
    print("| case | benchmark run | measured | predicted | measured / predicted | coalesced bound | "
          "DRAM bound, no caches | DRAM after the L2 | L2 bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in model["rows"]:
        p = row["predicted"][device]
        found = measured_rows(bench, row["bench_prefix"], row["unit"])
        if not found:
            found = [(row["bench_prefix"] + "*", None, "not in the benchmark output")]
        for name, rate, error in found:
            ratio = rate / p["predicted"] if rate is not None and p["predicted"] else None
            shown = f"{fmt(rate)} {row['unit']}" if rate is not None else f"({error})"
            print(f"| {row['name']} | {name} | {shown} | {fmt(p['predicted'])} | {fmt(ratio)} | "
                  f"{fmt(p['coalesced'])} | {fmt(p['dram_bound'])} | {fmt(p.get('dram_after_l2_bound'))} | "
                  f"{fmt(p.get('l2_bound'))} |")

    # The on-chip dbf kernel's latency model: the kernel as planned on 2026-11-27 against the plan now
    # (BM_DbfOnChipPlan/own:0 and own:1), the measured ratio beside the predicted one.
    plan = {r[0]: r[1] for r in measured_rows(bench, "BM_DbfOnChipPlan/", "ms") if r[1] is not None}
    old_ms = next((v for k, v in plan.items() if "own:0" in k), None)
    new_ms = next((v for k, v in plan.items() if "own:1" in k), None)
    row = next((r for r in model["rows"] if "path_clocks_per_table" in r), None)
    if row and old_ms and new_ms:
        predicted = row["path_clocks_per_table_as_on_the_h200"] / row["path_clocks_per_table"]
        print()
        print(f"The on-chip dbf kernel, 1,000 sets of 3 x 10 vertices: {old_ms:.3f} ms as planned on 2026-11-27, "
              f"{new_ms:.3f} ms as planned now ({row['threads_per_block']:.0f} threads a block): "
              f"{old_ms / new_ms:.2f}x measured, {predicted:.2f}x predicted by the latency model.")


if __name__ == "__main__":
    main()
