#!/usr/bin/env python3
"""gpu_bench_table: the Markdown report of run_gpu_bench.sh from the RESULT lines of the GPU
benchmark programs (RESULT|workload|implementation|median seconds|repetitions|note; files given as
arguments, or stdin). Lines of the same (workload, implementation) from several rounds are reduced
to the median of their seconds.

Implementations: "pyk" (bench "pyk_bench_gpu_backend"), "CUDA C++ (nvcc -O3)" (cuda_reference.cu),
"numba-cuda" (numba_cuda_reference.py), "CuPy" (cupy_reference.py, RawKernels of the same CUDA
C++); any other label (e.g. "CuPy cp.matmul (cuBLAS)") is a library variant, listed apart.
Workloads it knows (bytes: what must move, each input read once and each output written once;
a line whose note has a part "bytes=N" uses N instead):
  vector_add      10M float32                          3 * 4 * 10M bytes
  diffusion       2000x2000, all 100 steps             100 * 2 * 4 * 2000^2 bytes
  diffusion_step  one step                             2 * 4 * 2000^2 bytes
  matmul          512x512, 16x16 tiles                 3 * 4 * 512^2 bytes, 2 * 512^3 flops
  reduction       16M float32                          4 * 16M + 4 bytes
  d2d_copy        device-to-device copy, 256 MiB       2 * 256 MiB (read + written)
  empty_kernel    event time of one empty launch
  launch_overhead, launch_overhead_3args   host wall time per launch, back-to-back
  compile_cold:K, compile_warm:K           K's first load + launch in a fresh process, with an
                                           empty / a filled compile cache
Other names accepted for these: device_copy (d2d_copy), launch_overhead_empty (launch_overhead),
launch_overhead_3_arrays (launch_overhead_3args), compile_disk_hit (compile_warm); compile_cold /
compile_warm without ":K" count as the kernel "(see note)". Other workloads are listed as they
come. Targets: kernel time pyk >= 0.97x CUDA C++ and >= 1.0x
numba-cuda (speed = their time / pyk's); launch overhead pyk <= 1/5 of numba-cuda's.

usage: gpu_bench_table.py [FILE...] [--device D] [--date D] [--commit C] [--versions V]
                          [--command C]
"""
import argparse
import statistics
import sys

PYK, CUDA, NUMBA, CUPY = "pyk", "CUDA C++ (nvcc -O3)", "numba-cuda", "CuPy"
MAIN = [PYK, CUDA, NUMBA, CUPY]
HEADERS = {PYK: "pyk", CUDA: "CUDA C++", NUMBA: "numba-cuda", CUPY: "CuPy (RawKernel)"}

MiB = 1 << 20
KERNELS = [  # (workload, label, bytes, flops)
    ("vector_add", "vector add (10M float32)", 3 * 4 * 10_000_000, None),
    ("diffusion", "diffusion, 100 steps (2000x2000)", 100 * 2 * 4 * 2000 * 2000, None),
    ("diffusion_step", "diffusion, one step", 2 * 4 * 2000 * 2000, None),
    ("matmul", "tiled matmul (512x512, 16x16 tiles)", 3 * 4 * 512 * 512, 2 * 512**3),
    ("reduction", "block reduction (16M float32)", 4 * 16 * MiB + 4, None),
]
COPY = ("d2d_copy", "device-to-device copy (256 MiB)", 2 * 256 * MiB, None)
LAUNCH = [
    ("launch_overhead", "launch overhead, no arguments (host time per launch)", True),
    ("launch_overhead_3args", "launch overhead, 3 array arguments (host time per launch)", True),
    ("empty_kernel", "empty kernel, event time of one launch", False),
]
GRAPH = [
    ("diffusion_1000_launches", "1,000 diffusion steps on a stream, one launch each"),
    ("diffusion_1000_graph", "the same steps, replays of a captured pyk::Graph of two"),
]
TARGET_CUDA, TARGET_NUMBA, TARGET_LAUNCH = 0.97, 1.0, 5.0
ALIASES = {"device_copy": "d2d_copy", "launch_overhead_empty": "launch_overhead",
           "launch_overhead_3_arrays": "launch_overhead_3args", "compile_disk_hit": "compile_warm"}
BYTES = {w: b for w, _, b, _ in KERNELS + [COPY]}
FLOPS = {w: f for w, _, _, f in KERNELS if f}


def canonical(workload):
    """The name this table uses for a workload (see ALIASES)."""
    name, colon, kernel = workload.partition(":")
    name = ALIASES.get(name, name)
    if name in ("compile_cold", "compile_warm"):
        return f"{name}:{kernel if colon else '(see note)'}"
    return name + colon + kernel


def parse(lines):
    """(workload, implementation) -> dict(seconds: median over rounds, reps, rounds, note)."""
    runs = {}
    for line in lines:
        if not line.startswith("RESULT|"):
            continue
        parts = line.rstrip("\n").split("|", 5)
        if len(parts) != 6:
            print(f"gpu_bench_table: ignoring a malformed line: {line.strip()}", file=sys.stderr)
            continue
        _, workload, impl, seconds, reps, note = parts
        try:
            value = (float(seconds), int(reps), note)
        except ValueError:
            print(f"gpu_bench_table: ignoring a malformed line: {line.strip()}", file=sys.stderr)
            continue
        runs.setdefault((canonical(workload), impl), []).append(value)
    return {key: {"seconds": statistics.median(s for s, _, _ in v), "reps": v[0][1],
                  "rounds": len(v), "note": v[0][2]} for key, v in runs.items()}


def note_bytes(note):
    for part in note.split(";"):
        part = part.strip()
        if part.startswith("bytes="):
            try:
                return float(part[len("bytes="):])
            except ValueError:
                return None
    return None


def fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        ms = seconds * 1e3
        return f"{ms:.1f} ms" if ms >= 100 else f"{ms:.2f} ms"
    us = seconds * 1e6
    return f"{us:.1f} µs" if us >= 10 else f"{us:.2f} µs"


class Report:
    def __init__(self, results):
        self.r = results

    def get(self, workload, impl):
        return self.r.get((workload, impl))

    def seconds(self, workload, impl):
        line = self.get(workload, impl)
        return line["seconds"] if line else None

    def gbps(self, workload, impl):
        line = self.get(workload, impl)
        if not line or line["seconds"] <= 0:
            return None
        nbytes = note_bytes(line["note"]) or BYTES.get(workload)
        return nbytes / line["seconds"] / 1e9 if nbytes else None

    def rate(self, workload, impl):
        """GB/s, or GFLOP/s for matmul, as text."""
        line = self.get(workload, impl)
        if not line or line["seconds"] <= 0:
            return ""
        if workload in FLOPS:
            return f"{FLOPS[workload] / line['seconds'] / 1e9:,.0f} GFLOP/s"
        g = self.gbps(workload, impl)
        return f"{g:,.0f} GB/s" if g is not None else ""

    def cell(self, workload, impl):
        line = self.get(workload, impl)
        if not line:
            return "—"
        rate = self.rate(workload, impl)
        return fmt_time(line["seconds"]) + (f" ({rate})" if rate else "")

    def copy_gbps(self):
        """The device-to-device copy's GB/s: the CUDA C++ one, else the best measured."""
        if self.get("d2d_copy", CUDA):
            return self.gbps("d2d_copy", CUDA), HEADERS[CUDA]
        best = max(((self.gbps("d2d_copy", i), i) for w, i in self.r if w == "d2d_copy"),
                   default=(None, None), key=lambda x: x[0] or 0)
        return best


def speed(theirs, pyk, target):
    """Their time over pyk's, against a target (>= target is met)."""
    if theirs is None or pyk is None or pyk <= 0:
        return "—"
    ratio = theirs / pyk
    return f"{ratio:.3f} ({'met' if ratio >= target else '**missed**'})"


def main():
    ap = argparse.ArgumentParser(description="Markdown table of the GPU benchmark's RESULT lines")
    ap.add_argument("files", nargs="*", help="files of RESULT lines (default: stdin)")
    for opt in ("device", "date", "commit", "versions", "command"):
        ap.add_argument("--" + opt, default="?")
    args = ap.parse_args()
    lines = []
    if args.files:
        for path in args.files:
            with open(path) as f:
                lines.extend(f)
    else:
        lines = sys.stdin.readlines()
    rep = Report(parse(lines))
    r = rep.r
    known = ({w for w, _, _, _ in KERNELS} | {COPY[0]} | {w for w, _, _ in LAUNCH}
             | {w for w, _ in GRAPH})

    out = ["# pyk CUDA backend against CUDA C++, numba-cuda and CuPy", ""]
    out.append(f"- device: {args.device}")
    out.append(f"- date: {args.date}; pyk {args.commit}")
    out.append(f"- {args.versions}")
    out.append(f"- reproduce: `{args.command}`")
    out.append("")
    rounds = max((v["rounds"] for v in r.values()), default=0)
    out.append("Kernel times are CUDA-event times on the default stream: the median over "
               "repetitions after a warm-up, then the median over "
               f"{rounds} round(s). One launch between the events includes the host's "
               "submission of that launch (the GPU is idle when the start event is recorded), "
               "as the launch rows below show. GB/s: the bytes that must move (each input read "
               "once, each output written once) over the time. Speed ratios: the other "
               "implementation's time over pyk's (>= 1 means pyk is faster).")
    out.append("")

    # kernel times
    copy, copy_from = rep.copy_gbps()
    rows = [k for k in KERNELS + [COPY] if any((k[0], i) in r for i in MAIN)]
    header = ["workload"] + [HEADERS[i] for i in MAIN] + [
        f"pyk vs CUDA C++ (≥ {TARGET_CUDA})", f"pyk vs numba-cuda (≥ {TARGET_NUMBA})",
        "pyk GB/s / copy's"]
    if rows:
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
    for workload, label, _, flops in rows:
        row = [label] + [rep.cell(workload, i) for i in MAIN]
        pyk = rep.seconds(workload, PYK)
        if workload == COPY[0]:
            row += ["", "", ""]
        else:
            row.append(speed(rep.seconds(workload, CUDA), pyk, TARGET_CUDA))
            row.append(speed(rep.seconds(workload, NUMBA), pyk, TARGET_NUMBA))
            g = rep.gbps(workload, PYK)
            row.append(f"{100 * g / copy:.0f} %" if g and copy and not flops else "")
        out.append("| " + " | ".join(row) + " |")
    if rows:
        out.append("")
    if copy:
        out.append(f"Copy: {copy:,.0f} GB/s ({copy_from}'s device-to-device copy, bytes read + "
                   "written). Diffusion's two 16 MB fields can stay in the GPU's L2 cache (50 MB "
                   "on an H100), so its GB/s may exceed the copy's.")
        out.append("")

    # library variants
    variants = sorted((w, i) for w, i in r if i not in MAIN and w in BYTES)
    if variants:
        out.append("Library variants (CuPy's own kernels and libraries, for context; speed vs "
                   "pyk: their time over pyk's):")
        out.append("")
        out.append("| workload | implementation | time | speed vs pyk | note |")
        out.append("|---|---|---|---|---|")
        for w, i in variants:
            pyk = rep.seconds(w, PYK)
            ratio = f"{rep.seconds(w, i) / pyk:.3f}" if pyk else "—"
            out.append(f"| {w} | {i} | {rep.cell(w, i)} | {ratio} | {r[(w, i)]['note']} |")
        out.append("")

    # launch overhead
    if any((w, i) in r for w, _, _ in LAUNCH for i in MAIN):
        header = ["launch"] + [HEADERS[i] for i in MAIN] + [
            f"numba-cuda / pyk (≥ {TARGET_LAUNCH:g}, i.e. pyk ≤ 1/{TARGET_LAUNCH:g})"]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for workload, label, targeted in LAUNCH:
            if not any((workload, i) in r for i in MAIN):
                continue
            row = [label] + [rep.cell(workload, i) for i in MAIN]
            pyk, nb = rep.seconds(workload, PYK), rep.seconds(workload, NUMBA)
            if targeted:
                row.append(speed(nb, pyk, TARGET_LAUNCH).replace(" (", "× ("))
            else:
                row.append(f"{nb / pyk:.2f}×" if nb and pyk else "—")
            out.append("| " + " | ".join(row) + " |")
        out.append("")

    # graphs
    if any((w, PYK) in r for w, _ in GRAPH):
        out.append("| steps (wall time per step, to the stream's end) | pyk | launches / this |")
        out.append("|---|---|---|")
        plain = rep.seconds(GRAPH[0][0], PYK)
        for workload, label in GRAPH:
            t = rep.seconds(workload, PYK)
            ratio = f"{plain / t:.2f}×" if plain and t else "—"
            out.append(f"| {label} | {rep.cell(workload, PYK)} | {ratio} |")
        out.append("")

    # compile times
    compiled = sorted({w.split(":", 1)[1] for w, _ in r if w.startswith(("compile_cold:",
                                                                           "compile_warm:"))})
    if compiled:
        compiles = {(w, i) for w, i in r if w.startswith(("compile_cold:", "compile_warm:"))}
        impls = [i for i in MAIN if any(j == i for _, j in compiles)]
        impls += sorted({i for _, i in compiles if i not in MAIN})
        header = ["compile (kernel)"] + [f"{HEADERS.get(i, i)} cold / warm" for i in impls]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for kernel in compiled:
            row = [kernel]
            for i in impls:
                cold = rep.seconds("compile_cold:" + kernel, i)
                warm = rep.seconds("compile_warm:" + kernel, i)
                row.append(" / ".join(fmt_time(t) if t is not None else "—"
                                      for t in (cold, warm)))
            out.append("| " + " | ".join(row) + " |")
        out.append("")
        out.append("Cold: the kernel's first load and launch in a fresh process with an empty "
                   "compile cache; warm: the same in a second process on the cache the first "
                   "left (the notes below say how each implementation measures it and whether "
                   "the cache was hit).")
        out.append("")

    # anything else
    other = sorted((w, i) for w, i in r
                   if w not in known and not w.startswith(("compile_cold:", "compile_warm:")))
    if other:
        out.append("Other lines:")
        out.append("")
        for w, i in other:
            v = r[(w, i)]
            out.append(f"- {w}, {i}: {fmt_time(v['seconds'])} (median of {v['reps']}; "
                       f"{v['note']})")
        out.append("")

    out.append("Notes of the lines:")
    out.append("")
    for (w, i), v in sorted(r.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        out.append(f"- {i} / {w}: {v['note'] or '(none)'}; median of {v['reps']} per round, "
                   f"{v['rounds']} round(s)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
