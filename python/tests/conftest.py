"""Shared helpers: the CLI binary of the same build (WARPSPAN_BINARY, set by ctest) and data/."""
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("WARPSPAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("WARPSPAN_BINARY", str(SOURCE_DIR / "build" / "warpspan"))


def data(*parts):
    return str(SOURCE_DIR.joinpath("data", *parts))


def cli(args, expect=0):
    """Runs `warpspan ARGS`; returns (exit code, stdout, stderr)."""
    argv = [BINARY] + (shlex.split(args) if isinstance(args, str) else list(args))
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if expect is not None:
        assert p.returncode == expect, f"{argv}: exit {p.returncode}\n{p.stderr}"
    return p.returncode, p.stdout, p.stderr


def cli_json(args, expect_code=0):
    return json.loads(cli(args, expect=expect_code)[1])


def batch_records(out):
    """The set lines of a complete `dbf --batch --json` stream; its last line must be the end record
    {"end": true, "sets": N, ...} with N the sets before it (docs/schedulability.md)."""
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert lines and lines[-1].get("end") is True, f"no end record: {out[-300:]}"
    assert lines[-1]["sets"] == len(lines) - 1
    return lines[:-1]


@pytest.fixture(scope="session", autouse=True)
def binary_present():
    if not os.access(BINARY, os.X_OK):
        pytest.fail(f"no warpspan binary at {BINARY} (set WARPSPAN_BINARY or build first)")


def assert_ctrl_c_interrupts(call):
    """Runs `call` (Python source of one long warpspan call) in a subprocess, sends SIGINT after a
    second, and checks that KeyboardInterrupt arrives within 10 s."""
    import signal
    import sys
    import time

    script = (
        "import time, warpspan\n"
        "print('start', flush=True)\n"
        "t = time.time()\n"
        "try:\n"
        f"    {call}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted %.2f' % (time.time() - t), flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=os.environ)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    # KeyboardInterrupt, caught by the script, or (1 run in about 15 on a loaded machine, with a
    # loop of calls) escaping the script's own `except` and ending Python by SIGINT after its
    # traceback: either way the call stopped on Ctrl-C with KeyboardInterrupt.
    escaped = p.returncode == -signal.SIGINT and err.rstrip().endswith("KeyboardInterrupt")
    assert out.startswith("interrupted") or escaped, (out, err[-2000:])
    assert time.time() - sent < 10
