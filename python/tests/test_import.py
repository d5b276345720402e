"""import warpspan needs no numpy (issue 21, item 23): only the functions that return arrays do, and
they say so; an interpreter that cannot load the extension is told which one it was built for."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import warpspan
from conftest import data

PACKAGE = Path(warpspan.__file__).resolve().parent


def run_python(script, env=None):
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, **(env or {})))
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_import_and_array_free_functions_without_numpy():
    """numpy made unimportable (sys.modules['numpy'] = None), as in a python3 without it."""
    out = run_python(
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "import warpspan\n"
        "assert sys.modules['numpy'] is None\n"
        f"print(warpspan.bound('5L9C2L9C', 16, 'L=1,C=4').pessimistic)\n"
        f"print(warpspan.wcet({data('wcet', 'fig4.cfg.json')!r}, {data('wcet', 'fig4.trace')!r}).z_hybrid)\n"
        f"print([v.schedulable for v in warpspan.dbf_batch([{data('tasks', 'fig2_example.json')!r}])])\n"
        "print(len(warpspan.sm_presets()) > 0, warpspan.cuda_compiled() in (True, False))\n"
        f"print(warpspan.kernel_from_ptx({data('kernels', 'voronoi_fig11.ptx')!r}, lines=(1, 66)))\n"
        "print(repr(warpspan.bound('LC', 2, 'L=1,C=1')).startswith('BoundResult('))\n"
        "print(warpspan.bound('LC', 2, 'L=1,C=1').to_dict()['pessimistic'] > 0)\n"
        "calls = {'estimate': lambda: warpspan.estimate('LC', 2, 'L=1,C=1', iterations=10, exact_seconds=0),\n"
        "         'exact': lambda: warpspan.exact('LC', 2, 'L=1,C=1'),\n"
        "         'bound': lambda: warpspan.bound('LC', 2, 'L=1,C=1', exact_up_to=1),\n"
        "         'build': lambda: warpspan.build('LC', 2, 'L=1,C=1'),\n"
        f"         'dbf': lambda: warpspan.dbf({data('tasks', 'fig2_example.json')!r}),\n"
        "         'inputs': lambda: warpspan.inputs('artificial', threads=64, evaluations=20, jobs=1)}\n"
        "for name, call in calls.items():\n"
        "    try:\n"
        "        call()\n"
        "        print(name, 'ran')\n"
        "    except ImportError as e:\n"
        "        assert f'warpspan.{name}() returns numpy arrays and needs numpy' in str(e), e\n"
        "        print(name, 'needs numpy')\n")
    lines = out.splitlines()
    assert lines[:7] == ["197", "38", "[True]", "True True", "5L9C2L9C", "True", "True"]
    assert lines[7:] == [f"{n} needs numpy" for n in ("estimate", "exact", "bound", "build", "dbf", "inputs")]


def test_another_interpreters_abi_names_the_one_it_was_built_for(tmp_path):
    """The package with its extension renamed to another ABI's file name, as another Python sees it."""
    copy = tmp_path / "warpspan"
    copy.mkdir()
    for f in PACKAGE.glob("*.py"):
        shutil.copy(f, copy / f.name)
    core = next(PACKAGE.glob("_core*.so"))
    (copy / "_core.cpython-299-x86_64-linux-gnu.so").symlink_to(core)
    p = subprocess.run([sys.executable, "-c", "import warpspan"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(tmp_path)), cwd=tmp_path)  # not the build tree's
    assert p.returncode != 0
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: warpspan's extension cannot be loaded by this Python"), p.stderr
    assert f"built for {warpspan.__python__} (Python " in last and "_core.cpython-299-x86_64-linux-gnu.so" in last
