#!/usr/bin/env python3
"""Whole run == shards + merge (every build), and == mpirun -n K (MPI builds).

  compare.py shard BINARY SOURCE_DIR
  compare.py mpi BINARY SOURCE_DIR MPIEXEC RANKS [MPIEXEC_FLAGS...]

Compares estimate (everything but the timings), dbf --batch and --sweep (text and JSON, byte for
byte but the seconds), exact (answer, witness, states), and that bad input ends the job with one
line on stderr and exit code 2.
"""
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

MODE, BINARY, SOURCE = sys.argv[1], sys.argv[2], sys.argv[3]
MPI = sys.argv[4:] if MODE == "mpi" else []
failures = []


def run(args, launcher=()):
    p = subprocess.run(list(launcher) + [BINARY] + args, capture_output=True, text=True, cwd=SOURCE, timeout=300)
    return p.returncode, p.stdout, p.stderr


def mpirun():
    return [MPI[0], "-q", "-n", MPI[1]] + MPI[2:]


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


TIMINGS = ("elapsed_s", "setup_s", "envelope")


def without_timings(text):
    j = json.loads(text)
    for k in TIMINGS:
        j.pop(k, None)
    if isinstance(j.get("beam"), dict):
        j["beam"].pop("elapsed_s", None)
    return j


def seconds_blind(text):
    # the timings of dbf's summary: the text's seconds (and GPU kernels' share), the JSON end
    # record's elapsed_s and kernel_s
    text = re.sub(r"[0-9.e+-]+ s for all tables", "X s for all tables", text)
    text = re.sub(r"GPU kernels [0-9.e+-]+ s", "GPU kernels X s", text)
    return re.sub(r'"(elapsed_s|kernel_s)":(null|[0-9.e+-]+)', r'"\1":X', text)


def sharded(args, n, tmp):
    files = []
    for i in range(n):
        code, out, err = run(args + ["--shard", f"{i}/{n}"])
        if code not in (0, 1):
            return code, "", err
        path = os.path.join(tmp, f"shard{i}.json")
        with open(path, "w") as f:
            f.write(out)
        files.append(path)
    return run(["merge"] + files[::-1])


def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def rank_pid(job, rank):
    """The pid of rank `rank` of the job (a child of its mpirun, found by OMPI_COMM_WORLD_RANK), or None."""
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        if cmd and cmd[0] == BINARY.encode() and f"OMPI_COMM_WORLD_RANK={rank}".encode() in env \
                and parent_of(pid) == job.pid:
            return int(pid)
    return None


def catches(pid, sig):
    """Whether process `pid` has a handler for `sig` (its SigCgt mask in /proc)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except (OSError, ValueError):
        pass
    return False


def signal_one_rank(args, rank, sig, after):
    """Runs `args` under mpirun, sends `sig` to rank `rank` `after` seconds after that rank can take
    it (its handler installed, at the start of main, before MPI starts; it and the rank are waited
    for up to 60 s: on a loaded machine mpirun takes a while to start 3 ranks). A signal before a
    program's main runs has the default action whatever the program does.
    (exit code, stdout, seconds from the signal to the job's end)."""
    with tempfile.TemporaryFile("w+") as out:
        job = subprocess.Popen(mpirun() + [BINARY] + args, stdout=out, stderr=subprocess.DEVNULL, cwd=SOURCE)
        target = None
        deadline = time.monotonic() + 60
        while (target is None or not catches(target, sig)) and time.monotonic() < deadline and job.poll() is None:
            target = target or rank_pid(job, rank)
            time.sleep(0.02)
        time.sleep(after)
        start = time.monotonic()
        if target is not None:
            os.kill(target, sig)
        try:
            code = job.wait(timeout=60)
        except subprocess.TimeoutExpired:
            job.kill()
            code = job.wait()
        took = time.monotonic() - start
        out.seek(0)
        return (code if target is not None else -1), out.read(), took


def other(args, tmp):
    if MODE == "shard":
        return sharded(args, 3, tmp)
    return run(args, mpirun())


with tempfile.TemporaryDirectory() as tmp:
    batch = os.path.join(tmp, "sets.jsonl")
    subprocess.run([BINARY, "generate-tasks", "--sets", "30", "--utilization", "0.9", "--seed", "7", "--out", batch, "-q"],
                   check=True, capture_output=True)

    # estimate: bit-identical best, string, chain and iterations.
    for init in ("mix", "random"):
        est = ["estimate", "--kernel", "@data/kernels/voronoi.txt", "--warps", "12", "--sm", "fermi-2.0",
               "--iterations", "4000", "--chains", "7", "--seed", "11", "--init", init, "--threads", "1",
               "--exact-seconds", "0", "-q"]
        c1, o1, e1 = run(est + ["--json"])
        c2, o2, e2 = other(est + ([] if MODE == "shard" else ["--json"]), tmp)
        same = c1 == c2 == 0 and without_timings(o1) == without_timings(o2)
        check(f"estimate --init {init}", same, f"rc {c1} {c2}: {e2}\n{o1}\n{o2}")
        if same:
            check(f"estimate --init {init}: final best in the envelope",
                  json.loads(o2)["envelope"][-1][1] == json.loads(o1)["best_makespan"])

    # dbf --batch and --sweep: the same output, text and JSON, and the same exit code.
    cases = [
        ["dbf", "--batch", batch, "--check"],
        ["dbf", "--batch", "data/tasks/variants.jsonl", "--keep-going"],
        ["dbf", "data/tasks/fig2_example.json", "--sweep", "wcet:0.5:3:26"],
        ["dbf", "data/tasks/fig2_example.json", "--sweep", "period:0.4:1.2:17", "--check"],
    ]
    for case in cases:
        for fmt in ([], ["--json"]):
            args = case + fmt + ["--backend", "cpu", "-q"]
            c1, o1, e1 = run(args)
            c2, o2, e2 = other(args, tmp)
            check(" ".join(case[1:] + fmt), c1 == c2 and seconds_blind(o1) == seconds_blind(o2) and o1.strip(),
                  f"rc {c1} {c2}: {e2}\n--- whole\n{o1}\n--- other\n{o2}")

    if MODE == "mpi":
        # exact: answers, witnesses and state counts of one process. One process would take the dense
        # sweep where its table fits; a state limit asks it for the hash sweep, the one the ranks run.
        for extra in (["--max-states", "1000000000000"], ["--no-prune", "--max-states", "1000000000000"]):
            for kernel, warps in (("--kernel=@data/kernels/voronoi.txt", w) for w in ("4", "6")):
                args = ["exact", kernel, "--sm", "fermi-2.0", "--warps", warps, "--json", "-q", "--threads", "1"] + extra
                c1, o1, _ = run(args)
                c2, o2, e2 = run(args, mpirun())
                check(f"exact voronoi W={warps} {' '.join(extra)}", c1 == c2 == 0 and without_timings(o1) == without_timings(o2), e2)
            args = ["exact", "--kernel", "5L9C2L9C", "--sigma", "L=1,C=4", "--warps", "5", "--json", "-q", "--threads", "1"] + extra
            c1, o1, _ = run(args)
            c2, o2, e2 = run(args, mpirun())
            check(f"exact 5L9C2L9C W=5 {' '.join(extra)}", c1 == c2 == 0 and without_timings(o1) == without_timings(o2), e2)
        # The dense sweep of one process and the ranks' hash sweep: the same answer.
        args = ["exact", "--kernel", "5L9C2L9C", "--sigma", "L=1,C=4", "--warps", "6", "--json", "-q", "--threads", "1"]
        c1, o1, _ = run(args)
        c2, o2, e2 = run(args, mpirun())
        check("exact dense (one process) == sweep (ranks)", c1 == c2 == 0 and json.loads(o1)["algorithm"] == "dense"
              and json.loads(o2)["algorithm"] == "sweep" and json.loads(o1)["makespan"] == json.loads(o2)["makespan"] == 67, e2)
        # A sweep stopped by the state limit proves the same interval (the held states' bound, agreed).
        args = ["exact", "--kernel", "5L9C2L9C", "--sigma", "L=1,C=4", "--warps", "6", "--json", "-q", "--threads", "1",
                "--max-states", "50000"]
        c1, o1, _ = run(args)
        c2, o2, e2 = run(args, mpirun())
        check("exact stopped by --max-states", c1 == c2 == 0 and without_timings(o1) == without_timings(o2)
              and not json.loads(o1)["complete"], e2)
        # A signal to one rank (a scheduler's, or `kill PID`) stops every rank: rank 0 prints the result
        # marked interrupted (not time limited), and the job exits 130; in an estimate (agreed every
        # round) and in a dbf --batch, whose ranks analyse their sets without talking until the end.
        big = os.path.join(tmp, "big.jsonl")
        with open(batch) as f:
            sets = f.read()
        with open(big, "w") as f:
            f.write(sets * 20000)
        long_runs = (
            ("estimate", ["estimate", "--kernel", "5L9C2L9C", "--warps", "8", "--sigma", "L=1,C=4", "--iterations",
                          "1000000000", "--chains", "6", "--threads", "1", "--exact-seconds", "0", "--json", "-q"]),
            ("dbf --batch", ["dbf", "--batch", big, "--backend", "cpu", "--threads", "1", "--json", "-q"]),
        )
        # Also at once, while the ranks start (MPI_Init): the signal waits for MPI to be up, then
        # counts as one later does (it used to kill the rank there, or leave the others waiting).
        for (name, args), after in itertools.product(long_runs, (3.0, 0.0)):
            code, out, took = signal_one_rank(args, 1, signal.SIGTERM, after)
            lines = out.strip().splitlines()
            last = json.loads(lines[-1]) if lines else {}
            check(f"SIGTERM to rank 1 of {name} after {after} s stops every rank", code == 130 and took < 10
                  and last.get("interrupted") is True and last.get("time_limited", False) is False,
                  f"rc {code} after {took:.1f} s, last line {lines[-1][:300] if lines else None!r}")
        # Errors: one line, the exit code of one process.
        for args in (["dbf", "--batch", "/no/such/dir"], ["estimate", "--kernel", "LC", "--warps", "2"],
                     ["dbf", "--batch", batch, "--shard", "0/2"]):
            code, out, err = run(args, mpirun())
            lines = [l for l in err.splitlines() if l.strip()]
            check("error " + " ".join(args), code == 2 and len(lines) == 1 and lines[0].startswith("warpspan: "),
                  f"rc {code}, stderr {err!r}")
    else:
        # Shard and merge mistakes are input errors.
        est = ["estimate", "--kernel", "LC", "--warps", "2", "--sm", "fermi-2.0", "--iterations", "10", "--chains", "4"]
        for bad in ("3/3", "1", "a/2", "-1/2"):
            code, _, err = run(est + ["--shard", bad])
            check(f"--shard {bad} refused", code == 2 and err.count("\n") == 1, err)
        code, _, err = run(est + ["--chains", "2", "--shard", "0/3"])
        check("fewer chains than shards refused", code == 2, err)
        parts = []
        for i in range(2):
            path = os.path.join(tmp, f"e{i}.json")
            with open(path, "w") as f:
                f.write(run(est + ["--shard", f"{i}/2"])[1])
            parts.append(path)
        check("merge of one shard of two refused", run(["merge", parts[0]])[0] == 2)
        check("merge of a shard twice refused", run(["merge", parts[0], parts[0], parts[1]])[0] == 2)
        check("merge of two shards", run(["merge", parts[1], parts[0]])[0] == 0)
        code, _, err = run(["merge", batch])
        check("merge of a file that is no shard refused", code == 2 and err.count("\n") == 1, err)
        # Shards of runs that differ in any search setting are refused, the setting named.
        for flag, value in (("--t0", "0.3"), ("--reach", "3"), ("--init", "rr"), ("--seconds", "100"),
                            ("--iterations", "11"), ("--seed", "5")):
            path = os.path.join(tmp, "other.json")
            changed = est[:est.index(flag)] + [flag, value] + est[est.index(flag) + 2:] if flag in est else est + [flag, value]
            with open(path, "w") as f:
                f.write(run(changed + ["--shard", "1/2"])[1])
            code, _, err = run(["merge", parts[0], path])
            check(f"merge of shards differing in {flag} refused", code == 2 and err.count("\n") == 1
                  and (flag in err or flag[2:] in err), err)
        # Endless or huge input: refused with one line, never read into memory whole.
        code, _, err = run(["merge", "/dev/zero", "--max-mib", "16"])
        check("merge /dev/zero --max-mib 16 refused", code == 2 and err.count("\n") == 1, err)
        code, _, err = run(["merge", "/dev/zero"])
        check("merge /dev/zero refused", code == 2 and err.count("\n") == 1 and "/dev/zero" in err, err)
        # A dbf shard cut off (its last line lost, or cut to 3 lines) is named, exit 2, not 130.
        dbf_parts = []
        for i in range(2):
            path = os.path.join(tmp, f"d{i}.jsonl")
            with open(path, "w") as f:
                f.write(run(["dbf", "--batch", batch, "--backend", "cpu", "-q", "--shard", f"{i}/2"])[1])
            dbf_parts.append(path)
        check("merge of two dbf shards", run(["merge", dbf_parts[0], dbf_parts[1]])[0] == 0)
        with open(dbf_parts[1]) as f:
            lines = f.read().splitlines(keepends=True)
        for name, keep in (("its last line lost", lines[:-1]), ("cut to 3 lines", lines[:3])):
            cut = os.path.join(tmp, "cut.jsonl")
            with open(cut, "w") as f:
                f.write("".join(keep))
            code, _, err = run(["merge", dbf_parts[0], cut])
            check(f"merge of a dbf shard with {name} refused", code == 2 and err.count("\n") == 1 and "cut.jsonl" in err
                  and "incomplete" in err, f"rc {code}: {err}")

if failures:
    print(f"{len(failures)} failed: {failures}")
    sys.exit(1)
