#!/usr/bin/env python3
"""numba_reference: the CPU benchmark's workloads in numba, two ways.

  * @njit(parallel=True) with prange, written for the CPU as a numba user would (no fastmath):
    vector add, diffusion over rows with a contiguous inner loop, matmul in i-k-j order, a prange
    sum reduction. Same sizes as bench_common.h.
  * numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1, in a subprocess) running the very kernels of
    bench/cpu/kernels/*.pyk (a .pyk file is a numba script). The simulator runs every CUDA thread
    as a Python thread, so it gets a problem of 16 blocks; its median time is scaled linearly by
    the work (elements, cells x steps, n^3) to the benchmark's size, as each RESULT line's note says.

Prints RESULT|workload|implementation|median seconds|repetitions|note lines (bench_common.h's).
usage: /usr/bin/python3 numba_reference.py [--parallel-only | --simulator-only]
"""
import os
import subprocess
import sys

import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_common import (DIFFUSION_COEFF, DIFFUSION_COLS, DIFFUSION_ROWS, DIFFUSION_STEPS,  # noqa: E402
                          MATMUL_SIZE, REDUCTION_SIZE, VECTOR_SIZE, check_close, fail, load_pyk,
                          median_seconds, reference_diffusion, report)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")



def random_values(n, seed):
    return np.random.default_rng(seed).random(n, dtype=np.float32)


def first_call(workload, call):
    """The first call (numba's compile and one run), reported as numba-parallel-first-call."""
    start = time.perf_counter()
    result = call()
    report(workload, "numba-parallel-first-call", time.perf_counter() - start, 1,
           "the compile and one call")
    return result


def run_parallel():
    import numba
    from numba import njit, prange

    @njit(parallel=True)
    def vector_add(a, b, out):
        for i in prange(a.size):
            out[i] = a[i] + b[i]

    @njit(parallel=True)
    def diffusion_step(f, out, coeff):
        rows, cols = f.shape
        four = np.float32(4.0)
        for r in prange(rows):
            up = max(r - 1, 0)
            down = min(r + 1, rows - 1)
            v0 = f[r, 0]
            right = f[r, 1] if cols > 1 else v0
            out[r, 0] = v0 - coeff * (four * v0 - f[up, 0] - f[down, 0] - v0 - right)
            for c in range(1, cols - 1):
                v = f[r, c]
                lap = four * v - f[up, c] - f[down, c] - f[r, c - 1] - f[r, c + 1]
                out[r, c] = v - coeff * lap
            if cols > 1:
                last = cols - 1
                vl = f[r, last]
                out[r, last] = vl - coeff * (four * vl - f[up, last] - f[down, last]
                                             - f[r, last - 1] - vl)

    @njit(parallel=True)
    def matmul(A, B, C):
        n, m = A.shape
        p = B.shape[1]
        for i in prange(n):
            for j in range(p):
                C[i, j] = 0
            for k in range(m):
                aik = A[i, k]
                for j in range(p):
                    C[i, j] += aik * B[k, j]

    @njit(parallel=True)
    def total(a):
        s = np.float32(0.0)
        for i in prange(a.size):
            s += a[i]
        return s

    # vector add
    a, b = random_values(VECTOR_SIZE, 1), random_values(VECTOR_SIZE, 2)
    out = np.empty_like(a)
    first_call("vector_add", lambda: vector_add(a, b, out))
    if not np.array_equal(out, a + b):
        fail("numba vector_add")
    note = f"threads {numba.get_num_threads()}, layer {numba.threading_layer()}"
    reps = 30
    report("vector_add", "numba-parallel",
           median_seconds(reps, lambda: vector_add(a, b, out)), reps, note)

    # diffusion
    init = random_values(DIFFUSION_ROWS * DIFFUSION_COLS, 3).reshape(DIFFUSION_ROWS, DIFFUSION_COLS)
    bufs = [init.copy(), np.empty_like(init)]

    def steps():
        for _ in range(DIFFUSION_STEPS):
            diffusion_step(bufs[0], bufs[1], DIFFUSION_COEFF)
            bufs.reverse()

    def reset():
        bufs[0][...] = init

    first_call("diffusion", lambda: diffusion_step(bufs[0], bufs[1], DIFFUSION_COEFF))
    reset()
    steps()
    check_close("numba diffusion", bufs[0],
                reference_diffusion(init, DIFFUSION_STEPS, DIFFUSION_COEFF), 1e-5, 1e-5)
    reps = 5
    report("diffusion", "numba-parallel", median_seconds(reps, steps, reset), reps, note)

    # matmul
    n = MATMUL_SIZE
    A = random_values(n * n, 4).reshape(n, n)
    B = random_values(n * n, 5).reshape(n, n)
    C = np.empty_like(A)
    first_call("matmul", lambda: matmul(A, B, C))
    check_close("numba matmul", C, A.astype(np.float64) @ B.astype(np.float64), 1e-4, 1e-3)
    reps = 20
    report("matmul", "numba-parallel", median_seconds(reps, lambda: matmul(A, B, C)), reps, note)

    # reduction
    x = random_values(REDUCTION_SIZE, 6)
    want = x.astype(np.float64).sum()
    got = first_call("reduction", lambda: total(x))
    if abs(got - want) > 1e-4 * want:
        fail(f"numba reduction: {got}, expected {want}")
    reps = 30
    report("reduction", "numba-parallel", median_seconds(reps, lambda: total(x)), reps, note)


# ---- the CUDA simulator ----------------------------------------------------------------------

def load_kernel(name):
    return load_pyk(os.path.join(KERNELS, name + ".pyk"))


def run_simulator():
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        fail("the simulator run needs NUMBA_ENABLE_CUDASIM=1 in the environment")
    from numba import cuda
    reps = 3
    note = "numba CUDA simulator; measured on {}, scaled x{:g} by work"

    # vector add: 16 blocks of 256 threads
    m = load_kernel("vector_add")
    n = 16 * 256
    a, b = random_values(n, 1), random_values(n, 2)
    da, db, dout = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n, np.float32)
    run = lambda: m.vector_add[n // 256, 256](da, db, dout)
    run()
    if not np.array_equal(dout.copy_to_host(), a + b):
        fail("simulator vector_add")
    scale = VECTOR_SIZE / n
    report("vector_add", "numba-simulator", median_seconds(reps, run) * scale, reps,
           note.format(f"{n} elements", scale))

    # diffusion: a 64 x 64 field (2 x 8 blocks of 32 x 8), one step
    m = load_kernel("diffusion")
    rows = cols = 64
    init = random_values(rows * cols, 3).reshape(rows, cols)
    df, dg = cuda.to_device(init), cuda.device_array_like(init)
    run = lambda: m.diffusion_step[(cols // 32, rows // 8), (32, 8)](df, dg, DIFFUSION_COEFF)
    run()
    check_close("simulator diffusion", dg.copy_to_host(),
                reference_diffusion(init, 1, DIFFUSION_COEFF), 1e-5, 1e-5)
    scale = (DIFFUSION_ROWS * DIFFUSION_COLS * DIFFUSION_STEPS) / (rows * cols)
    report("diffusion", "numba-simulator", median_seconds(reps, run) * scale, reps,
           note.format(f"{rows}x{cols}, 1 step", scale))

    # matmul: 64 x 64 (4 x 4 blocks of 16 x 16)
    m = load_kernel("matmul")
    n = 64
    A = random_values(n * n, 4).reshape(n, n)
    B = random_values(n * n, 5).reshape(n, n)
    dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
    run = lambda: m.matmul[(n // 16, n // 16), (16, 16)](dA, dB, dC)
    run()
    check_close("simulator matmul", dC.copy_to_host(), A.astype(np.float64) @ B.astype(np.float64),
                1e-4, 1e-3)
    scale = (MATMUL_SIZE / n) ** 3
    report("matmul", "numba-simulator", median_seconds(reps, run) * scale, reps,
           note.format(f"{n}x{n} (n^3 work)", scale))

    # reduction: 16 blocks of 256
    m = load_kernel("reduction")
    n = 16 * 256
    x = random_values(n, 6)
    dx, dt = cuda.to_device(x), cuda.to_device(np.zeros(1, np.float32))
    zero = np.zeros(1, np.float32)
    run = lambda: m.block_sum[n // 256, 256](dx, dt)
    run()
    want = x.astype(np.float64).sum()
    if abs(dt.copy_to_host()[0] - want) > 1e-4 * want:
        fail(f"simulator reduction: {dt.copy_to_host()[0]}, expected {want}")
    scale = REDUCTION_SIZE / n
    report("reduction", "numba-simulator",
           median_seconds(reps, run, lambda: dt.copy_to_device(zero)) * scale, reps,
           note.format(f"{n} elements", scale))


def main():
    args = sys.argv[1:]
    if "--simulator-only" in args:
        run_simulator()
        return
    run_parallel()
    if "--parallel-only" in args:
        return
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    result = subprocess.run([sys.executable, os.path.abspath(__file__), "--simulator-only"],
                            env=env)
    if result.returncode != 0:
        fail("the CUDA simulator run failed")


if __name__ == "__main__":
    main()
