#!/usr/bin/python3
"""Differential conformance suite: every case in cases.py runs under numba's CUDA simulator (the
reference) and through `pykc run` (pyk's CPU backend by default); every array argument must match
afterwards (integers and bools exactly, floats within the case's tolerance). One file past 600
lines: building arguments for both sides, running them and comparing are one protocol.

usage: run_conformance.py PYKC [-j N] [--filter SUBSTR] [--backend cpu|cuda|default]
                               [--sim-only] [--list] [--keep DIR] [--timeout S] [-v]
                               [--record DIR | --expected DIR]

PYKC is the pykc executable; with --sim-only (or PYKC given as '-') only the simulator runs, which
checks the cases themselves. Prints `PASS name` or `FAIL name: reason` per case and exits 1 when
any case fails (2 on a usage error). Records, tuples and aliases pass to both sides as numba and
`pykc run` take them (records as np.records, tuple elements written back as arg<i>_<j>.npy).

(Over 600 lines: the simulator's shims for what it lacks, the two runs and their comparison are
one harness that every case goes through.)
"""

import os
import sys

# The simulator must be selected before numba is imported anywhere.
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import argparse  # noqa: E402
import collections  # noqa: E402
import importlib.machinery  # noqa: E402
import importlib.util  # noqa: E402
import multiprocessing  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases as case_table  # noqa: E402
import recorded_reference  # noqa: E402


# --------------------------------------------------------------------------------------------
# Simulator extensions. numba 0.56's simulator has no warp intrinsics and no cuda.atomic.cas; we
# add them here with CUDA's semantics, restricted to what the cases use: full masks on full,
# converged warps (every thread of a warp reaches the same intrinsic calls in the same order).
# --------------------------------------------------------------------------------------------

FULL_MASK = 0xFFFFFFFF
_shim_lock = threading.Lock()


def _warp_slot():
    t = threading.current_thread()
    mgr = t._manager
    with _shim_lock:
        warps = getattr(mgr, "_pyk_warps", None)
        if warps is None:
            warps = {}
            mgr._pyk_warps = warps
        w = t.thread_id // 32
        entry = warps.get(w)
        if entry is None:
            nthreads = int(np.prod(mgr._block_dim))
            parties = min(32, nthreads - w * 32)
            entry = (threading.Barrier(parties, timeout=60), [None] * 32)
            warps[w] = entry
    return t.thread_id % 32, entry


def _warp_exchange(mask, value):
    if int(mask) & FULL_MASK != FULL_MASK:
        raise NotImplementedError("the simulator's warp shim supports only the full mask")
    lane, (barrier, slots) = _warp_slot()
    slots[lane] = value
    barrier.wait()
    values = list(slots)
    barrier.wait()
    return lane, values


def _shfl_sync(self, mask, value, src_lane):
    lane, vals = _warp_exchange(mask, value)
    return vals[int(src_lane) & 31]


def _shfl_up_sync(self, mask, value, delta):
    lane, vals = _warp_exchange(mask, value)
    j = lane - int(delta)
    return vals[j] if j >= 0 else value


def _shfl_down_sync(self, mask, value, delta):
    lane, vals = _warp_exchange(mask, value)
    j = lane + int(delta)
    return vals[j] if j <= 31 else value


def _shfl_xor_sync(self, mask, value, lane_mask):
    lane, vals = _warp_exchange(mask, value)
    j = lane ^ int(lane_mask)
    return vals[j] if j <= 31 else value


def _ballot_sync(self, mask, pred):
    lane, vals = _warp_exchange(mask, bool(pred))
    return sum(1 << k for k, v in enumerate(vals) if v) & int(mask)


def _all_sync(self, mask, pred):
    lane, vals = _warp_exchange(mask, bool(pred))
    return all(vals)


def _any_sync(self, mask, pred):
    lane, vals = _warp_exchange(mask, bool(pred))
    return any(vals)


def _eq_sync(self, mask, pred):
    lane, vals = _warp_exchange(mask, bool(pred))
    return all(vals) or not any(vals)


def _match_any_sync(self, mask, value):
    lane, vals = _warp_exchange(mask, value)
    return sum(1 << k for k, v in enumerate(vals) if v == value) & int(mask)


def _match_all_sync(self, mask, value):
    lane, vals = _warp_exchange(mask, value)
    if all(v == value for v in vals):
        return int(mask) & FULL_MASK, True
    return 0, False


def _syncwarp(self, mask=FULL_MASK):
    _warp_exchange(mask, None)


def _activemask(self):
    # Only called from converged full warps in the cases.
    return FULL_MASK


def _lanemask_lt(self):
    return (1 << (threading.current_thread().thread_id % 32)) - 1


def _atomic_cas(self, array, index, old, val):
    with _shim_lock:
        loaded = array[index]
        if loaded == old:
            array[index] = val
        return loaded


def install_simulator_shims():
    from numba.cuda.simulator import kernelapi
    mod = kernelapi.FakeCUDAModule
    for name, fn in [("shfl_sync", _shfl_sync), ("shfl_up_sync", _shfl_up_sync),
                     ("shfl_down_sync", _shfl_down_sync), ("shfl_xor_sync", _shfl_xor_sync),
                     ("ballot_sync", _ballot_sync), ("all_sync", _all_sync),
                     ("any_sync", _any_sync), ("eq_sync", _eq_sync),
                     ("match_any_sync", _match_any_sync), ("match_all_sync", _match_all_sync),
                     ("syncwarp", _syncwarp), ("activemask", _activemask),
                     ("lanemask_lt", _lanemask_lt)]:
        if not hasattr(mod, name):
            setattr(mod, name, fn)
    if not hasattr(kernelapi.FakeCUDAAtomic, "cas"):
        kernelapi.FakeCUDAAtomic.cas = _atomic_cas


# --------------------------------------------------------------------------------------------
# Reference run (simulator)
# --------------------------------------------------------------------------------------------

class _SimUfunc:
    """Stands in for @vectorize(..., target='cuda'), which the simulator cannot build: applies
    the Python function element by element with the signature's scalar types."""

    def __init__(self, sigs, fn):
        self.fn = fn
        self.sigs = []
        for s in sigs:
            m = re.match(r"\s*(\w+)\s*\((.*)\)\s*$", s)
            ret = np.dtype(m.group(1))
            args = [np.dtype(a.strip()) for a in m.group(2).split(",") if a.strip()]
            self.sigs.append((ret, args))

    def apply(self, inputs, out):
        for ret, args in self.sigs:
            if [a.dtype for a in inputs] == args:
                for idx in np.ndindex(*out.shape):
                    vals = [t.type(a[idx]) for t, a in zip(args, inputs)]
                    out[idx] = ret.type(self.fn(*vals))
                return
        raise TypeError("no signature of the ufunc matches %s" % [a.dtype for a in inputs])


def _fake_vectorize(sigs, **kwargs):
    return lambda fn: _SimUfunc(sigs, fn)


def load_module(path, kind):
    name = "pyk_conformance_" + re.sub(r"\W", "_", os.path.basename(path))
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    if kind == "ufunc":
        import numba
        saved = numba.vectorize
        numba.vectorize = _fake_vectorize
        try:
            loader.exec_module(module)
        finally:
            numba.vectorize = saved
    else:
        loader.exec_module(module)
    return module


class compiled_float32_math:
    """While active, numba.cuda.random's normal draws compute in the simulator as compiled numba
    computes them: Box-Muller in float32 through the C library's logf, sqrtf and cosf (and logf
    widened to float64 for normal_float64), where the simulator's own code calls Python's
    double-precision math. Cases with compiled_math=True use it, to check pyk bit for bit."""

    def __enter__(self):
        import ctypes
        import math
        import numba.cuda.random as rnd
        libm = ctypes.CDLL("libm.so.6")
        f32 = {}
        for name in ("logf", "sqrtf", "cosf"):
            fn = getattr(libm, name)
            fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
            f32[name] = lambda x, fn=fn: np.float32(fn(float(x)))
        two_pi32, two_pi64 = np.float32(2 * math.pi), np.float64(2 * math.pi)
        uniform = rnd.xoroshiro128p_uniform_float32

        def normal_float32(states, index):
            u1 = uniform(states, index)
            u2 = uniform(states, index)
            radius = f32["sqrtf"](np.float32(-2.0) * f32["logf"](u1))
            return radius * f32["cosf"](two_pi32 * np.float32(u2))

        def normal_float64(states, index):
            u1 = uniform(states, index)
            u2 = uniform(states, index)
            radius = math.sqrt(-2.0 * float(f32["logf"](u1)))
            return np.float64(radius * math.cos(float(two_pi64 * np.float64(u2))))

        self.saved = rnd.xoroshiro128p_normal_float32, rnd.xoroshiro128p_normal_float64
        rnd.xoroshiro128p_normal_float32 = normal_float32
        rnd.xoroshiro128p_normal_float64 = normal_float64
        return self

    def __exit__(self, *exc):
        import numba.cuda.random as rnd
        rnd.xoroshiro128p_normal_float32, rnd.xoroshiro128p_normal_float64 = self.saved


class compiled_float16:
    """While active, the simulator's float16 behaves as compiled numba 0.56's where the two differ:
    a numba integer type applied to a float16 (`int32(h)`) rounds to the nearest integer, ties to
    even, saturating, NaN giving 0 (cvt.rni.s32.f16; the simulator truncates through numpy; for
    64 bits 0x8000000000000000, as an H200 gave on 2026-11-26), and
    cuda.fp16's hfma rounds once (fma.rn.f16; the simulator rounds the product first), hne is
    false when either side is NaN (setp.ne.f16 is ordered), hmax and hmin pick `a if a > b else
    b` (`a < b`; the simulator calls Python's max and min). Cases with compiled_float16=True use
    it, and keep float16 operators to values where numba's float32 and numpy's float16
    arithmetic agree (the simulator cannot model the types of those)."""

    def __enter__(self):
        from numba.core import types
        from numba.cuda.simulator.kernelapi import FakeCUDAFp16

        original_cast = types.Integer.cast_python_value

        def cast_python_value(self, value):
            if not isinstance(value, np.float16):
                return original_cast(self, value)
            info = np.iinfo(np.dtype(self.name))
            v = float(value)
            if v != v:  # cvt.rni.s64.f16 / .u64.f16 give 0x8000000000000000 (an H200)
                return getattr(np, self.name)(0 if info.bits < 64 else info.min or 1 << 63)
            r = np.rint(v)  # to nearest, ties to even
            return getattr(np, self.name)(int(min(max(r, info.min), info.max)))

        def hne(self, a, b):
            return bool(not (np.isnan(a) or np.isnan(b)) and a != b)

        self.saved = (original_cast, FakeCUDAFp16.hfma, FakeCUDAFp16.hne, FakeCUDAFp16.hmax,
                      FakeCUDAFp16.hmin)
        types.Integer.cast_python_value = cast_python_value
        FakeCUDAFp16.hfma = lambda self, a, b, c: np.float16(float(a) * float(b) + float(c))
        FakeCUDAFp16.hne = hne
        FakeCUDAFp16.hmax = lambda self, a, b: a if a > b else b
        FakeCUDAFp16.hmin = lambda self, a, b: a if a < b else b
        return self

    def __exit__(self, *exc):
        from numba.core import types
        from numba.cuda.simulator.kernelapi import FakeCUDAFp16
        (types.Integer.cast_python_value, FakeCUDAFp16.hfma, FakeCUDAFp16.hne, FakeCUDAFp16.hmax,
         FakeCUDAFp16.hmin) = self.saved


def run_simulator(case, inputs):
    """Returns the values of every argument after the launch (arrays copied back)."""
    if getattr(case, "compiled_math", False):
        with compiled_float32_math():
            return _run_simulator(case, inputs)
    if getattr(case, "compiled_float16", False):
        with compiled_float16():
            return _run_simulator(case, inputs)
    return _run_simulator(case, inputs)


def _run_simulator(case, inputs):
    from numba import cuda
    module = load_module(case.path, case.kind)
    fn = getattr(module, case.kernel)
    if case.kind == "ufunc":
        arrays = [np.array(v, copy=True, order="K") for v in inputs]
        fn.apply(arrays[:-1], arrays[-1])
        return arrays
    dev = []
    holders = {}  # id of a record's device stand-in -> the 0-d array it is a view of

    def to_device(spec, v):
        if isinstance(spec, case_table.Alias):
            return dev[spec.index]
        if isinstance(spec, case_table.Rec):
            holder = np.array(v, copy=True).view(np.recarray)
            record = holder[()]  # a np.void viewing the holder, as numba passes records
            holders[id(record)] = holder
            return record
        if isinstance(spec, case_table.Tup):
            items = [to_device(e, x) for e, x in zip(spec.elements, v)]
            if spec.cls is not None:
                return collections.namedtuple(spec.cls, spec.fields)(*items)
            return tuple(items)
        if isinstance(v, np.ndarray) and v.dtype.names is not None:
            # A record array as numba's tests give them, a recarray: the simulator's items are
            # then np.records, which it can copy whole and read by attribute.
            return cuda.to_device(np.array(v, copy=True, order="K").view(np.recarray))
        if isinstance(v, np.ndarray):
            return cuda.to_device(np.array(v, copy=True, order="K"))
        return spec.sim_value()

    for spec, v in zip(case.args, inputs):
        dev.append(to_device(spec, v))
    if case.shared:
        fn[case.grid, case.block, 0, case.shared](*dev)
    else:
        fn[case.grid, case.block](*dev)

    def result(spec, v, d):
        if isinstance(spec, case_table.Alias):
            return result(case.args[spec.index], inputs[spec.index], dev[spec.index])
        if isinstance(spec, case_table.Rec):
            return np.array(holders[id(d)], copy=True).view(np.ndarray)
        if isinstance(spec, case_table.Tup):
            return tuple(result(e, x, y) for e, x, y in zip(spec.elements, v, d))
        return d.copy_to_host() if isinstance(v, np.ndarray) else v

    return [result(spec, v, d) for spec, v, d in zip(case.args, inputs, dev)]


# --------------------------------------------------------------------------------------------
# pykc run
# --------------------------------------------------------------------------------------------

def dims(d):
    if isinstance(d, int):
        return str(d)
    return ",".join(str(x) for x in d)


def pykc_command(opts, case, arg_words, out_dir):
    cmd = [opts.pykc, "run", case.path, case.kernel, "--grid", dims(case.grid),
           "--block", dims(case.block)]
    if case.shared:
        cmd += ["--shared", str(case.shared)]
    if opts.backend != "default":
        cmd += ["--backend", opts.backend]
    cmd += ["--out", out_dir]
    return cmd + arg_words


def condense(text, limit):
    lines = [ln.rstrip() for ln in text.strip().splitlines() if ln.strip()]
    s = " | ".join(lines)
    if limit and len(s) > limit:
        s = s[:limit] + " ..."
    return s


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

def tolerance(case, dtype):
    kind = np.dtype(dtype)
    single = kind in (np.dtype(np.float32), np.dtype(np.complex64), np.dtype(np.float16))
    rtol, atol = (1e-5, 1e-6) if single else (1e-12, 1e-13)
    if case.rtol is not None:
        rtol = case.rtol if not isinstance(case.rtol, dict) else case.rtol.get(kind.name, rtol)
    if case.atol is not None:
        atol = case.atol if not isinstance(case.atol, dict) else case.atol.get(kind.name, atol)
    return rtol, atol


def fmt_index(idx):
    return "(" + ", ".join(str(int(x)) for x in idx) + ")" if len(idx) != 1 else "[%d]" % idx[0]


def flat_outputs(case, values):
    """(name, spec, array) of every array and record among the arguments after a launch:
    `arg<i>`, and `arg<i>_<j>` for element j of tuple argument i (as `pykc run` writes them)."""
    out = []

    def walk(spec, v, name):
        if isinstance(spec, case_table.Tup):
            for j, (e, x) in enumerate(zip(spec.elements, v)):
                walk(e, x, "%s_%d" % (name, j))
        elif isinstance(spec, case_table.Alias):
            walk(case.args[spec.index], v, name)
        elif isinstance(v, np.ndarray):
            out.append((name, spec, v))

    for i, (spec, v) in enumerate(zip(case.args, values)):
        walk(spec, v, "arg%d" % i)
    return out


def compare_arrays(case, label, got, want, mode, what=("pyk", "sim")):
    """None when equal, else a message naming the first differing index and both values."""
    if got.shape != want.shape:
        return "%s: shape %s, expected %s" % (label, got.shape, want.shape)
    if got.dtype != want.dtype:
        return "%s: dtype %s, expected %s" % (label, got.dtype, want.dtype)
    if mode == "skip":
        return None
    if want.dtype.names is not None:  # a record: field by field (padding is not compared)
        for field in want.dtype.names:
            err = compare_arrays(case, "%s.%s" % (label, field), got[field], want[field], mode,
                                 what)
            if err:
                return err
        return None
    if mode == "sorted":
        got = np.sort(got, axis=0)
        want = np.sort(want, axis=0)
    kind = want.dtype.kind
    if kind in "fc":
        rtol, atol = tolerance(case, want.dtype)
        # nan matches nan, inf matches an inf of the same sign, nothing else is special.
        ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        tol = " (rtol=%g atol=%g)" % (rtol, atol)
    else:
        ok = got == want
        tol = ""
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    idx = tuple(bad[0])
    sorted_note = " after sorting along axis 0" if mode == "sorted" else ""
    return "%s %s%s: first difference at %s: %s=%r %s=%r%s; %d of %d elements differ" % (
        label, want.dtype, list(want.shape), fmt_index(idx), what[0], got[idx].item(), what[1],
        want[idx].item(), tol, len(bad), want.size) + sorted_note


# --------------------------------------------------------------------------------------------
# One case
# --------------------------------------------------------------------------------------------

def run_case(job):
    index, opts = job
    case = case_table.CASES[index]
    t0 = time.time()
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    tmp = tempfile.mkdtemp(prefix="pyk-conf-%s-" % case.name)
    try:
        status, msg = _run_case(case, opts, tmp)
    except Exception:
        status, msg = False, "harness error: " + condense(traceback.format_exc(), 0 if opts.verbose else 800)
    finally:
        if opts.keep:
            dest = os.path.join(opts.keep, case.name)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tmp, dest)
        shutil.rmtree(tmp, ignore_errors=True)
    return case.name, status, msg, time.time() - t0


def _run_case(case, opts, tmp):
    inputs = case.build_inputs()
    recorded = None
    if opts.expected:
        try:
            inputs, recorded = recorded_reference.load(opts.expected, case.name, inputs)
        except (OSError, ValueError) as e:
            return False, "no usable recorded reference in %s: %s" % (opts.expected, e)
    elif opts.record:
        before = recorded_reference.with_arrays(
            inputs, iter([a.copy() for a in recorded_reference.arrays_of(inputs)]))
    in_dir = os.path.join(tmp, "in")
    out_dir = os.path.join(tmp, "out")
    os.makedirs(in_dir)
    os.makedirs(out_dir)
    def word(spec, v, name):
        if isinstance(spec, case_table.Alias):
            return "@%d" % spec.index
        if isinstance(spec, case_table.Tup):
            parts = [word(e, x, "%s_%d" % (name, j))
                     for j, (e, x) in enumerate(zip(spec.elements, v))]
            if spec.cls is not None:
                return "%s(%s)" % (spec.cls, ", ".join(
                    "%s=%s" % (f, p) for f, p in zip(spec.fields, parts)))
            return "(%s%s)" % (", ".join(parts), "," if len(parts) == 1 else "")
        if isinstance(v, np.ndarray):
            path = os.path.join(in_dir, "%s.npy" % name)
            np.save(path, v)
            return ("record:" if isinstance(spec, case_table.Rec) else "") + path
        return spec.cli()

    words = [word(spec, v, "arg%d" % i) for i, (spec, v) in enumerate(zip(case.args, inputs))]

    proc = None
    cmd = None
    if not opts.sim_only:
        cmd = pykc_command(opts, case, words, out_dir)
        with open(os.path.join(tmp, "command.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n")
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        except OSError as e:
            return False, "cannot start pykc: %s" % e

    # Reference, while pykc compiles and runs: the simulator, or what it left when recorded.
    if recorded is not None:
        want_flat = []
        for name, spec, _ in flat_outputs(case, inputs):
            if name not in recorded:
                return False, "the recorded reference has no %s" % name
            want_flat.append((name, spec, recorded[name]))
    else:
        try:
            want = run_simulator(case, inputs)
        except Exception:
            if proc:
                proc.kill()
                proc.communicate()
            return False, "simulator error: " + condense(traceback.format_exc(),
                                                         0 if opts.verbose else 800)
        want_flat = flat_outputs(case, want)

    for name, spec, v in want_flat:
        np.save(os.path.join(tmp, "sim_%s.npy" % name), v)

    if recorded is None and case.expect is not None:
        expected = case.expect(*[np.array(v, copy=True) if isinstance(v, np.ndarray) else v
                                 for v in inputs])
        for i, e in expected.items():
            e = np.asarray(e).astype(want[i].dtype)
            err = compare_arrays(case, "arg%d" % i, want[i], e, case.compare_mode(i),
                                 what=("sim", "numpy"))
            if err:
                if proc:
                    proc.kill()
                    proc.communicate()
                return False, "reference check: simulator disagrees with numpy: " + err

    if opts.record and recorded is None:
        recorded_reference.save(opts.record, case.name, before,
                                [(name, v) for name, _, v in want_flat])
    if opts.sim_only:
        return True, ""

    try:
        stdout, stderr = proc.communicate(timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        return False, "pykc run timed out after %ds" % opts.timeout
    limit = 0 if opts.verbose else 600
    if proc.returncode != 0:
        return False, "pykc run exited with %d: %s" % (proc.returncode, condense(stderr + stdout, limit))

    errors = []
    for name, spec, v in want_flat:
        path = os.path.join(out_dir, "%s.npy" % name)
        if not os.path.exists(path):
            errors.append("pykc wrote no %s.npy" % name)
            continue
        try:
            got = np.load(path)
        except Exception as e:
            errors.append("%s.npy unreadable: %s" % (name, e))
            continue
        err = compare_arrays(case, name, got, v, getattr(spec, "compare", "auto"))
        # Values are compared index by index, whatever the memory order: `pykc run` keeps a
        # Fortran-order .npy's layout (the kernel is typed F, as numba types it) and writes C
        # order back.
        if err:
            errors.append(err)
    if errors:
        return False, "; ".join(errors)
    return True, ""


# --------------------------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pykc", help="the pykc executable ('-' to run the simulator only)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run in parallel")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "default"],
                    help="pykc run --backend (default cpu; 'default' passes none)")
    ap.add_argument("--sim-only", action="store_true", help="run only the simulator side")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--keep", metavar="DIR", help="keep each case's inputs and outputs in DIR/NAME")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per pykc run")
    ap.add_argument("-v", "--verbose", action="store_true", help="full error messages")
    ap.add_argument("--record", metavar="DIR",
                    help="also keep the simulator's inputs and outputs in DIR (recorded_reference)")
    ap.add_argument("--expected", metavar="DIR",
                    help="compare with what --record kept in DIR instead of running the simulator "
                    "(a GPU machine without numba 0.56)")
    opts = ap.parse_args(argv)
    if opts.pykc == "-":
        opts.sim_only = True
    elif not opts.sim_only:
        opts.pykc = os.path.abspath(opts.pykc)
        if not os.access(opts.pykc, os.X_OK):
            print("run_conformance: %s is not an executable" % opts.pykc, file=sys.stderr)
            return 2
    if opts.keep:
        opts.keep = os.path.abspath(opts.keep)
        os.makedirs(opts.keep, exist_ok=True)

    selected = [c for c in case_table.CASES if opts.filter in c.name]
    if not opts.sim_only:
        for c in [c for c in selected if c.backends and opts.backend not in c.backends]:
            print("SKIP %s: for the %s backend only: %s" % (c.name, "/".join(c.backends),
                                                           c.backends_reason), flush=True)
            selected.remove(c)
    if opts.list:
        for c in selected:
            print("%-28s %-26s %-22s grid=%s block=%s%s" % (
                c.name, os.path.basename(c.path), c.kernel, dims(c.grid), dims(c.block),
                " shared=%d" % c.shared if c.shared else ""))
        return 0
    if not selected:
        print("run_conformance: no case matches %r" % opts.filter, file=sys.stderr)
        return 2

    for attr in ("record", "expected"):
        if getattr(opts, attr):
            setattr(opts, attr, os.path.abspath(getattr(opts, attr)))
    if opts.record:
        os.makedirs(opts.record, exist_ok=True)
    if not opts.expected:
        install_simulator_shims()
    t0 = time.time()
    jobs = [(case_table.CASES.index(c), opts) for c in selected]
    failed = []
    if opts.jobs > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(opts.jobs, maxtasksperchild=8) as pool:
            results = pool.imap(run_case, jobs)
            for name, ok, msg, secs in results:
                failed += report(name, ok, msg, secs, opts)
    else:
        for job in jobs:
            name, ok, msg, secs = run_case(job)
            failed += report(name, ok, msg, secs, opts)
    side = "simulator only" if opts.sim_only else "simulator vs pykc (%s)" % opts.backend
    print("%d of %d cases passed (%s) in %.1fs" % (len(selected) - len(failed), len(selected),
                                                     side, time.time() - t0))
    if failed:
        print("failed: " + " ".join(failed))
    return 1 if failed else 0


def report(name, ok, msg, secs, opts):
    timing = " (%.1fs)" % secs if opts.verbose else ""
    gap = next((c.known_gap for c in case_table.CASES if c.name == name), None)
    if gap and not opts.sim_only:
        if ok:
            print("XPASS %s: passes although marked as a known gap (%s); remove the mark"
                  % (name, gap), flush=True)
            return [name]
        print("XFAIL %s: known gap: %s" % (name, gap), flush=True)
        return []
    if ok:
        print("PASS %s%s" % (name, timing), flush=True)
        return []
    print("FAIL %s: %s%s" % (name, msg, timing), flush=True)
    return [name]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
