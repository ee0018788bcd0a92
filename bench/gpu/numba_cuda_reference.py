#!/usr/bin/env python3
"""numba_cuda_reference: the GPU benchmark's workloads in numba-cuda, on a real GPU.

The kernels are the very ones pyk compiles: bench/cpu/kernels/*.pyk (a .pyk file is a numba
script), loaded with importlib's SourceFileLoader as bench/cpu/numba_reference.py does, and the
empty kernels of bench/gpu/kernels/empty.pyk. Launched with the same shapes as the CUDA C++
reference (cuda_reference.cu) on device arrays, inputs the same mt19937 values as bench_common.h's
randomValues, every result checked against a serial reference before it is timed.

Measurements (RESULT lines, bench_common.h's format, implementation "numba-cuda"):
  * kernel time: 3 untimed launches, then the median of `reps` launches each between two CUDA
    events (cuda.event, Event.elapsed_time) on the default stream; setup between repetitions
    (resetting the diffusion field, zeroing the reduction's total) happens before the start event.
    Workloads and bytes as in cuda_reference.cu: vector_add, diffusion (all 100 steps between the
    events), diffusion_step, matmul, reduction, d2d_copy (DeviceNDArray.copy_to_device of a device
    array, 256 MiB), empty_kernel (event time of one launch, 1 block of 1 thread).
  * launch_overhead: host wall time per launch of an empty kernel without arguments: a
    synchronize, 1000 back-to-back launches `empty_kernel[1, 1]()` and a synchronize, divided by
    1000, median of 21 batches. launch_overhead_3args: the same with three device-array arguments
    (numba types and marshals each array at every launch).
  * compile_cold:W / compile_warm:W for each kernel W (vector_add, diffusion, matmul, reduction,
    empty): wall time of loading the .pyk module and the kernel's first launch up to a synchronize
    (typing, NVVM, linking, module load, the launch itself), each in a fresh Python process that
    has already imported numba and created its CUDA context. Cold: an empty NUMBA_CACHE_DIR.
    Warm: a second process on the cache the cold one left (the dispatcher's enable_caching(),
    i.e. what cache=True does; the note says whether numba reports a cache hit). The driver's own
    JIT cache is off in both (CUDA_CACHE_DISABLE=1). Median over --compile-reps pairs.
The notes carry GB/s=X (GFLOP/s=X for matmul), computed from the bytes listed in cuda_reference.cu.

numba's low-occupancy warning is switched off (NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0, unless set):
its check would run at each 1-block launch of the overhead measurements.

usage: python3 numba_cuda_reference.py [--no-compile] [--compile-reps N]
       python3 numba_cuda_reference.py --simulator-check
         runs every workload at a tiny size under numba's CUDA simulator (sets
         NUMBA_ENABLE_CUDASIM=1) to check this script's logic and the results; it prints
         SIMCHECK lines, no RESULT lines (the simulator's times mean nothing).
Without a GPU (cuda.is_available() false) it fails with exit status 1.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

# numba-cuda 0.30 registers an overload of np.row_stack, which NumPy 2.4 removed (it was an alias
# of np.vstack): without the alias `from numba import cuda` fails on such a NumPy (seen on the H200
# machine, NumPy 2.5.2). It must be there before numba is imported.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_common import (DIFFUSION_COEFF, DIFFUSION_COLS, DIFFUSION_ROWS, DIFFUSION_STEPS,  # noqa: E402
                          MATMUL_SIZE, REDUCTION_SIZE, VECTOR_SIZE, check_close, fail, load_pyk,
                          mt19937_values, reference_diffusion, report)

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_KERNELS = os.path.join(HERE, "..", "cpu", "kernels")
GPU_KERNELS = os.path.join(HERE, "kernels")
IMPL = "numba-cuda"

COPY_BYTES = 256 << 20

# kernel name -> (.pyk file, function) for the compile measurements
COMPILE_KERNELS = {
    "vector_add": (os.path.join(CPU_KERNELS, "vector_add.pyk"), "vector_add"),
    "diffusion": (os.path.join(CPU_KERNELS, "diffusion.pyk"), "diffusion_step"),
    "matmul": (os.path.join(CPU_KERNELS, "matmul.pyk"), "matmul"),
    "reduction": (os.path.join(CPU_KERNELS, "reduction.pyk"), "block_sum"),
    "empty": (os.path.join(GPU_KERNELS, "empty.pyk"), "empty_kernel"),
}


class Sizes:
    """The problem sizes and repetition counts: the benchmark's, or tiny ones for the simulator."""

    def __init__(self, tiny):
        if tiny:  # boundaries that are not multiples of the block shapes, few repetitions
            self.vector, self.rows, self.cols, self.steps = 1100, 20, 70, 2
            self.matmul, self.reduction, self.copy_bytes = 40, 1000, 1 << 20
            self.reps = {"vector_add": 2, "diffusion": 2, "diffusion_step": 2, "matmul": 2,
                         "reduction": 2, "d2d_copy": 2, "empty_kernel": 2}
            self.per_batch, self.batches = 5, 3
        else:
            self.vector, self.rows, self.cols = VECTOR_SIZE, DIFFUSION_ROWS, DIFFUSION_COLS
            self.steps, self.matmul, self.reduction = DIFFUSION_STEPS, MATMUL_SIZE, REDUCTION_SIZE
            self.copy_bytes = COPY_BYTES
            self.reps = {"vector_add": 200, "diffusion": 30, "diffusion_step": 200, "matmul": 200,
                         "reduction": 200, "d2d_copy": 100, "empty_kernel": 1000}
            self.per_batch, self.batches = 1000, 21


def gbps(nbytes, seconds):
    return f"GB/s={nbytes / seconds / 1e9:.1f}" if seconds > 0 else "GB/s=?"


def blocks_for(n, per):
    return (n + per - 1) // per


def import_cuda(simulator):
    """numba.cuda, after checking that it can run here."""
    os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
    if simulator:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    elif os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        fail("NUMBA_ENABLE_CUDASIM=1 is set: this benchmark measures a real GPU (use "
             "--simulator-check for a logic check under the simulator)")
    try:
        from numba import cuda
    except ImportError as e:
        fail(f"numba's CUDA target cannot be imported ({e}); install numba-cuda")
    if not cuda.is_available():
        fail("numba-cuda finds no usable GPU (numba.cuda.is_available() is False): no device, "
             "no driver, or no CUDA toolkit libraries numba can load (see `numba -s`)")
    if simulator:
        warnings.simplefilter("ignore")  # "Simulator timings are bogus", and so they are
    return cuda


def version_note(cuda, simulator):
    if simulator:
        return "simulator"
    import numba
    try:
        from importlib.metadata import version
        nc = version("numba-cuda")
    except Exception:  # noqa: BLE001 - numba's bundled CUDA target has no numba-cuda package
        nc = "bundled with numba"
    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else dev.name
    return f"numba {numba.__version__}, numba-cuda {nc}, {name}"


# ---- kernel times -----------------------------------------------------------------------------

class Timer:
    def __init__(self, cuda, simulator):
        self.cuda = cuda
        self.simulator = simulator
        self.start = cuda.event()
        self.stop = cuda.event()

    def event_median(self, reps, body, setup=None):
        """Median seconds of `reps` event-timed body() calls, after 3 untimed ones; setup() runs
        before each, before the start event."""
        for _ in range(3):
            if setup is not None:
                setup()
            body()
        self.cuda.synchronize()
        times = []
        for _ in range(reps):
            if setup is not None:
                setup()
            self.start.record()
            body()
            self.stop.record()
            self.stop.synchronize()
            times.append(self.start.elapsed_time(self.stop) * 1e-3)
        return statistics.median(times)

    def host_per_launch(self, launch, per_batch, batches):
        """Median over batches of the host wall time of per_batch back-to-back launches and a
        synchronize, divided by per_batch."""
        cuda = self.cuda
        for _ in range(per_batch):  # warm-up
            launch()
        cuda.synchronize()
        times = []
        for _ in range(batches):
            cuda.synchronize()
            start = time.perf_counter()
            for _ in range(per_batch):
                launch()
            cuda.synchronize()
            times.append((time.perf_counter() - start) / per_batch)
        return statistics.median(times)


class Bench:
    """What every workload needs: numba.cuda, the sizes, the timer, and where lines go."""

    def __init__(self, cuda, sizes, simulator):
        self.cuda = cuda
        self.sizes = sizes
        self.simulator = simulator
        self.timer = Timer(cuda, simulator)
        self.version = version_note(cuda, simulator)

    def emit(self, workload, seconds, reps, note):
        if self.simulator:
            print(f"SIMCHECK|{workload}|checked|{reps} repetitions run (simulator: no timing)",
                  flush=True)
        else:
            report(workload, IMPL, seconds, reps, note)


def bench_copy(b):
    cuda, nbytes = b.cuda, b.sizes.copy_bytes
    src = cuda.to_device(np.arange(nbytes // 4, dtype=np.float32))
    dst = cuda.device_array(nbytes // 4, np.float32)
    reps = b.sizes.reps["d2d_copy"]
    t = b.timer.event_median(reps, lambda: dst.copy_to_device(src))
    if not np.array_equal(dst.copy_to_host(), src.copy_to_host()):
        fail("numba-cuda device-to-device copy differs from its source")
    b.emit("d2d_copy", t, reps, f"{gbps(2 * nbytes, t)}; copy_to_device of a device array, "
           f"{nbytes >> 20} MiB, bytes read + written; {b.version}")


def bench_launch(b):
    """The empty kernels: event time of one launch, and host time per launch."""
    cuda, sizes = b.cuda, b.sizes
    m = load_pyk(os.path.join(GPU_KERNELS, "empty.pyk"))
    reps = sizes.reps["empty_kernel"]
    t = b.timer.event_median(reps, lambda: m.empty_kernel[1, 1]())
    b.emit("empty_kernel", t, reps, "event time of one launch, 1 block of 1 thread")
    x, y, z = (cuda.device_array(1, np.float32) for _ in range(3))
    note = (f"host wall time per launch: {sizes.per_batch} back-to-back launches and a "
            f"synchronize, median of {sizes.batches} batches; 1 block of 1 thread")
    t = b.timer.host_per_launch(lambda: m.empty_kernel[1, 1](), sizes.per_batch, sizes.batches)
    b.emit("launch_overhead", t, sizes.batches, note + "; no arguments")
    t = b.timer.host_per_launch(lambda: m.empty_kernel_3args[1, 1](x, y, z), sizes.per_batch,
                                sizes.batches)
    b.emit("launch_overhead_3args", t, sizes.batches, note + "; 3 device arrays")


def bench_vector_add(b):
    cuda = b.cuda
    m = load_pyk(os.path.join(CPU_KERNELS, "vector_add.pyk"))
    n = b.sizes.vector
    a, bb = mt19937_values(n, 1), mt19937_values(n, 2)
    da, db, dout = cuda.to_device(a), cuda.to_device(bb), cuda.device_array(n, np.float32)
    blocks = blocks_for(n, m.TPB)

    def run():
        m.vector_add[blocks, m.TPB](da, db, dout)

    run()
    if not np.array_equal(dout.copy_to_host(), a + bb):
        fail("numba-cuda vector_add differs from a + b")
    reps = b.sizes.reps["vector_add"]
    t = b.timer.event_median(reps, run)
    b.emit("vector_add", t, reps, f"{gbps(3 * 4 * n, t)}; {m.TPB} threads/block")


def bench_diffusion(b):
    """All the steps between the events, and one step."""
    cuda = b.cuda
    m = load_pyk(os.path.join(CPU_KERNELS, "diffusion.pyk"))
    rows, cols, steps = b.sizes.rows, b.sizes.cols, b.sizes.steps
    init = mt19937_values(rows * cols, 3).reshape(rows, cols)
    dinit = cuda.to_device(init)
    df, dg = cuda.device_array_like(init), cuda.device_array_like(init)
    grid, block = (blocks_for(cols, m.BX), blocks_for(rows, m.BY)), (m.BX, m.BY)
    step = m.diffusion_step[grid, block]
    assert steps % 2 == 0  # the result ends in df

    def run_steps():
        for s in range(steps):
            if s % 2 == 0:
                step(df, dg, DIFFUSION_COEFF)
            else:
                step(dg, df, DIFFUSION_COEFF)

    def reset():
        df.copy_to_device(dinit)

    reset()
    run_steps()
    check_close("numba-cuda diffusion", df.copy_to_host(),
                reference_diffusion(init, steps, DIFFUSION_COEFF), 1e-5, 1e-5)
    reps = b.sizes.reps["diffusion"]
    t = b.timer.event_median(reps, run_steps, reset)
    b.emit("diffusion", t, reps, f"{gbps(steps * 2 * 4 * rows * cols, t)}; {steps} launches "
           f"between the events; {m.BX}x{m.BY} blocks")
    reps = b.sizes.reps["diffusion_step"]
    t = b.timer.event_median(reps, lambda: step(df, dg, DIFFUSION_COEFF))
    b.emit("diffusion_step", t, reps, f"{gbps(2 * 4 * rows * cols, t)}; one step")


def bench_matmul(b):
    cuda = b.cuda
    m = load_pyk(os.path.join(CPU_KERNELS, "matmul.pyk"))
    n = b.sizes.matmul
    A = mt19937_values(n * n, 4).reshape(n, n)
    B = mt19937_values(n * n, 5).reshape(n, n)
    dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
    tiles = blocks_for(n, m.TPB)

    def run():
        m.matmul[(tiles, tiles), (m.TPB, m.TPB)](dA, dB, dC)

    run()
    check_close("numba-cuda matmul", dC.copy_to_host(), A.astype(np.float64) @ B.astype(np.float64),
                1e-4, 1e-3)
    reps = b.sizes.reps["matmul"]
    t = b.timer.event_median(reps, run)
    flops = f"GFLOP/s={2 * n**3 / t / 1e9:.1f}" if t > 0 else "GFLOP/s=?"
    b.emit("matmul", t, reps, f"{flops}; {gbps(3 * 4 * n * n, t)}; {m.TPB}x{m.TPB} tiles")


def bench_reduction(b):
    cuda = b.cuda
    m = load_pyk(os.path.join(CPU_KERNELS, "reduction.pyk"))
    n = b.sizes.reduction
    x = mt19937_values(n, 6)
    want = x.astype(np.float64).sum()
    dx, dt = cuda.to_device(x), cuda.device_array(1, np.float32)
    zero = np.zeros(1, np.float32)
    blocks = blocks_for(n, m.TPB)

    def reset():
        dt.copy_to_device(zero)

    def run():
        m.block_sum[blocks, m.TPB](dx, dt)

    def verify(when):
        got = dt.copy_to_host()[0]
        if not abs(got - want) <= 1e-4 * want:
            fail(f"numba-cuda reduction ({when}): {got}, expected {want}")

    reset()
    run()
    verify("first run")
    reps = b.sizes.reps["reduction"]
    t = b.timer.event_median(reps, run, reset)
    verify("last timed run")
    b.emit("reduction", t, reps, f"{gbps(4 * n + 4, t)}; {m.TPB} threads, atomic per block")


def run_workloads(cuda, sizes, simulator):
    b = Bench(cuda, sizes, simulator)
    for workload in (bench_copy, bench_launch, bench_vector_add, bench_diffusion, bench_matmul,
                     bench_reduction):
        workload(b)  # each frees its device arrays on return


# ---- compile times ----------------------------------------------------------------------------

def compile_child(kernel, simulator):
    """In a fresh process: the wall time of loading the kernel's .pyk and its first launch up to a
    synchronize, after numba is imported and the CUDA context exists. Prints
    COMPILE|seconds|cache hits|cache misses (hits and misses: -1 where numba cannot tell)."""
    cuda = import_cuda(simulator)
    cuda.current_context()
    small = 1024
    if kernel == "diffusion":
        args = (cuda.device_array((16, 64), np.float32), cuda.device_array((16, 64), np.float32),
                DIFFUSION_COEFF)
        shape = ((2, 2), (32, 8))
    elif kernel == "matmul":
        args = tuple(cuda.device_array((32, 32), np.float32) for _ in range(3))
        shape = ((2, 2), (16, 16))
    elif kernel == "reduction":
        args = (cuda.device_array(small, np.float32), cuda.to_device(np.zeros(1, np.float32)))
        shape = (small // 256, 256)
    elif kernel == "vector_add":
        args = tuple(cuda.device_array(small, np.float32) for _ in range(3))
        shape = (small // 256, 256)
    else:
        args, shape = (), (1, 1)
    cuda.synchronize()
    path, function = COMPILE_KERNELS[kernel]

    start = time.perf_counter()
    dispatcher = getattr(load_pyk(path), function)
    if hasattr(dispatcher, "enable_caching"):
        dispatcher.enable_caching()  # what cache=True does, for a kernel loaded from a .pyk
    dispatcher[shape](*args)
    cuda.synchronize()
    seconds = time.perf_counter() - start

    hits = misses = -1
    stats = getattr(dispatcher, "stats", None)
    if stats is not None and hasattr(stats, "cache_hits"):
        hits, misses = sum(stats.cache_hits.values()), sum(stats.cache_misses.values())
    print(f"COMPILE|{seconds!r}|{hits}|{misses}", flush=True)


def run_child(kernel, cache_dir, simulator):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, CUDA_CACHE_DISABLE="1")
    cmd = [sys.executable, os.path.abspath(__file__), "--compile-child", kernel]
    if simulator:
        cmd.append("--simulator-check")
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("COMPILE|")]
    if proc.returncode != 0 or not lines:
        fail(f"the compile measurement of {kernel} failed (exit {proc.returncode}):\n"
             f"{proc.stdout}{proc.stderr}")
    _, seconds, hits, misses = lines[-1].split("|")
    return float(seconds), int(hits), int(misses)


def run_compile(reps, simulator):
    for kernel in COMPILE_KERNELS:
        cold, warm, warm_hits, cold_hits = [], [], [], []
        for _ in range(reps):
            with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
                seconds, hits, _ = run_child(kernel, cache_dir, simulator)
                cold.append(seconds)
                cold_hits.append(hits)
                seconds, hits, _ = run_child(kernel, cache_dir, simulator)
                warm.append(seconds)
                warm_hits.append(hits)
        if simulator:
            print(f"SIMCHECK|compile:{kernel}|checked|{reps} cold and warm child processes ran",
                  flush=True)
            continue
        if any(h > 0 for h in cold_hits):
            fail(f"compile_cold:{kernel}: numba reported a cache hit in an empty cache")
        base = ("load of the .pyk and first launch up to a synchronize, in a fresh process "
                "(numba imported, context created); CUDA_CACHE_DISABLE=1")
        report(f"compile_cold:{kernel}", IMPL, statistics.median(cold), reps,
               base + "; empty NUMBA_CACHE_DIR")
        if all(h > 0 for h in warm_hits):
            hit = "numba reports a cache hit"
        elif all(h < 0 for h in warm_hits):
            hit = "numba cannot tell whether the cache was hit"
        else:
            hit = f"NO cache hit in {sum(h <= 0 for h in warm_hits)} of {reps} (recompiled)"
        report(f"compile_warm:{kernel}", IMPL, statistics.median(warm), reps,
               base + f"; the cold run's NUMBA_CACHE_DIR (enable_caching); {hit}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--simulator-check", action="store_true",
                    help="tiny problems under NUMBA_ENABLE_CUDASIM=1, a logic check only")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time processes")
    ap.add_argument("--compile-reps", type=int, default=3,
                    help="cold/warm process pairs per kernel (default 3)")
    ap.add_argument("--compile-child", choices=sorted(COMPILE_KERNELS), help=argparse.SUPPRESS)
    args = ap.parse_args()
    simulator = args.simulator_check
    if args.compile_child:
        compile_child(args.compile_child, simulator)
        return
    cuda = import_cuda(simulator)
    cuda.current_context()  # the context exists before anything is timed
    sizes = Sizes(tiny=simulator)
    run_workloads(cuda, sizes, simulator)
    if not args.no_compile:
        run_compile(1 if simulator else args.compile_reps, simulator)
    if simulator:
        print("simulator check passed (logic and results only; nothing was measured)",
              file=sys.stderr)


if __name__ == "__main__":
    main()
