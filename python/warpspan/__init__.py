"""warpspan for Python: the analyses of the ``warpspan`` command line, from the same library.

Names and defaults are the CLI's (``--exact-seconds`` is ``exact_seconds=2.0``, ``--sm`` is ``sm=``,
...). Results are small classes with attributes and ``to_dict()``; arrays are numpy arrays (numpy is
imported by the functions that return arrays, not by ``import warpspan``). Every argument is
checked: the wrong type (a float or a bool where an integer belongs, None where a string belongs,
...) raises ``TypeError`` naming the argument; a bad value raises :class:`InputError` (a
``ValueError``) with the CLI's message in Python's words (``warps=`` where the CLI says ``--warps``). Long analyses release the GIL and stop on Ctrl-C
(``KeyboardInterrupt``). ``__python__`` is the interpreter the extension was built for.

    >>> import warpspan
    >>> warpspan.bound("5L9C2L9C", 16, "L=1,C=4").pessimistic
    197
"""

import json
import numbers
import os
import sys
import threading
import warnings

try:
    from . import _build_info
except ImportError:  # a tree without the file CMake writes
    _build_info = None

#: The interpreter (and its version) the extension warpspan._core was built for (CMake's Python3_EXECUTABLE).
__python__ = getattr(_build_info, "PYTHON_EXECUTABLE", None)
_BUILT_FOR = __python__ if _build_info is None else f"{__python__} (Python {_build_info.PYTHON_VERSION})"


def _extension_missing(error):
    """The ImportError for an extension this interpreter cannot load, saying which one it was built for."""
    here = os.path.dirname(os.path.abspath(__file__))
    built = sorted(f for f in os.listdir(here) if f.startswith("_core"))
    return ImportError(
        f"warpspan's extension cannot be loaded by this Python, {sys.executable} (Python {sys.version.split()[0]}): "
        f"{error}. It was built for {_BUILT_FOR or 'another interpreter'} as {', '.join(built) or 'nothing'}; "
        "use that interpreter or rebuild with -DPython3_EXECUTABLE=...")


try:
    from . import _core
except ImportError as e:
    raise _extension_missing(e) from e
from ._core import InputError, NotCompiledError, ValidationError

__version__ = _core.__version__

__all__ = [
    "InputError", "NotCompiledError", "ValidationError", "Result", "EstimateResult", "ExactResult",
    "BoundResult", "BuildResult", "Kernel", "DbfResult", "DbfVerdict", "DbfSweep", "estimate", "exact", "bound",
    "build", "sm_presets", "kernel_from_ptx", "dbf", "dbf_batch", "dbf_sweep", "cuda_compiled", "WcetResult", "InputsResult",
    "wcet", "inputs", "DbfShard", "merge",
]

# ---------------------------------------------------------------------------------- arguments
# The ranges of the C++ types the arguments end in: a larger integer is refused by name here,
# before pybind11 would refuse it with a dump of the internal signature.
_INT32 = (-2**31, 2**31 - 1)
_UINT32 = (0, 2**32 - 1)
_INT64 = (-2**63, 2**63 - 1)
_UINT64 = (0, 2**64 - 1)


def _shown(value):
    """A value for a message: its type and, for simple values, the value (shortened)."""
    if value is None:
        return "None"
    if isinstance(value, (bool, numbers.Number, str, bytes)):
        text = repr(value)
        return f"{type(value).__name__} ({text if len(text) <= 40 else text[:37] + '...'})"
    return type(value).__name__


def _is_bool(value):
    """A bool or a numpy bool (numpy is loaded if such a value exists)."""
    if isinstance(value, bool):
        return True
    np = _loaded_numpy()
    return np is not None and isinstance(value, getattr(np, "bool_", ()))


def _is_int(value):
    """An int or a numpy integer scalar; not a bool, a float or a string."""
    return isinstance(value, numbers.Integral) and not _is_bool(value)


class _Args:
    """Checks the arguments of one call of warpspan.`function`: TypeError naming the argument and
    what it expects for the wrong type, InputError naming the argument for a value out of range."""

    def __init__(self, function):
        self.function = function

    def type_error(self, name, expected, value, hint=""):
        return TypeError(f"warpspan.{self.function}(): {name} must be {expected}, not {_shown(value)}{hint}")

    def int(self, name, value, lo, hi):
        """`value` as a Python int from lo to hi (the C++ type's range or the argument's)."""
        if not _is_int(value):
            raise self.type_error(name, "an integer", value)
        v = int(value)
        if not lo <= v <= hi:
            # the CLI's words for an option out of range (host/cli/options.cpp), naming the argument
            raise InputError(f"{name}: must be an integer from {lo} to {hi}, got '{v}'")
        return v

    def count(self, name, value, hi):
        """A count that cannot be negative (refused as the CLI refuses it) and fits a C++ type up to hi."""
        if _is_int(value) and int(value) < 0:
            # as the CLI says it for any unsigned option
            raise InputError(f"{name}: must be an integer from 0 to {_UINT64[1]}, got '{int(value)}'")
        return self.int(name, value, 0, hi)

    def seed(self, value):
        """A random seed: an integer from 0 to 2^64 - 1, the same in every function."""
        return self.int("seed", value, *_UINT64)

    def float(self, name, value):
        """A real number (an int does); not a bool or a string."""
        if not isinstance(value, numbers.Real) or _is_bool(value):
            raise self.type_error(name, "a number", value)
        return float(value)

    def bool(self, name, value):
        if not _is_bool(value):
            raise self.type_error(name, "True or False", value)
        return bool(value)

    def str(self, name, value, none=False):
        if value is None and none:
            return None
        if not isinstance(value, str):
            raise self.type_error(name, "a string" + (" or None" if none else ""), value)
        return self.text(name, value)

    def text(self, name, value):
        """A str that is valid Unicode: a lone surrogate (half of a pair, or a file name's undecodable
        byte as os.fsdecode keeps it) cannot become UTF-8 for the library."""
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InputError(f"{name}: not valid text: a lone surrogate {value[e.start]!r} at character {e.start} "
                             f"(warpspan takes UTF-8 text)") from None
        return value

    def path(self, name, value, what="a path (str or os.PathLike)", hint=""):
        """A file name: str, bytes or os.PathLike, as a str."""
        if not isinstance(value, (str, bytes, os.PathLike)):
            raise self.type_error(name, what, value, hint)
        return self.text(name, os.fsdecode(value))

    def shard(self, value):
        """shard=: None (the whole run), "I/N" or a pair (I, N) with 0 <= I < N, as "I/N" ("" for None)."""
        if value is None:
            return ""
        if isinstance(value, str):
            return self.text("shard", value)
        if isinstance(value, tuple) and len(value) == 2 and all(_is_int(v) for v in value):
            return f"{int(value[0])}/{int(value[1])}"
        raise self.type_error("shard", '"I/N" or a pair (I, N)', value)

    def kernel(self, value):
        """A kernel string ("5L9C2L9C") or a Kernel from kernel_from_ptx."""
        if isinstance(value, Kernel):
            return value.kernel
        return self.str("kernel", value)


_numpy_lock = threading.Lock()
_numpy_module = None  # numpy once _numpy() imported it whole


def _numpy(function):
    """numpy, for a function that returns arrays; a clear ImportError where it cannot be imported.
    The first import runs under a lock: threads that make their first calls at once would otherwise
    import numpy together and see it partially initialised."""
    global _numpy_module
    if _numpy_module is not None:
        return _numpy_module
    with _numpy_lock:
        if _numpy_module is None:
            try:
                import numpy
            except ImportError as e:
                raise ImportError(f"warpspan.{function}() returns numpy arrays and needs numpy, which this Python "
                                  f"({sys.executable}) cannot import ({e}); install numpy for it (Debian: "
                                  f"python3-numpy){'' if not __python__ else ' or use ' + __python__}") from None
            _core._numpy_ready()  # the extension's own look-up of numpy, once, here under the lock
            _numpy_module = numpy
    return _numpy_module


def _loaded_numpy():
    """numpy if it is imported whole (by _numpy() or by the caller), else None: a numpy still being
    imported by another thread has no complete types yet, and no value of them can exist."""
    np = _numpy_module or sys.modules.get("numpy")
    if np is None or getattr(getattr(np, "__spec__", None), "_initializing", False):
        return None
    return np


def _ndarray():
    """numpy's array type when numpy is loaded (no array exists before it is)."""
    return getattr(_loaded_numpy(), "ndarray", None)


# ---------------------------------------------------------------------------------- results
def _plain(value):
    """numpy arrays and nested results as lists and dicts (what json.dumps takes)."""
    ndarray = _ndarray()
    if ndarray is not None and isinstance(value, ndarray):
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
        skip = (dict, list) + ((_ndarray(),) if _ndarray() is not None else ())
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if not isinstance(v, skip) and k != "table")
        return f"{type(self).__name__}({shown})"


class EstimateResult(Result):
    """``best_makespan``, ``upper_bound``, ``envelope`` (n x 2: seconds, best), ``best_string``
    (1-based warp ids), ``cycles`` (W x I), ``warp_cycle_string``, ``table``, ``proven`` (dict or
    None), ``problem``, ..."""


class ExactResult(Result):
    """``complete``, ``makespan`` (None unless complete), ``lower``, ``upper``, ``best_string``,
    ``cycles``, ``table``, ``method``, ...; with ``at_most``: ``at_most_holds``."""


class BoundResult(Result):
    """``pessimistic`` (an upper bound on every work-conserving schedule), ``pessimistic_001`` (001
    Sec. 4's formula, not a bound in general); with ``exact_up_to``: ``tractable``, ``tractable_y``
    (001 eq. 42, an estimate, not a bound), ``exact_T``, ``T``."""


class BuildResult(Result):
    """``makespan``, ``string``, ``cycles`` (W x I, 1-based; with ``warp_kernels`` I is the longest
    warp's, 0 past a warp's own), ``warp_cycle_string``, ``table``."""


class Kernel(Result):
    """A kernel read from PTX: ``kernel`` (run-length string; also ``str(k)``), ``plain``,
    ``instructions``, ``entry``, ``stop_reason``, ``loops`` (every loop of the body: ``head_line``,
    ``back_line``, ``passes`` walked, 0 for one off the path), ``by_sm_rule`` (instructions the SM's PTX
    table counted), ``trace`` (line, opcode, class, what it runs as: a kernel string)."""

    def __str__(self):
        return self.kernel


class DbfResult(Result):
    """One task set: ``schedulable``, ``utilization``, ``t_max``, ``first_violation``, ``at`` and
    ``total_dbf_at`` (numpy arrays), ``tasks`` (per task, ``dbf_at`` and the steps of dbf)."""


class DbfVerdict(Result):
    """One set of a batch: ``set``, ``schedulable``, ``utilization``, ``utilization_exact``,
    ``t_max``, ``checked_to``, ``first_violation``."""


class DbfSweep(Result):
    """A sweep: ``variants`` (per variant, ``factor`` and its verdict, or ``error`` when the variant
    is outside the model), ``summary`` (``variants``, ``schedulable``, ``invalid``,
    ``critical_factor``, ``transitions``), ``elapsed_s`` (all tables and tests) and ``kernel_s``
    (the GPU kernels' share of it; None on the CPU)."""


class DbfShard(Result):
    """Shard I of N of a dbf batch or sweep (``shard=``): ``verdicts`` (a batch's sets k with k mod N
    = I, each as :func:`dbf_batch` gives it) or ``variants`` (a sweep's), and ``shard_text``: the
    JSON lines ``warpspan dbf ... --json --shard I/N`` prints, for :func:`merge` or
    ``warpspan merge`` (write it to a file)."""


class WcetResult(Result):
    """Hybrid WCET from traces: ``z_warp``, ``z_dynamic``, ``z_hybrid``, ``hwmt`` (per SM, also
    ``hwmt_per_sm``), ``hwmt_net`` (per SM, each warp's probes off its span: the warnings' side),
    ``hwmt_launch`` (the whole launch, None without one clock across SMs), ``clock``,
    ``overestimation_percent_launch``, ``visit_bounds``, ``jitter``,
    ``waves``, ``warps_per_wave``, ``delta``, ``longest_wst``, ``overestimation_percent``,
    ``method``, ``tree``, ``runs``, ``warps``, ``ipoints``, ``edges`` (per IPG edge: from, to, wcet,
    count, seen, divergent, loop), ``divergent_edges``, ``loops``, ``probe_cost``."""


class InputsResult(Result):
    """A worst-case input search: ``best_fitness`` (in ``fitness_unit``), ``evaluations``,
    ``reached_at``, ``coverage`` (gdivan), ``method``, ``seed``, ``history`` (n x 2: evaluation,
    best), ``best_input`` (the raw input, numpy int32), ``atoms`` (gdivan), ``model``, ``kernel`` and
    ``harness`` (the library's path, None for a built-in), ..."""


# ---------------------------------------------------------------------------------- makespan
def _warp_kernels(a, kernel, warps, warp_kernels):
    """kernel, warps and warp_kernels (a path per warp: (kernel, count) pairs, instead of kernel and
    warps) as _core takes them."""
    if warp_kernels is None:
        return a.kernel(kernel), a.int("warps", warps, *_INT64), None
    if kernel is not None or warps is not None:
        raise InputError("warp_kernels= gives every warp its kernel (W is the sum of the counts): leave out "
                         + ("kernel=" if kernel is not None else "warps="))
    if isinstance(warp_kernels, str):  # "K1:n1,K2:n2", as --warp-kernels and inputs()'s worst_block give it
        pairs = []
        for k, item in enumerate(a.str("warp_kernels", warp_kernels).split(",")):
            kernel_text, colon, count = item.rpartition(":")
            if not colon or not kernel_text or not count.isdigit():
                raise InputError(f"warp_kernels=: group {k + 1} '{item}' is not KERNEL:COUNT (e.g. LCL:3)")
            pairs.append((kernel_text, int(count)))
        warp_kernels = pairs
    if isinstance(warp_kernels, bytes) or not hasattr(warp_kernels, "__iter__"):
        raise a.type_error("warp_kernels", "a list of (kernel, count) pairs or a string K1:n1,K2:n2", warp_kernels)
    groups = []
    for k, pair in enumerate(warp_kernels):
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise a.type_error(f"warp_kernels[{k}]", "a pair (kernel, count)", pair)
        text = pair[0].kernel if isinstance(pair[0], Kernel) else a.str(f"warp_kernels[{k}][0]", pair[0])
        groups.append((text, a.int(f"warp_kernels[{k}][1]", pair[1], *_INT64)))
    return "", 0, groups


def _problem_args(a, kernel, warps, sigma, sm, schedulers, block_warps, warp_kernels=None):
    """kernel, warps, warp_kernels, sigma, sm, schedulers (-1: the SM's) and block_warps (0: one
    block of all the warps) as _core takes them."""
    return _warp_kernels(a, kernel, warps, warp_kernels) + (a.str("sigma", sigma, none=True),
            a.str("sm", sm, none=True), -1 if schedulers is None else a.count("schedulers", schedulers, _INT32[1]),
            0 if block_warps is None else a.int("block_warps", block_warps, *_INT64))


_ESTIMATE = _core.ESTIMATE_DEFAULTS  # the library's defaults (estimate_options, estimate_request)


def estimate(kernel=None, warps=None, sigma=None, *, warp_kernels=None, sm=None, schedulers=None, block_warps=None, chains=0,
             iterations=None, seconds=0.0, seed=_ESTIMATE["seed"], t0=_ESTIMATE["t0"], reach=_ESTIMATE["reach"],
             far_moves=_ESTIMATE["far_moves"], init="mix", backend="auto", threads=0, validate=0,
             exact_seconds=_ESTIMATE["exact_seconds"], beam_share=_ESTIMATE["beam_share"],
             beam_width=_ESTIMATE["beam_width"], shard=None):
    """The worst-case makespan by simulated annealing (``warpspan estimate``). ``warp_kernels``: a
    path per warp, a list of (kernel, count) pairs instead of ``kernel`` and ``warps``, as
    ``--warp-kernels`` (also for exact, bound and build). ``iterations`` per
    chain default 200,000; with ``seconds`` and no ``iterations`` the cooling follows the budget
    (``cooling_fitted_to_seconds``), as on the command line. The beam chains' string comes from a
    beam search: with ``seconds`` and no ``iterations``, one beam as wide as ``beam_share`` of the
    search's time (``seconds`` less the proven interval's) allows; else one beam of ``beam_width``
    (the result's ``beam``), narrowed if ``seconds`` is set and its share runs out. ``shard``: "I/N"
    or (I, N), run only the I-th of N slices of the chains (as ``--shard I/N``; the fixed cooling
    schedule, no proven interval): the result's ``shard_text`` is the line the command line prints,
    and :func:`merge` of the N results (or of files holding their ``shard_text``) is the whole run's."""
    a = _Args("estimate")
    args = _problem_args(a, kernel, warps, sigma, sm, schedulers, block_warps, warp_kernels) + (
        a.count("chains", chains, _UINT32[1]),
        None if iterations is None else a.count("iterations", iterations, _UINT64[1]),
        a.float("seconds", seconds), a.seed(seed), a.float("t0", t0), a.count("reach", reach, _UINT32[1]),
        a.float("far_moves", far_moves), a.str("init", init), a.str("backend", backend), a.int("threads", threads, *_INT32),
        a.count("validate", validate, _UINT32[1]), a.float("exact_seconds", exact_seconds),
        a.float("beam_share", beam_share), a.count("beam_width", beam_width, _UINT32[1]), a.shard(shard))
    _numpy("estimate")
    return EstimateResult(_core.estimate(*args))


def exact(kernel=None, warps=None, sigma=None, *, warp_kernels=None, sm=None, schedulers=None, block_warps=None, method="auto",
          constraints="short", backend="auto", time_limit=0.0, max_states=0, threads=0, prune=True,
          warm_start=_core.EXACT_WARM_START, at_most=0):
    """The exact worst-case makespan, or the interval proven within the limits (``warpspan exact``).
    ``warm_start``: annealing iterations per chain before the search (2 chains, seed 1; 0: none).
    ``at_most``: is the worst case at most this many cycles? ``at_most_holds`` answers it (True:
    proven, without the exact value; False: ``makespan`` is the exact worst case, longer)."""
    a = _Args("exact")
    args = _problem_args(a, kernel, warps, sigma, sm, schedulers, block_warps, warp_kernels) + (
        a.str("method", method), a.str("constraints", constraints), a.str("backend", backend),
        a.float("time_limit", time_limit), a.int("max_states", max_states, *_INT64),
        a.int("threads", threads, *_INT64), a.bool("prune", prune),
        a.count("warm_start", warm_start, _INT64[1]), a.count("at_most", at_most, 0xFFFFFFFF))
    _numpy("exact")
    return ExactResult(_core.exact(*args))


def bound(kernel=None, warps=None, sigma=None, *, warp_kernels=None, sm=None, schedulers=None, block_warps=None, exact_up_to=0, time_limit=0.0):
    """Upper bounds on the worst-case makespan (``warpspan bound``). Needs numpy only with
    ``exact_up_to`` (``exact_T`` is an array)."""
    a = _Args("bound")
    args = _problem_args(a, kernel, warps, sigma, sm, schedulers, block_warps, warp_kernels) + (
        a.int("exact_up_to", exact_up_to, *_INT64), a.float("time_limit", time_limit))
    if args[-2] > 0:
        _numpy("bound")
    return BoundResult(_core.bound(*args))


def build(kernel=None, warps=None, sigma=None, string=None, *, warp_kernels=None, sm=None, schedulers=None,
          block_warps=None, init=None):
    """The schedule of one pseudo-precedence string (``warpspan build``): ``string`` is 1-based warp
    ids, as text ("1 1 2 2") or a sequence of ints; or ``init`` = rr, fp, mpwf, starve or beam (default rr)."""
    a = _Args("build")
    args = _problem_args(a, kernel, warps, sigma, sm, schedulers, block_warps, warp_kernels)
    if string is not None and not isinstance(string, str):
        if not hasattr(string, "__iter__"):
            raise a.type_error("string", "the warp ids as text or a sequence of integers", string)
        string = " ".join(str(a.int(f"string[{k}]", w, *_INT64)) for k, w in enumerate(string))
    init = a.str("init", init, none=True)
    _numpy("build")
    return BuildResult(_core.build(*args, string, init))


def sm_presets():
    """The SM presets compiled in: {name: the preset's JSON as a dict} (``warpspan sm --json``)."""
    return {name: json.loads(text) for name, text in _core.sm_presets()}


def kernel_from_ptx(path, *, lines=None, entry="", classes="", loops=1, sm=""):
    """Imports a kernel from a PTX file (``warpspan kernel --ptx``): ``lines`` = (A, B) like
    ``--ptx-lines A:B``, ``entry`` like ``--ptx-entry``, ``classes`` like ``--ptx-map``, ``loops``
    like ``--ptx-loops`` (passes through each loop), ``sm`` like ``--sm``: a preset or file whose
    PTX table counts IEEE div/sqrt/rcp, integer division and constant reads as that SM runs them."""
    a = _Args("kernel_from_ptx")
    path = a.path("path", path)
    if lines is not None:
        if isinstance(lines, (str, bytes)) or not hasattr(lines, "__len__") or len(lines) != 2:
            raise a.type_error("lines", "a pair (A, B) of line numbers", lines)
        lines = tuple(a.int(f"lines[{k}]", v, *_INT32) for k, v in enumerate(lines))
    return Kernel(_core.kernel_from_ptx(path, lines, a.str("entry", entry), a.str("classes", classes),
                                        a.int("loops", loops, *_INT32), a.str("sm", sm)))


# ---------------------------------------------------------------------------------- dbf
def _source(a, name, taskset, label):
    """A task set for _core: a path (str, bytes or os.PathLike) or a dict in the JSON task format (named `label`)."""
    if isinstance(taskset, dict):
        return _core._SetSource(json.dumps(taskset), False, label)
    path = a.path(name, taskset, "a dict in the JSON task format or a path")
    return _core._SetSource(path, True, path)


def _dbf_options(a, backend, edf, threads, block, max_table_mib):
    return (a.str("backend", backend), a.str("edf", edf), a.int("threads", threads, *_INT64),
            a.count("block", block, _UINT32[1]), a.count("max_table_mib", max_table_mib, _UINT64[1]))


def _points(a, at):
    """--at: the interval lengths, each an integer from 0 to 2^64 - 1 (an int, a sequence or a numpy array)."""
    if at is None:
        return []
    if _is_int(at):
        values, one = [at], True
    elif isinstance(at, (str, bytes)) or not hasattr(at, "__iter__"):
        raise a.type_error("at", "an integer or a sequence of integers", at)
    else:
        if hasattr(at, "ravel") and hasattr(at, "tolist"):  # a numpy array: its elements as Python values
            at = at.ravel().tolist()
        values, one = at if isinstance(at, list) else list(at), False
    out = []
    for k, t in enumerate(values):  # one pass; a point's name is made only for a message
        if type(t) is not int and not _is_int(t):
            raise a.type_error("at" if one else f"at[{k}]", "an integer", t)
        t = int(t)
        if not 0 <= t < 2**64:
            raise InputError(f"{'at' if one else f'at[{k}]'}: '{t}' is not an integer from 0 to 2^64 - 1")
        out.append(t)
    return out


def dbf(taskset, at=None, *, backend="auto", edf="qpa", threads=0, block=_core.DBF_BLOCK,
        max_table_mib=_core.DBF_MAX_TABLE_MIB):
    """The demand-bound functions of a task set and its EDF test (``warpspan dbf FILE``). ``taskset``:
    a dict in the JSON task format (data/tasks/README.md) or a path; ``at``: interval lengths t at
    which to report dbf (an int or a sequence; results as numpy arrays)."""
    a = _Args("dbf")
    source = _source(a, "taskset", taskset, "taskset")
    points = _points(a, at)
    options = _dbf_options(a, backend, edf, threads, block, max_table_mib)
    _numpy("dbf")
    return DbfResult(_core.dbf(source, points, *options))


def dbf_sweep(taskset, sweep, *, backend="auto", edf="qpa", threads=0, block=_core.DBF_BLOCK,
              max_table_mib=_core.DBF_MAX_TABLE_MIB, shard=None):
    """Variants of one task set (``warpspan dbf FILE --sweep KIND:FROM:TO:STEPS[:TASK]``): every wcet,
    deadline, separation or period (of TASK only, if named) scaled by STEPS factors from FROM to TO,
    each analysed, then the critical factor where the verdict changes (by bisection). ``shard``:
    "I/N" or (I, N), only the variants k with k mod N = I (``taskset`` a path): a :class:`DbfShard`,
    and :func:`merge` of the N shards is the whole sweep."""
    a = _Args("dbf_sweep")
    slice_ = a.shard(shard)
    if slice_:
        path = a.path("taskset", taskset, "a path with shard= (the merge reads the file again)")
        spec = a.str("sweep", sweep)
        return DbfShard(_core.dbf_sweep_shard(path, spec, slice_,
                                              *_dbf_options(a, backend, edf, threads, block, max_table_mib)))
    source = _source(a, "taskset", taskset, "taskset")
    spec = a.str("sweep", sweep)
    return DbfSweep(_core.dbf_sweep(source, spec, *_dbf_options(a, backend, edf, threads, block, max_table_mib)))


def dbf_batch(tasksets, *, backend="auto", edf="qpa", threads=0, block=_core.DBF_BLOCK,
              max_table_mib=_core.DBF_MAX_TABLE_MIB, shard=None):
    """The EDF test of many task sets (``warpspan dbf --batch``), in one pass over the library:
    one :class:`DbfVerdict` per set, in order. ``tasksets``: a list of dicts (in the JSON task
    format) and paths, or one path. A path is read as ``dbf --batch PATH`` reads it: a .jsonl file
    is one set a line (labelled FILE:LINE), a directory its *.json and *.csv files, another file one set.
    ``shard``: "I/N" or (I, N), only the sets k with k mod N = I of one path (as ``dbf --batch PATH
    --json --shard I/N``): a :class:`DbfShard`, and :func:`merge` of the N shards is the whole batch."""
    a = _Args("dbf_batch")
    options = _dbf_options(a, backend, edf, threads, block, max_table_mib)
    slice_ = a.shard(shard)
    if slice_:
        path = a.path("tasksets", tasksets, "one path with shard= (a directory, a .jsonl file or a .json file)")
        shard_ = _core.dbf_batch_shard(path, slice_, *options)
        shard_["verdicts"] = [DbfVerdict(d) for d in shard_["verdicts"]]
        return DbfShard(shard_)
    if isinstance(tasksets, (str, bytes, os.PathLike)):
        tasksets = [tasksets]
    elif isinstance(tasksets, dict) or not hasattr(tasksets, "__iter__"):
        raise a.type_error("tasksets", "a list of task sets (dicts or paths) or a path", tasksets)
    sources = [_source(a, f"tasksets[{k}]", t, f"taskset[{k}]") for k, t in enumerate(tasksets)]
    return [DbfVerdict(d) for d in _core.dbf_batch(sources, *options)]


def merge(shards, *, max_mib=_core.MERGE_MAX_MIB):
    """The shards of one run put together (``warpspan merge FILE...``): the whole run's result, as
    the run without shards gives it (an :class:`EstimateResult`, a :func:`dbf_batch` list of
    verdicts, a :class:`DbfSweep`). ``shards``: every shard of the run once, in any order, each a
    file that ``--shard I/N`` (with ``--json`` for dbf) or a ``shard_text`` was written to, or a
    result with ``shard=`` itself. The shards are checked as the command line checks them (one run,
    none missing, none altered: InputError otherwise); ``max_mib`` bounds the files read."""
    a = _Args("merge")
    if isinstance(shards, (str, bytes, os.PathLike, Result)) or not hasattr(shards, "__iter__"):
        raise a.type_error("shards", "a list of shard files and results with shard=", shards)
    sources = []
    for k, s in enumerate(shards):
        if isinstance(s, Result):
            if not isinstance(getattr(s, "shard_text", None), str):
                raise a.type_error(f"shards[{k}]", "a shard file or a result of shard=", s)
            sources.append(_core._ShardSource(s.shard_text, False, f"shards[{k}]"))
        else:
            path = a.path(f"shards[{k}]", s, "a shard file or a result of shard=")
            sources.append(_core._ShardSource(path, True, path))
    max_mib = a.count("max_mib", max_mib, _UINT64[1])
    _numpy("merge")
    merged = _core.merge(sources, max_mib)
    if merged["command"] == "estimate":
        return EstimateResult(merged["result"])
    if merged["command"] == "dbf-batch":
        return [DbfVerdict(d) for d in merged["result"]]
    return DbfSweep(merged["result"])


def cuda_compiled():
    """True when this build has the CUDA backend (whether or not a device is present)."""
    return _core.cuda_compiled()


# ---------------------------------------------------------------------------------- wcet
def _many(value):
    """One item or a list (tuple, ...) of them, as a list; None as none."""
    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)) or not hasattr(value, "__iter__"):
        return [value]
    return list(value)


def _traces(a, trace, trace_text):
    """--trace: the files of ``trace`` (paths) and the texts of ``trace_text``, in that order."""
    paths, texts = _many(trace), _many(trace_text)
    out = []
    for k, t in enumerate(paths):
        name = f"trace[{k}]" if isinstance(trace, (list, tuple)) else "trace"
        path = a.path(name, t, "a path (str or os.PathLike) or a list of paths", "; a trace's text goes in trace_text=")
        if "\n" in path:
            raise InputError(f"{name}: a path has no line break, and this str has one: pass a trace's text as "
                             "trace_text=")
        out.append(_core._TraceSource(path, True, path))
    for k, t in enumerate(texts):
        name = f"trace_text[{k}]" if isinstance(trace_text, (list, tuple)) else "trace_text"
        if not isinstance(t, str):
            raise a.type_error(name, "the text of a trace (str) or a list of them", t)
        out.append(_core._TraceSource(t, False, name))
    return out


def _loop_bounds(a, loop_bounds):
    """--loop-bound HEADER=N: a dict {header: N} or (header, N) pairs."""
    if loop_bounds is None:
        return []
    if isinstance(loop_bounds, dict):
        pairs = list(loop_bounds.items())
    elif isinstance(loop_bounds, (str, bytes)) or not hasattr(loop_bounds, "__iter__"):
        raise a.type_error("loop_bounds", "a dict {header: N} or (header, N) pairs", loop_bounds)
    else:
        pairs = list(loop_bounds)
    out = []
    for k, pair in enumerate(pairs):
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise a.type_error(f"loop_bounds[{k}]", "a pair (header, N)", pair)
        header = a.str(f"loop_bounds[{k}] header", pair[0])
        n = pair[1]
        if not _is_int(n):
            raise a.type_error(f"loop_bounds[{header!r}]", "an integer", n)
        out.append(f"{header}={int(n)}")
    return out


def wcet(cfg=None, trace=None, *, trace_text=None, ptx=None, entry="", trace_format="auto", method="auto",
         loop_bounds=None, probe_cost=0, clock="auto"):
    """Hybrid WCET of a GPU kernel from time-stamped traces (``warpspan wcet``): the program as CFG
    JSON (``cfg``, a path) or a PTX listing (``ptx``, a path, with ``entry``); the traces
    (``--trace``, repeatable) as files, ``trace`` (a path or a list of paths: str or os.PathLike),
    and/or as text, ``trace_text`` (a str or a list of them; one line is enough); ``loop_bounds``
    {CFG header block: N} or (header, N) pairs (``--loop-bound HEADER=N``); ``probe_cost`` cycles
    or "auto"; ``clock`` "auto", "sm" or "global" (``--clock``: whether the times share one clock
    across SMs, which gives ``hwmt_launch`` beside the per-SM ``hwmt``)."""
    a = _Args("wcet")
    if trace is None and trace_text is None:
        raise TypeError("warpspan.wcet(): needs trace= (a path or a list of paths) or trace_text= (the text of a "
                        "trace or a list of them)")
    cfg = "" if cfg is None else a.path("cfg", cfg, "a path to the CFG JSON (str or os.PathLike) or None")
    ptx = "" if ptx is None else a.path("ptx", ptx, "a path to the PTX listing (str or os.PathLike) or None")
    sources = _traces(a, trace, trace_text)
    # in Python's words (the command line says --cfg/--ptx and --trace)
    if (cfg == "") == (ptx == ""):
        raise InputError("give the program structure with cfg= or ptx= (one of the two)")
    if not sources:
        raise InputError("give at least one trace (trace= or trace_text=)")
    if _is_int(probe_cost):
        probe_cost = str(int(probe_cost))
    elif not isinstance(probe_cost, str):
        raise a.type_error("probe_cost", "an integer (cycles) or 'auto'", probe_cost)
    result = WcetResult(_core.wcet(cfg, ptx, a.str("entry", entry), sources, a.str("trace_format", trace_format),
                                   a.str("method", method), _loop_bounds(a, loop_bounds), probe_cost,
                                   a.str("clock", clock)))
    for message in getattr(result, "warnings", None) or []:  # what the CLI prints on stderr
        warnings.warn(message, stacklevel=2)
    return result


# ---------------------------------------------------------------------------------- inputs
def inputs(kernel=None, *, harness=None, threads=None, method="gdivan", evaluations=2000, seed=1, fitness="model",
           sm="kepler-3.5", sms=1, population=100, patience=2, tolerance=0.0, atom_threads=8, atom_runs=400, jobs=0,
           eval_timeout=60.0):
    """Searches for the inputs that make a GPU kernel slowest (``warpspan inputs``, GDivAn):
    ``kernel`` a built-in (artificial, bfs, petri, bisect, lbm) or ``harness`` the path of a harness
    library of your own kernel (docs/harness.md), not both; ``threads`` default the kernel's.

    A harness runs in a worker process: if it crashes, aborts, throws, loops or hangs (no evaluation
    finished for ``eval_timeout`` seconds), InputError says what it did, and its ``result`` attribute
    holds the results so far (with ``failing_input``, the raw input it failed on, when known)."""
    a = _Args("inputs")
    r = _core._SearchRequest()
    r.kernel = "" if kernel is None else a.str("kernel", kernel)
    r.harness = "" if harness is None else a.path("harness", harness)
    r.method, r.fitness, r.sm = a.str("method", method), a.str("fitness", fitness), a.str("sm", sm)
    r.threads = None if threads is None else a.int("threads", threads, *_INT64)
    for name, value in (("evaluations", evaluations), ("population", population), ("patience", patience),
                        ("atom_threads", atom_threads), ("atom_runs", atom_runs), ("sms", sms), ("jobs", jobs)):
        setattr(r, name, a.int(name, value, *_INT64))
    r.seed = a.seed(seed)
    r.tolerance = a.float("tolerance", tolerance)
    r.eval_timeout = a.float("eval_timeout", eval_timeout)
    _numpy("inputs")
    return InputsResult(_core.inputs(r))
