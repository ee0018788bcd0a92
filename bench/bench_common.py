"""bench_common: what the Python benchmark programs share (bench/cpu/numba_reference.py,
bench/gpu/numba_cuda_reference.py, bench/gpu/cupy_reference.py), as bench/cpu/bench_common.h does
for the C++ ones: the workloads' sizes, the RESULT lines run_*_bench.sh collect, the inputs, the
serial diffusion reference, result checks, timing and loading a .pyk file as a Python module.
"""
import importlib.machinery
import importlib.util
import os
import statistics
import sys
import time

import numpy as np

# The workloads (bench_common.h's sizes).
VECTOR_SIZE = 10_000_000
DIFFUSION_ROWS = DIFFUSION_COLS = 2000
DIFFUSION_STEPS = 100
DIFFUSION_COEFF = np.float32(0.2)
MATMUL_SIZE = 512
REDUCTION_SIZE = 16 * 1024 * 1024


def report(workload, impl, seconds, reps, note=""):
    print(f"RESULT|{workload}|{impl}|{seconds:.6g}|{reps}|{note}", flush=True)


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def median_seconds(reps, body, setup=None):
    """The median host time of `reps` runs of body(), each after an untimed setup()."""
    times = []
    for _ in range(reps):
        if setup is not None:
            setup()
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def mt19937_values(n, seed):
    """bench_common.h's randomValues: std::mt19937(seed) outputs >> 8, times 2^-24, as float32
    (numpy's legacy RandomState seeds MT19937 as std::mt19937 does)."""
    raw = np.random.RandomState(seed).randint(0, 2**32, size=n, dtype=np.uint32)
    return (raw >> np.uint32(8)).astype(np.float32) * np.float32(1.0 / 16777216.0)


def reference_diffusion(field, steps, coeff):
    """bench_common.h's referenceDiffusion: the same float32 operations in the same order."""
    f = field.copy()
    four = np.float32(4.0)
    for _ in range(steps):
        p = np.pad(f, 1, mode="edge")
        lap = four * f - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]
        f = (f - coeff * lap).astype(np.float32)
    return f


def check_close(what, got, want, rtol, atol):
    """Fails (exit 1) unless got has want's shape and every element is within atol + rtol|want|."""
    if got.shape != want.shape:
        fail(f"{what}: shape {got.shape}, expected {want.shape}")
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        bad = np.argmax(np.abs(got.astype(np.float64) - want) - rtol * np.abs(want))
        fail(f"{what}: element {bad} is {got.flat[bad]}, expected {want.flat[bad]}")


def load_pyk(path):
    """The .pyk file at `path` imported as a Python module (a .pyk file is a numba script)."""
    name = "pyk_bench_" + os.path.splitext(os.path.basename(path))[0]
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
