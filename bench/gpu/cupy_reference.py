#!/usr/bin/env python3
"""cupy_reference: the GPU benchmark's workloads in CuPy, as a CuPy user would write them.

  * "CuPy": the same CUDA C++ kernels as the CUDA C++ reference (bench/gpu/reference_kernels.cuh,
    the algorithms of bench/cpu/kernels/*.pyk) in one cp.RawModule, compiled by CuPy (NVRTC) and
    launched with the same shapes: vector add, diffusion (RawKernel: the shared-memory stencil,
    not a composition of cupy array operations, so that the algorithm is the same), tiled matmul,
    block reduction, the empty kernels.
  * library variants, as extra implementations "CuPy <how>": vector add as cp.add(a, b, out=c) and
    as a cp.ElementwiseKernel; matmul as cp.matmul (cuBLAS; TF32 only if CUPY_TF32=1, as the note
    says); the sum as cp.sum(x, out=s).
Inputs are bench_common.h's mt19937 values; every result is checked against a serial reference
before it is timed.

Measurements (RESULT lines, bench_common.h's format):
  * kernel time: 3 untimed runs, then the median of `reps` runs between two cp.cuda.Event records
    on the default stream; setup between repetitions (resetting the diffusion field, zeroing the
    reduction's total) happens before the start event. Workloads and bytes as in
    cuda_reference.cu: vector_add, diffusion (all 100 steps between the events), diffusion_step,
    matmul, reduction, d2d_copy (MemoryPointer.copy_from_device_async, 256 MiB), empty_kernel
    (event time of one launch, 1 block of 1 thread).
  * launch_overhead / launch_overhead_3args: host wall time per launch of the empty RawKernel
    without arguments / with three cupy arrays: a synchronize, 1000 back-to-back launches and a
    synchronize, divided by 1000, median of 21 batches.
  * compile_cold:W / compile_warm:W for each kernel W (vector_add, diffusion, matmul, reduction,
    empty): wall time of cp.RawKernel(source of that kernel alone, name) and its first launch up
    to a synchronize, in a fresh Python process that has already imported cupy and created its
    CUDA context. Cold: an empty CUPY_CACHE_DIR (NVRTC runs). Warm: a second process on the cache
    the cold one left (the note says whether it added no file, i.e. was a hit). The driver's own
    JIT cache is off in both (CUDA_CACHE_DISABLE=1). Median over --compile-reps pairs.
The notes carry GB/s=X (GFLOP/s=X for matmul), computed from the bytes listed in cuda_reference.cu.

usage: python3 cupy_reference.py [--no-compile] [--compile-reps N]
Without CuPy or without a GPU it fails with exit status 1.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_common import (DIFFUSION_COEFF, DIFFUSION_COLS, DIFFUSION_ROWS, DIFFUSION_STEPS,  # noqa: E402
                          MATMUL_SIZE, REDUCTION_SIZE, VECTOR_SIZE, check_close, fail,
                          mt19937_values, reference_diffusion, report)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_SOURCE = os.path.join(HERE, "reference_kernels.cuh")
IMPL = "CuPy"

COPY_BYTES = 256 << 20
# reference_kernels.cuh's block shapes (the .pyk files' constants)
VECTOR_TPB, DIFFUSION_BX, DIFFUSION_BY, MATMUL_TPB, REDUCTION_TPB = 256, 32, 8, 16, 256

# compile-time workload -> kernel of reference_kernels.cuh
COMPILE_KERNELS = {"vector_add": "vector_add", "diffusion": "diffusion_step", "matmul": "matmul",
                   "reduction": "block_sum", "empty": "empty_kernel"}


def gbps(nbytes, seconds):
    return f"GB/s={nbytes / seconds / 1e9:.1f}"


def blocks_for(n, per):
    return (n + per - 1) // per


# ---- kernel sources ---------------------------------------------------------------------------

def module_source():
    """reference_kernels.cuh as one NVRTC source (its #pragma once dropped: it is the main file)."""
    with open(KERNEL_SOURCE) as f:
        return "".join(line for line in f if line.strip() != "#pragma once")


def kernel_source(name):
    """The one kernel `name` of reference_kernels.cuh and the constants it uses: what a CuPy user
    would put in a RawKernel of their own."""
    source = module_source()
    match = re.search(r'extern "C" __global__ void ' + re.escape(name) + r"\(", source)
    if match is None:
        raise KeyError(f"no kernel {name} in {KERNEL_SOURCE}")
    depth, at = 0, source.index("{", match.end())
    for at in range(at, len(source)):
        depth += {"{": 1, "}": -1}.get(source[at], 0)
        if depth == 0:
            break
    kernel = source[match.start():at + 1]
    constants = [line for line in source.splitlines() if line.startswith("constexpr int ")
                 and re.search(r"\b" + line.split()[2] + r"\b", kernel)]
    return "\n".join(constants + [kernel]) + "\n"


# ---- CuPy -------------------------------------------------------------------------------------

def import_cupy():
    try:
        import cupy as cp
    except ImportError as e:
        fail(f"CuPy cannot be imported ({e}): install cupy-cuda13x (or the build for this CUDA)")
    try:
        available = cp.cuda.is_available()
    except Exception as e:  # noqa: BLE001 - a broken driver install raises here
        fail(f"CuPy cannot reach a GPU ({type(e).__name__}: {e})")
    if not available:
        fail("CuPy finds no usable GPU (cupy.cuda.is_available() is False)")
    return cp


def sync(cp):
    cp.cuda.runtime.deviceSynchronize()


class Timer:
    def __init__(self, cp):
        self.cp = cp
        self.start = cp.cuda.Event()
        self.stop = cp.cuda.Event()

    def event_median(self, reps, body, setup=None):
        """Median seconds of `reps` event-timed body() calls, after 3 untimed ones; setup() runs
        before each, before the start event."""
        for _ in range(3):
            if setup is not None:
                setup()
            body()
        sync(self.cp)
        times = []
        for _ in range(reps):
            if setup is not None:
                setup()
            self.start.record()
            body()
            self.stop.record()
            self.stop.synchronize()
            times.append(self.cp.cuda.get_elapsed_time(self.start, self.stop) * 1e-3)
        return statistics.median(times)

    def host_per_launch(self, launch, per_batch=1000, batches=21):
        for _ in range(per_batch):  # warm-up
            launch()
        sync(self.cp)
        times = []
        for _ in range(batches):
            sync(self.cp)
            start = time.perf_counter()
            for _ in range(per_batch):
                launch()
            sync(self.cp)
            times.append((time.perf_counter() - start) / per_batch)
        return statistics.median(times)


class Bench:
    """What every workload needs: cupy, the timer, the RawModule of reference_kernels.cuh."""

    def __init__(self, cp):
        self.cp = cp
        self.timer = Timer(cp)
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        self.version = (f"CuPy {cp.__version__}, CUDA runtime "
                        f"{cp.cuda.runtime.runtimeGetVersion()}, {name}")
        self.module = cp.RawModule(code=module_source())

    def kernel(self, name):
        return self.module.get_function(name)


def bench_copy(b):
    cp = b.cp
    src = cp.arange(COPY_BYTES // 4, dtype=cp.float32)
    dst = cp.empty_like(src)
    reps = 100
    t = b.timer.event_median(reps, lambda: dst.data.copy_from_device_async(src.data, src.nbytes))
    if not bool((dst == src).all()):
        fail("CuPy device-to-device copy differs from its source")
    report("d2d_copy", IMPL, t, reps, f"{gbps(2 * COPY_BYTES, t)}; "
           f"MemoryPointer.copy_from_device_async, 256 MiB, bytes read + written; {b.version}")


def bench_launch(b):
    """The empty kernels: event time of one launch, and host time per launch."""
    cp = b.cp
    empty, empty3 = b.kernel("empty_kernel"), b.kernel("empty_kernel_3args")
    reps = 1000
    t = b.timer.event_median(reps, lambda: empty((1,), (1,), ()))
    report("empty_kernel", IMPL, t, reps, "event time of one launch, 1 block of 1 thread")
    x, y, z = (cp.empty(1, cp.float32) for _ in range(3))
    note = ("host wall time per launch: 1000 back-to-back launches and a synchronize, median of "
            "21 batches; 1 block of 1 thread; RawKernel")
    report("launch_overhead", IMPL, b.timer.host_per_launch(lambda: empty((1,), (1,), ())), 21,
           note + "; no arguments")
    report("launch_overhead_3args", IMPL,
           b.timer.host_per_launch(lambda: empty3((1,), (1,), (x, y, z))), 21,
           note + "; 3 cupy arrays")


def bench_vector_add(b):
    """The RawKernel, cp.add, an ElementwiseKernel."""
    cp = b.cp
    n = VECTOR_SIZE
    ha, hb = mt19937_values(n, 1), mt19937_values(n, 2)
    want = ha + hb
    a, bb, c = cp.asarray(ha), cp.asarray(hb), cp.empty(n, cp.float32)
    vector_add = b.kernel("vector_add")
    add_ew = cp.ElementwiseKernel("float32 a, float32 b", "float32 c", "c = a + b",
                                  "pyk_bench_vector_add_ew")
    grid, block, nn = (blocks_for(n, VECTOR_TPB),), (VECTOR_TPB,), np.int32(n)
    variants = [
        (IMPL, lambda: vector_add(grid, block, (a, bb, c, nn)), "RawKernel, 256 threads/block"),
        (IMPL + " cp.add", lambda: cp.add(a, bb, out=c), "cp.add(a, b, out=c)"),
        (IMPL + " ElementwiseKernel", lambda: add_ew(a, bb, c), "cp.ElementwiseKernel c = a + b"),
    ]
    for impl, run, how in variants:
        c.fill(0)
        run()
        if not np.array_equal(cp.asnumpy(c), want):
            fail(f"{impl} vector_add differs from a + b")
        reps = 200
        t = b.timer.event_median(reps, run)
        report("vector_add", impl, t, reps, f"{gbps(3 * 4 * n, t)}; {how}")


def bench_diffusion(b):
    """All the steps between the events, and one step."""
    cp = b.cp
    rows, cols, steps = DIFFUSION_ROWS, DIFFUSION_COLS, DIFFUSION_STEPS
    init = mt19937_values(rows * cols, 3).reshape(rows, cols)
    dinit = cp.asarray(init)
    f, g = cp.empty_like(dinit), cp.empty_like(dinit)
    diffusion_step = b.kernel("diffusion_step")
    grid = (blocks_for(cols, DIFFUSION_BX), blocks_for(rows, DIFFUSION_BY))
    block = (DIFFUSION_BX, DIFFUSION_BY)
    nr, nc = np.int32(rows), np.int32(cols)
    assert steps % 2 == 0  # the result ends in f

    def step(src, dst):
        diffusion_step(grid, block, (src, dst, nr, nc, DIFFUSION_COEFF))

    def run_steps():
        for s in range(steps):
            if s % 2 == 0:
                step(f, g)
            else:
                step(g, f)

    def reset():
        f.data.copy_from_device_async(dinit.data, dinit.nbytes)

    reset()
    run_steps()
    check_close("CuPy diffusion", cp.asnumpy(f), reference_diffusion(init, steps, DIFFUSION_COEFF),
                1e-5, 1e-5)
    reps = 30
    t = b.timer.event_median(reps, run_steps, reset)
    report("diffusion", IMPL, t, reps, f"{gbps(steps * 2 * 4 * rows * cols, t)}; {steps} launches "
           "between the events; 32x8 blocks; RawKernel")
    reps = 200
    t = b.timer.event_median(reps, lambda: step(f, g))
    report("diffusion_step", IMPL, t, reps, f"{gbps(2 * 4 * rows * cols, t)}; one step; RawKernel")


def bench_matmul(b):
    """The RawKernel, and cp.matmul (cuBLAS)."""
    cp = b.cp
    n = MATMUL_SIZE
    hA = mt19937_values(n * n, 4).reshape(n, n)
    hB = mt19937_values(n * n, 5).reshape(n, n)
    want = hA.astype(np.float64) @ hB.astype(np.float64)
    A, B, C = cp.asarray(hA), cp.asarray(hB), cp.empty((n, n), cp.float32)
    matmul = b.kernel("matmul")
    tiles = (blocks_for(n, MATMUL_TPB), blocks_for(n, MATMUL_TPB))
    ni = np.int32(n)
    tf32 = os.environ.get("CUPY_TF32", "0")
    variants = [
        (IMPL, lambda: matmul(tiles, (MATMUL_TPB, MATMUL_TPB), (A, B, C, ni, ni, ni)),
         "RawKernel, 16x16 tiles"),
        (IMPL + " cp.matmul (cuBLAS)", lambda: cp.matmul(A, B, out=C),
         f"cp.matmul(A, B, out=C), CUPY_TF32={tf32}"),
    ]
    for impl, run, how in variants:
        C.fill(0)
        run()
        check_close(f"{impl} matmul", cp.asnumpy(C), want, 1e-4, 1e-3)
        reps = 200
        t = b.timer.event_median(reps, run)
        report("matmul", impl, t, reps,
               f"GFLOP/s={2 * n**3 / t / 1e9:.1f}; {gbps(3 * 4 * n * n, t)}; {how}")


def bench_reduction(b):
    """The RawKernel (into total, shape (1,)) and cp.sum (into s, shape ())."""
    cp = b.cp
    n = REDUCTION_SIZE
    hx = mt19937_values(n, 6)
    want = hx.astype(np.float64).sum()
    x = cp.asarray(hx)
    total, s = cp.zeros(1, cp.float32), cp.zeros((), cp.float32)
    block_sum = b.kernel("block_sum")
    grid, block, nn = (blocks_for(n, REDUCTION_TPB),), (REDUCTION_TPB,), np.int32(n)
    variants = [
        (IMPL, total, lambda: block_sum(grid, block, (x, total, nn)), lambda: total.fill(0),
         "RawKernel, 256 threads, atomic per block"),
        (IMPL + " cp.sum", s, lambda: cp.sum(x, out=s), None, "cp.sum(x, out=s)"),
    ]
    for impl, result, run, setup, how in variants:

        def verify(when, impl=impl, result=result):
            got = float(cp.asnumpy(result).reshape(-1)[0])
            if not abs(got - want) <= 1e-4 * want:
                fail(f"{impl} reduction ({when}): {got}, expected {want}")

        result.fill(0)
        run()
        verify("first run")
        reps = 200
        t = b.timer.event_median(reps, run, setup)
        verify("last timed run")
        report("reduction", impl, t, reps, f"{gbps(4 * n + 4, t)}; {how}")


def run_workloads(cp):
    b = Bench(cp)
    for workload in (bench_copy, bench_launch, bench_vector_add, bench_diffusion, bench_matmul,
                     bench_reduction):
        workload(b)  # each frees its device arrays on return


# ---- compile times ----------------------------------------------------------------------------

def compile_child(workload):
    """In a fresh process: the wall time of cp.RawKernel(that kernel's source) and its first launch
    up to a synchronize, after cupy is imported and the CUDA context exists. Prints
    COMPILE|seconds."""
    cp = import_cupy()
    small = 1024
    name = COMPILE_KERNELS[workload]
    if workload == "diffusion":
        args = (cp.zeros((16, 64), cp.float32), cp.zeros((16, 64), cp.float32), np.int32(16),
                np.int32(64), DIFFUSION_COEFF)
        shape = ((2, 2), (32, 8))
    elif workload == "matmul":
        args = tuple(cp.zeros((32, 32), cp.float32) for _ in range(3)) + (np.int32(32),) * 3
        shape = ((2, 2), (16, 16))
    elif workload == "reduction":
        args = (cp.zeros(small, cp.float32), cp.zeros(1, cp.float32), np.int32(small))
        shape = ((small // 256,), (256,))
    elif workload == "vector_add":
        args = tuple(cp.zeros(small, cp.float32) for _ in range(3)) + (np.int32(small),)
        shape = ((small // 256,), (256,))
    else:
        args, shape = (), ((1,), (1,))
    source = kernel_source(name)
    sync(cp)  # the context exists and is idle (cp.zeros above created it)

    start = time.perf_counter()
    k = cp.RawKernel(source, name)
    k(*shape, args)
    sync(cp)
    seconds = time.perf_counter() - start
    print(f"COMPILE|{seconds!r}", flush=True)


def cache_files(directory):
    return sum(len(files) for _, _, files in os.walk(directory))


def run_child(workload, cache_dir):
    env = dict(os.environ, CUPY_CACHE_DIR=cache_dir, CUDA_CACHE_DISABLE="1")
    env.pop("CUPY_CACHE_IN_MEMORY", None)
    cmd = [sys.executable, os.path.abspath(__file__), "--compile-child", workload]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("COMPILE|")]
    if proc.returncode != 0 or not lines:
        fail(f"the compile measurement of {workload} failed (exit {proc.returncode}):\n"
             f"{proc.stdout}{proc.stderr}")
    return float(lines[-1].split("|")[1])


def run_compile(reps):
    for workload in COMPILE_KERNELS:
        cold, warm, hits = [], [], 0
        for _ in range(reps):
            with tempfile.TemporaryDirectory(prefix="cupy-cache-") as cache_dir:
                cold.append(run_child(workload, cache_dir))
                after_cold = cache_files(cache_dir)
                warm.append(run_child(workload, cache_dir))
                hits += after_cold > 0 and cache_files(cache_dir) == after_cold
        base = ("cp.RawKernel(the kernel's source) and its first launch up to a synchronize, in a "
                "fresh process (cupy imported, context created); CUDA_CACHE_DISABLE=1")
        report(f"compile_cold:{workload}", IMPL, statistics.median(cold), reps,
               base + "; empty CUPY_CACHE_DIR (NVRTC)")
        hit = ("the warm process added no cache file (a hit)" if hits == reps else
               f"NO cache hit in {reps - hits} of {reps} (the warm process wrote cache files)")
        report(f"compile_warm:{workload}", IMPL, statistics.median(warm), reps,
               base + f"; the cold run's CUPY_CACHE_DIR; {hit}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time processes")
    ap.add_argument("--compile-reps", type=int, default=3,
                    help="cold/warm process pairs per kernel (default 3)")
    ap.add_argument("--compile-child", choices=sorted(COMPILE_KERNELS), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.compile_child:
        compile_child(args.compile_child)
        return
    cp = import_cupy()
    cp.zeros(1, cp.float32)  # the context exists before anything is timed
    sync(cp)
    run_workloads(cp)
    if not args.no_compile:
        run_compile(args.compile_reps)


if __name__ == "__main__":
    main()
