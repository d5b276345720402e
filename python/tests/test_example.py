"""The example in python/examples runs, with and without matplotlib."""
import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "schedulability_sweep.py"


def run(tmp_path, extra_env=None):
    env = dict(os.environ, **(extra_env or {}))
    p = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_example_runs(tmp_path):
    out = run(tmp_path)
    assert "variants schedulable" in out
    try:
        import matplotlib  # noqa: F401
        assert (tmp_path / "schedulability_sweep.png").exists()
    except ImportError:
        assert "matplotlib not installed" in out


def test_example_runs_without_matplotlib(tmp_path):
    # A directory on the path whose matplotlib fails to import, as if it were missing.
    fake = tmp_path / "nomatplotlib"
    (fake / "matplotlib").mkdir(parents=True)
    (fake / "matplotlib" / "__init__.py").write_text("raise ImportError('hidden for the test')\n")
    path = os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")])
    out = run(tmp_path / "plots", {"PYTHONPATH": path})
    assert "matplotlib not installed" in out and "variants schedulable" in out
    assert not (tmp_path / "plots" / "schedulability_sweep.png").exists()
