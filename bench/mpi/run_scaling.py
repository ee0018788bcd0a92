#!/usr/bin/env python3
"""Strong and weak scaling of examples/diffusion_mpi: time per step, and the halo exchange's share
of it, by rank count. Writes a Markdown table to bench/results/mpi-scaling-<date>-<device>.md and
prints it.

    bench/mpi/run_scaling.py BUILD_DIR [--ranks 1,2,4] [--rounds 3] [--steps N] [--backend cpu]

Strong scaling: the seed's 2000 x 2000 field over 1, 2, 4 ranks. Weak scaling: 1000 rows x 2000
columns per rank. Each configuration runs --rounds times, the rounds interleaved (a noisy machine
slows neighbours alike); the table shows medians of the slowest rank's time per step (the step's
launch and synchronize, then the halo exchange) and the halo exchange alone (MPI_Sendrecv, plus the
host staging copies on CUDA without a CUDA-aware MPI).

On the CPU backend each rank gets cores / ranks workers (PYK_CPU_THREADS, at least 1) and ranks are
not bound (--bind-to none): the same cores in total at every rank count; four ranks on two cores
are oversubscribed and say so. On CUDA every rank takes device (local rank % devices): with one GPU
the ranks share it, which shows the exchange's cost, not a speed-up.

mpirun is $PYK_MPIRUN, else the one on PATH; Open MPI's root refusal is lifted (containers).
"""
import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^SCALING (.*)$", re.M)


def run_once(args, program, ranks, rows, cols, env):
    mpirun = os.environ.get("PYK_MPIRUN", "mpirun")
    command = [mpirun, "--oversubscribe", "--bind-to", "none", "-np", str(ranks), str(program),
               "--size", f"{rows},{cols}", "--steps", str(args.steps)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit(f"run_scaling: {' '.join(command)} failed ({out.returncode}):\n"
                 f"{out.stdout}{out.stderr}")
    found = LINE.search(out.stdout)
    if not found:
        sys.exit(f"run_scaling: no SCALING line from {' '.join(command)}:\n{out.stdout}")
    return dict(field.split("=", 1) for field in found.group(1).split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=0,
                        help="steps per run (default: 100 on the CPU, 2000 on CUDA)")
    parser.add_argument("--backend", default=os.environ.get("PYK_BACKEND", "cpu"))
    parser.add_argument("--device", default="", help="the device's name in the file name")
    parser.add_argument("--output", default="", help="the table's file (default bench/results/)")
    args = parser.parse_args()
    build = Path(args.build).resolve()
    program = build / "examples" / "diffusion_mpi" / "pyk_diffusion_mpi"
    if not program.exists():
        sys.exit(f"run_scaling: {program} is missing (configure with -DPYK_MPI=ON and build "
                 "pyk_diffusion_mpi)")
    on_cpu = args.backend == "cpu"
    if not args.steps:
        args.steps = 100 if on_cpu else 2000
    ranks = [int(r) for r in args.ranks.split(",")]
    cores = len(os.sched_getaffinity(0))
    env = dict(os.environ, PYK_BACKEND=args.backend, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

    configs = []  # (kind, ranks, rows, cols)
    for n in ranks:
        configs.append(("strong", n, 2000, 2000))
    for n in ranks:
        configs.append(("weak", n, 1000 * n, 2000))
    results = {c: [] for c in configs}
    halo_path = backend = ""
    for round_ in range(args.rounds):
        for config in configs:
            kind, n, rows, cols = config
            run_env = dict(env)
            if on_cpu:
                run_env["PYK_CPU_THREADS"] = str(max(1, cores // n))
            fields = run_once(args, program, n, rows, cols, run_env)
            results[config].append((float(fields["step_us"]), float(fields["halo_us"])))
            halo_path, backend = fields["halo"], fields["backend"]
            print(f"round {round_ + 1}: {kind} {n} ranks {rows}x{cols}: "
                  f"{fields['step_us']} us a step, {fields['halo_us']} us halo", flush=True)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "runtime", "compiler",
                            "examples/diffusion_mpi"], cwd=ROOT).returncode != 0
    today = datetime.date.today().isoformat()
    device = args.device or ("vm" if on_cpu else "gpu")
    lines = [f"# diffusion over MPI ranks: strong and weak scaling ({backend}, {today}, {device})",
             "",
             f"`bench/mpi/run_scaling.py {args.build} --ranks {args.ranks} --rounds {args.rounds}"
             f" --steps {args.steps} --backend {args.backend}` at {commit}"
             f"{' + uncommitted changes' if dirty else ''}; {cores} cores; halos: {halo_path}; "
             f"medians of {args.rounds} interleaved rounds, the slowest rank's time.",
             "",
             "Time per step: the launch, a synchronize, then the halo exchange, which includes "
             "waiting for the neighbours to reach it (so it grows when ranks are unequal or share "
             "hardware); the first two steps (compiles) are not timed.",
             ""]
    if on_cpu:
        lines += [f"Each rank has max(1, {cores} / ranks) CPU workers (PYK_CPU_THREADS), ranks "
                  "unbound; more ranks than cores are oversubscribed.", ""]
    else:
        lines += ["Every rank on the one GPU: two processes time-slice it (no MPS), so the rows "
                  "of more than one rank show what sharing one GPU between processes costs (a "
                  "context switch each time the other rank's work comes up), not the exchange "
                  "alone, and not a speed-up; several GPUs are needed for that.", ""]
    lines += ["The hardware is the same at every rank count (the machine's cores, or the one GPU), "
              "so the ideal time per step is the 1-rank time for strong scaling and ranks times "
              "it for weak scaling; efficiency is that ideal over the time measured: what cutting "
              "the field and exchanging halos cost.", ""]
    for kind in ("strong", "weak"):
        title = ("Strong scaling: the 2000 x 2000 field" if kind == "strong"
                 else "Weak scaling: 1000 x 2000 cells per rank")
        lines += [f"## {title}", "",
                  "| ranks | field | time per step (us) | halo per step (us) | halo share | "
                  "efficiency |",
                  "| ---: | --- | ---: | ---: | ---: | ---: |"]
        base = None
        for config in configs:
            if config[0] != kind:
                continue
            _, n, rows, cols = config
            step = statistics.median(s for s, _ in results[config])
            halo = statistics.median(h for _, h in results[config])
            if base is None:
                base = step
            ideal = base if kind == "strong" else base * n
            note = " (oversubscribed)" if on_cpu and n > cores else ""
            lines.append(f"| {n}{note} | {rows} x {cols} | {step:.0f} | {halo:.1f} | "
                         f"{halo / step:.0%} | {ideal / step:.0%} |")
        lines.append("")
    table = "\n".join(lines)
    print(table)
    output = Path(args.output) if args.output else (
        ROOT / "bench" / "results" / f"mpi-scaling-{today}-{device}.md")
    output.write_text(table)
    print(f"written to {output}")


if __name__ == "__main__":
    main()
