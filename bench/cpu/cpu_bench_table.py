#!/usr/bin/env python3
"""cpu_bench_table: the Markdown table of run_cpu_bench.sh from the RESULT lines of the benchmark
programs (RESULT|workload|implementation|median seconds|repetitions|note)."""
import argparse
import statistics

# (key, label) -- every workload has issue 31's goals: at least as fast as hand OpenMP and as numba
# parallel (where numba has the workload)
WORKLOADS = [
    ("vector_add", "vector add (10M float32)"),
    ("diffusion", "2-D diffusion, shared-memory tiles (2000x2000, 100 steps)"),
    ("matmul", "tiled matmul (512x512, 16x16 tiles)"),
    ("reduction", "block reduction (16M float32, 256 threads, atomic per block)"),
    ("reduction_helper", "block reduction in a device function (as `reduction`)"),
    ("histogram", "shared-memory histogram, atomics (16M int32, 256 bins, 64 blocks)"),
]
GOALS = [("openmp", 1.0), ("numba-parallel", 1.0)]
GOAL_NAMES = {"openmp": "OpenMP", "numba-parallel": "numba"}
# (column, implementation) in table order
COLUMNS = [("pyk CPU (mode)", "pyk"), ("OpenMP", "openmp"), ("numba parallel", "numba-parallel"),
           ("pyk first launch", "pyk-first-launch"),
           ("numba first call", "numba-parallel-first-call"), ("pyk fibers", "pyk-fiber"),
           ("numba simulator", "numba-simulator")]
# Columns whose cells show the spread over rounds, [min-max].
SPREAD = {"pyk", "openmp", "numba-parallel"}


def parse(paths):
    """(workload, implementation) -> (median over rounds of the median seconds, repetitions per
    round, rounds, note)."""
    runs = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.startswith("RESULT|"):
                    continue
                _, workload, impl, seconds, reps, note = line.rstrip("\n").split("|", 5)
                runs.setdefault((workload, impl), []).append((float(seconds), int(reps), note))
    return {key: (statistics.median(s for s, _, _ in v), v[0][1], len(v), v[0][2],
                  min(s for s, _, _ in v), max(s for s, _, _ in v))
            for key, v in runs.items()}


def fmt_time(seconds):
    ms = seconds * 1e3
    if seconds >= 3600:
        return f"{seconds:,.0f} s ({seconds / 3600:.1f} h)"
    if seconds >= 100:
        return f"{seconds:,.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms"


def mode_of(note):
    for part in note.split("; "):
        if part.startswith("mode: "):
            return part[len("mode: "):]
    return "?"


# Bytes a memory-bound workload moves per run (float32): vector add reads two arrays and writes
# one, as STREAM's triad does; the reduction reads its array once.
BYTES = {"vector_add": 12 * 10_000_000, "reduction": 4 * 16 * 1024 * 1024,
         "reduction_helper": 4 * 16 * 1024 * 1024, "histogram": 4 * 16 * 1024 * 1024}


def bandwidth_lines(r):
    """The memory-bound workloads as a share of STREAM's triad on this machine."""
    triad = r[("stream_triad", "openmp")]
    triad_bytes = int(triad[3].rsplit("bytes ", 1)[1])
    triad_gbs = triad_bytes / triad[0] / 1e9
    lines = [f"- bandwidth: STREAM triad (OpenMP, float32, {triad_bytes // 12:,} elements) "
             f"{triad_gbs:.1f} GB/s"]
    if ("stream_copy", "openmp") in r:
        copy = r[("stream_copy", "openmp")]
        lines[0] += f", copy {int(copy[3].rsplit('bytes ', 1)[1]) / copy[0] / 1e9:.1f} GB/s"
    lines[0] += "; memory-bound workloads as a share of the triad's bandwidth:"
    for key, label in WORKLOADS:
        if key not in BYTES:
            continue
        cells = []
        for impl, name in (("pyk", "pyk"), ("openmp", "OpenMP"), ("numba-parallel", "numba")):
            if (key, impl) in r:
                gbs = BYTES[key] / r[(key, impl)][0] / 1e9
                cells.append(f"{name} {gbs:.1f} GB/s ({100 * gbs / triad_gbs:.0f}%)")
        lines.append(f"  - {label}: " + ", ".join(cells))
    return lines


def load_table(r):
    """The rounds run under a competing load (`-load` lines), beside the quiet ones: each
    implementation's time and how much it lost (loaded over quiet); the goal is that pyk loses no
    more than OpenMP."""
    if not any(impl.endswith("-load") for _, impl in r):
        return []
    lines = ["", "Under a competing load (a busy process pinned to core 0, started by "
             "run_cpu_bench.sh; same rounds, interleaved): median time, and the factor lost "
             "against the quiet rounds above.", "",
             "| workload | pyk | OpenMP | numba parallel | pyk lost | OpenMP lost | numba lost | "
             "goal: pyk loses no more than OpenMP |", "|---|---|---|---|---|---|---|---|"]
    for key, label in WORKLOADS:
        row, lost = [label], {}
        for impl in ("pyk", "openmp", "numba-parallel"):
            loaded = r.get((key, impl + "-load"))
            quiet = r.get((key, impl))
            row.append(fmt_time(loaded[0]) if loaded else "—")
            if loaded and quiet:
                lost[impl] = loaded[0] / quiet[0]
        for impl in ("pyk", "openmp", "numba-parallel"):
            row.append(f"{lost[impl]:.2f}×" if impl in lost else "—")
        if "pyk" in lost and "openmp" in lost:
            row.append("met" if lost["pyk"] <= lost["openmp"] else "**missed**")
        else:
            row.append("—")
        lines.append("| " + " | ".join(row) + " |")
    return lines + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    for opt in ("nproc", "threads", "cpu", "date", "load", "commit", "compiler", "numba",
                "command"):
        ap.add_argument("--" + opt, default="?")
    args = ap.parse_args()
    r = parse(args.files)

    out = []
    out.append("# pyk CPU backend against OpenMP and numba")
    out.append("")
    out.append(f"- machine: {args.nproc} cores, {args.cpu}; load average {args.load} "
               "(1/5/15 min, before -> after)")
    out.append(f"- threads: {args.threads}")
    out.append(f"- date: {args.date}; pyk {args.commit}")
    out.append(f"- {args.compiler}; {args.numba}")
    out.append(f"- reproduce: `{args.command}`")
    out.append("")
    rounds = max(v[2] for v in r.values()) if r else 0
    out.append(f"Median wall time of one run of the workload (diffusion: all 100 steps): the "
               f"median over repetitions within a run, then over {rounds} interleaved rounds, "
               "with the spread over the rounds [fastest-slowest] (fibers and the simulator: "
               "one round). First launch / first call: pyk's first launch of the kernel (typing, "
               "emission, the host compiler with the precompiled support header, loading, one "
               "launch; an empty disk cache every round) and numba's first call (its compile and "
               "one call), median over the rounds. Ratios are speed ratios: the other "
               "implementation's time over pyk's (>= 1 means pyk is faster). Fiber slowdown: "
               "pyk fibers' time over pyk's own mode's.")
    out.append("")
    header = ["workload"] + [c for c, _ in COLUMNS] + [
        "pyk/OpenMP", "pyk/numba", "goal", "fiber slowdown"]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    notes = []
    for key, label in WORKLOADS:
        row = [label]
        for column, impl in COLUMNS:
            if (key, impl) not in r:
                row.append("—")
                continue
            seconds, reps, rounds, note, fastest, slowest = r[(key, impl)]
            cell = fmt_time(seconds)
            if impl == "pyk":
                cell += f" ({mode_of(note)})"
            if impl in SPREAD and rounds > 1:
                cell += f" [{fmt_time(fastest)}-{fmt_time(slowest)}]"
            if "scaled" in note:
                cell += "*"
                notes.append(f"{label}, {column}: {note}")
            row.append(cell)
        pyk = r.get((key, "pyk"), (None,))[0]
        omp = r.get((key, "openmp"), (None,))[0]
        nb = r.get((key, "numba-parallel"), (None,))[0]
        fib = r.get((key, "pyk-fiber"), (None,))[0]
        vs_omp = omp / pyk if pyk and omp else None
        vs_nb = nb / pyk if pyk and nb else None
        row.append(f"{vs_omp:.2f}" if vs_omp is not None else "—")
        row.append(f"{vs_nb:.2f}" if vs_nb is not None else "—")
        goals = []
        for against, least in GOALS:
            ratio = vs_omp if against == "openmp" else vs_nb
            if ratio is not None:
                met = ratio >= least
                goals.append(f"≥ {least:.1f}× {GOAL_NAMES[against]}: "
                             f"{'met' if met else '**missed**'}")
        row.append("; ".join(goals) if goals else "—")
        row.append(f"{fib / pyk:.1f}×" if pyk and fib else "—")
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    out.extend(load_table(r)[1:])  # (the main table ends with its blank line)
    out.append("Notes:")
    out.append("")
    out.append("- pyk: the kernels of `bench/cpu/kernels/*.pyk`, launched from C++ "
               "(`bench/cpu/cpu_backend_bench.cpp`); the first launch (which compiles) is not "
               "timed; results checked against a serial reference. Mode: `loop` (no barrier), "
               "`split` (loop fission at each barrier); `pyk fibers` forces every kernel onto "
               "fibers with `PYK_CPU_MODE=fiber`.")
    out.append("- OpenMP: `bench/cpu/openmp_reference.cpp`, written for the CPU (not transliterated "
               "from the CUDA kernels): `-O3 -march=native -fopenmp`, GNU dialect.")
    out.append("- numba parallel: `@njit(parallel=True)` with `prange`, no fastmath "
               "(`bench/cpu/numba_reference.py`). numba simulator: the same `.pyk` kernels under "
               "`NUMBA_ENABLE_CUDASIM=1`, on 16 blocks, scaled.")
    out.append("- `*`: measured on a smaller problem and scaled linearly by the work:")
    for n in notes:
        out.append(f"  - {n}")
    if ("stream_triad", "openmp") in r:
        out.extend(bandwidth_lines(r))
    if ("launch_overhead", "pyk") in r:
        seconds, reps, rounds, note = r[("launch_overhead", "pyk")][:4]
        out.append(f"- pyk's cost of one launch (vector_add, {note}): "
                   f"{seconds * 1e6:.1f} µs (median of {reps}); diffusion launches 100 times.")
    thread_notes = sorted({f"{i}: {v[3]}" for (w, i), v in r.items()
                           if i in ("openmp", "numba-parallel") and "bytes" not in v[3]})
    for n in thread_notes:
        out.append(f"- {n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
