"""warpspan for Python: the analyses of the ``warpspan`` command line, from the same library.

Names and defaults are the CLI's (``--exact-seconds`` is ``exact_seconds=2.0``, ``--sm`` is ``sm=``,
...). Results are small classes with attributes and ``to_dict()``; arrays are numpy arrays. Bad
input raises :class:`InputError` (a ``ValueError``) with the CLI's message. Long analyses release
the GIL and stop on Ctrl-C (``KeyboardInterrupt``).

    >>> import warpspan
    >>> warpspan.bound("5L9C2L9C", 16, "L=1,C=4").pessimistic
    184
"""

import json
import os

import numpy as np

from . import _core
from ._core import InputError, NotCompiledError, ValidationError

__version__ = _core.__version__

__all__ = [
    "InputError", "NotCompiledError", "ValidationError", "Result", "EstimateResult", "ExactResult",
    "BoundResult", "BuildResult", "Kernel", "DbfResult", "DbfVerdict", "estimate", "exact", "bound",
    "build", "sm_presets", "kernel_from_ptx", "dbf", "dbf_batch", "cuda_compiled", "WcetResult", "InputsResult",
    "wcet", "inputs",
]


def _plain(value):
    """numpy arrays and nested results as lists and dicts (what json.dumps takes)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Result):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Result:
    """Fields as attributes (the keys of the CLI's --json output); ``to_dict()`` gives them back
    with arrays as lists."""

    def __init__(self, fields):
        self.__dict__.update(fields)

    def to_dict(self):
        return {k: _plain(v) for k, v in self.__dict__.items()}

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()
                          if not isinstance(v, (np.ndarray, dict, list)) and k != "table")
        return f"{type(self).__name__}({shown})"


class EstimateResult(Result):
    """``best_makespan``, ``upper_bound``, ``envelope`` (n x 2: seconds, best), ``best_string``
    (1-based warp ids), ``cycles`` (W x I), ``warp_cycle_string``, ``table``, ``proven`` (dict or
    None), ``problem``, ..."""


class ExactResult(Result):
    """``complete``, ``makespan`` (None unless complete), ``lower``, ``upper``, ``best_string``,
    ``cycles``, ``table``, ``method``, ..."""


class BoundResult(Result):
    """``pessimistic``; with ``exact_up_to``: ``tractable``, ``tractable_y``, ``exact_T``, ``T``."""


class BuildResult(Result):
    """``makespan``, ``string``, ``cycles`` (W x I, 1-based), ``warp_cycle_string``, ``table``."""


class Kernel(Result):
    """A kernel read from PTX: ``kernel`` (run-length string; also ``str(k)``), ``plain``,
    ``instructions``, ``entry``, ``stop_reason``, ``trace`` (line, opcode, class)."""

    def __str__(self):
        return self.kernel


class DbfResult(Result):
    """One task set: ``schedulable``, ``utilization``, ``t_max``, ``first_violation``, ``at`` and
    ``total_dbf_at`` (numpy arrays), ``tasks`` (per task, ``dbf_at`` and the steps of dbf)."""


class DbfVerdict(Result):
    """One set of a batch: ``set``, ``schedulable``, ``utilization``, ``utilization_exact``,
    ``t_max``, ``checked_to``, ``first_violation``."""


class WcetResult(Result):
    """Hybrid WCET from traces: ``z_warp``, ``z_dynamic``, ``z_hybrid``, ``hwmt``, ``jitter``,
    ``waves``, ``warps_per_wave``, ``delta``, ``longest_wst``, ``overestimation_percent``,
    ``method``, ``tree``, ``runs``, ``warps``, ``ipoints``, ``edges`` (per IPG edge: from, to, wcet,
    count, seen, divergent, loop), ``divergent_edges``, ``loops``, ``probe_cost``."""


class InputsResult(Result):
    """A worst-case input search: ``best_fitness`` (in ``fitness_unit``), ``evaluations``,
    ``reached_at``, ``coverage`` (gdivan), ``method``, ``seed``, ``history`` (n x 2: evaluation,
    best), ``best_input`` (the raw input, numpy int32), ``atoms`` (gdivan), ``model``, ..."""


def _problem_args(kernel, warps, sigma, sm, schedulers):
    return (str(kernel), int(warps), sigma, sm, -1 if schedulers is None else _counts(schedulers=schedulers)[0])


def _counts(**options):
    """The values of options that cannot be negative, refused as the CLI refuses them."""
    for name, value in options.items():
        if int(value) < 0:
            raise InputError(f"--{name.replace('_', '-')}: must not be negative (got {int(value)})")
    return [int(v) for v in options.values()]


def estimate(kernel, warps, sigma=None, *, sm=None, schedulers=None, chains=0, iterations=200000, seconds=0.0,
             seed=1, t0=0.01, reach=0, init="mix", backend="auto", threads=0, validate=0, exact_seconds=2.0):
    """The worst-case makespan by simulated annealing (``warpspan estimate``)."""
    chains, iterations, seed, reach, validate = _counts(chains=chains, iterations=iterations, seed=seed, reach=reach,
                                                        validate=validate)
    return EstimateResult(_core.estimate(*_problem_args(kernel, warps, sigma, sm, schedulers), chains, iterations,
                                         seconds, seed, t0, reach, init, backend, threads, validate, exact_seconds))


def exact(kernel, warps, sigma=None, *, sm=None, schedulers=None, method="auto", constraints="short",
          backend="auto", time_limit=0.0, max_states=0, threads=0, prune=True):
    """The exact worst-case makespan, or the interval proven within the limits (``warpspan exact``)."""
    return ExactResult(_core.exact(*_problem_args(kernel, warps, sigma, sm, schedulers), method, constraints, backend,
                                   time_limit, max_states, threads, prune))


def bound(kernel, warps, sigma=None, *, sm=None, schedulers=None, exact_up_to=0, time_limit=0.0):
    """Upper bounds on the worst-case makespan (``warpspan bound``)."""
    return BoundResult(_core.bound(*_problem_args(kernel, warps, sigma, sm, schedulers), exact_up_to, time_limit))


def build(kernel, warps, sigma=None, string=None, *, sm=None, schedulers=None, init=None):
    """The schedule of one pseudo-precedence string (``warpspan build``): ``string`` is 1-based warp
    ids, as text ("1 1 2 2") or a sequence of ints; or ``init`` = rr, fp or mpwf (default rr)."""
    if string is not None and not isinstance(string, str):
        string = " ".join(str(int(w)) for w in string)
    return BuildResult(_core.build(*_problem_args(kernel, warps, sigma, sm, schedulers), string, init))


def sm_presets():
    """The SM presets compiled in: {name: the preset's JSON as a dict} (``warpspan sm --json``)."""
    return {name: json.loads(text) for name, text in _core.sm_presets()}


def kernel_from_ptx(path, *, lines=None, entry="", classes="", loops=1):
    """Imports a kernel from a PTX file (``warpspan kernel --ptx``): ``lines`` = (A, B) like
    ``--ptx-lines A:B``, ``entry`` like ``--ptx-entry``, ``classes`` like ``--ptx-map``, ``loops``
    like ``--ptx-loops`` (passes through each loop)."""
    return Kernel(_core.kernel_from_ptx(os.fspath(path), None if lines is None else tuple(lines), entry, classes,
                                        int(loops)))


def _source(taskset, index=None):
    if isinstance(taskset, (str, os.PathLike)):
        path = os.fspath(taskset)
        return _core._SetSource(path, True, path)
    if isinstance(taskset, dict):
        label = "taskset" if index is None else f"taskset[{index}]"
        return _core._SetSource(json.dumps(taskset), False, label)
    raise TypeError(f"a task set is a dict in the JSON task format or a path, not {type(taskset).__name__}")


def dbf(taskset, at=None, *, backend="auto", edf="qpa", threads=0, block=256, max_table_mib=8192):
    """The demand-bound functions of a task set and its EDF test (``warpspan dbf FILE``). ``taskset``:
    a dict in the JSON task format (data/tasks/README.md) or a path; ``at``: interval lengths t at
    which to report dbf (an int or a sequence; results as numpy arrays)."""
    if at is None:
        points = []
    else:
        points = [int(t) for t in np.atleast_1d(np.asarray(at)).ravel()]
        for t in points:
            if t < 0:
                raise InputError(f"--at: '{t}' is not an integer from 0 to 2^64 - 1 (expected e.g. --at 10,50,100)")
    block, max_table_mib = _counts(block=block, max_table_mib=max_table_mib)
    return DbfResult(_core.dbf(_source(taskset), points, backend, edf, threads, block, max_table_mib))


def dbf_batch(tasksets, *, backend="auto", edf="qpa", threads=0, block=256, max_table_mib=8192):
    """The EDF test of many task sets (``warpspan dbf --batch``), in one pass over the library:
    one :class:`DbfVerdict` per set, in order."""
    block, max_table_mib = _counts(block=block, max_table_mib=max_table_mib)
    sources = [_source(t, k) for k, t in enumerate(tasksets)]
    return [DbfVerdict(d) for d in _core.dbf_batch(sources, backend, edf, threads, block, max_table_mib)]


def cuda_compiled():
    """True when this build has the CUDA backend (whether or not a device is present)."""
    return _core.cuda_compiled()


def _traces(trace):
    """--trace: a path, trace text (a string with a newline) or a sequence of either."""
    items = [trace] if isinstance(trace, (str, os.PathLike)) else list(trace)
    out = []
    for k, t in enumerate(items):
        if isinstance(t, str) and "\n" in t:
            out.append(_core._TraceSource(t, False, "trace" if len(items) == 1 else f"trace[{k}]"))
        elif isinstance(t, (str, os.PathLike)):
            out.append(_core._TraceSource(os.fspath(t), True, os.fspath(t)))
        else:
            raise TypeError(f"a trace is a path or the trace's text, not {type(t).__name__}")
    return out


def wcet(cfg=None, trace=None, *, ptx=None, entry="", trace_format="auto", method="auto", loop_bounds=None,
         probe_cost=0):
    """Hybrid WCET of a GPU kernel from time-stamped traces (``warpspan wcet``): the program as CFG
    JSON (``cfg``, a path) or a PTX listing (``ptx``, with ``entry``); ``trace`` a path, the text of
    a trace or a list of them (``--trace``, repeatable); ``loop_bounds`` {CFG header block: N}
    (``--loop-bound HEADER=N``); ``probe_cost`` cycles or "auto"."""
    if trace is None:
        raise TypeError("wcet() needs trace= (a path, trace text or a list of them)")
    bounds = [f"{h}={n}" for h, n in (loop_bounds or {}).items()]
    return WcetResult(_core.wcet("" if cfg is None else os.fspath(cfg), "" if ptx is None else os.fspath(ptx),
                                 entry, _traces(trace), trace_format, method, bounds, str(probe_cost)))


def inputs(kernel, *, threads=None, method="gdivan", evaluations=2000, seed=1, fitness="model", sm="kepler-3.5",
           sms=1, population=100, patience=2, tolerance=0.0, atom_threads=8, atom_runs=400, jobs=0):
    """Searches for the inputs that make a GPU kernel slowest (``warpspan inputs``, GDivAn):
    ``kernel`` artificial, bfs, petri or bisect; ``threads`` default the kernel's."""
    r = _core._SearchRequest()
    r.kernel = str(kernel)
    r.method, r.fitness, r.sm = method, fitness, sm
    r.threads = None if threads is None else int(threads)
    r.evaluations, r.population, r.patience = int(evaluations), int(population), int(patience)
    r.atom_threads, r.atom_runs, r.sms, r.jobs = int(atom_threads), int(atom_runs), int(sms), int(jobs)
    r.seed = _counts(seed=seed)[0]
    r.tolerance = float(tolerance)
    return InputsResult(_core.inputs(r))
