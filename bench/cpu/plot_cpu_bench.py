#!/usr/bin/env python3
"""plot_cpu_bench: the speed ratios of run_cpu_bench.sh as a PNG bar chart.

For each workload, pyk's speed against hand-written OpenMP and against numba @njit(parallel=True)
(the other's time over pyk's: above 1, pyk is faster): the median over the rounds as the bar,
each round's ratio as a dot, and the issue's goal as a marker.

usage: plot_cpu_bench.py RESULTS.txt... -o OUT.png [--title TEXT]
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

from cpu_bench_table import GOAL_NAMES, GOALS, WORKLOADS  # noqa: E402

AGAINST = [("openmp", "against hand OpenMP", "#4c72b0"),
           ("numba-parallel", "against numba parallel", "#dd8452")]


def rounds_of(paths):
    """(workload, implementation) -> the seconds of each round, in order."""
    runs = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("RESULT|"):
                    _, workload, impl, seconds, _, _ = line.rstrip("\n").split("|", 5)
                    runs.setdefault((workload, impl), []).append(float(seconds))
    return runs


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--title", default="pyk CPU backend: speed against OpenMP and numba")
    args = ap.parse_args()
    runs = rounds_of(args.files)

    fig, ax = plt.subplots(figsize=(11, 4.8), dpi=120)
    width = 0.38
    labels = []
    goal = dict(GOALS)
    for w, (key, label) in enumerate(WORKLOADS):
        labels.append(label.split(" (")[0])
        pyk = runs.get((key, "pyk"), [])
        for j, (impl, name, color) in enumerate(AGAINST):
            other = runs.get((key, impl), [])
            if not pyk or not other:
                continue
            # Rounds interleave the implementations: round i of each is compared with round i.
            ratios = [o / p for o, p in zip(other, pyk)]
            x = w + (j - 0.5) * width
            m = median(ratios)
            ax.bar(x, m, width, color=color, label=name if w == 0 else None)
            ax.scatter([x] * len(ratios), ratios, color="black", s=8, zorder=3,
                       label="each round" if w == 0 and j == 0 else None)
            ax.annotate(f"{m:.2f}", (x, m), textcoords="offset points", xytext=(0, 3),
                        ha="center", fontsize=8)
            if impl in goal:
                ax.plot([x - width / 2, x + width / 2], [goal[impl], goal[impl]], color="red",
                        lw=2, label="goal" if w == 0 else None)
    ax.axhline(1.0, color="gray", lw=0.8, ls="--")
    ax.set_yscale("log", base=2)  # 2x faster and 2x slower equally far from 1
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("speed ratio (other's time / pyk's time)")
    ax.set_title(args.title, fontsize=10)
    handles, names = ax.get_legend_handles_labels()
    seen = {}
    for h, n in zip(handles, names):
        seen.setdefault(n, h)
    ax.legend(seen.values(), seen.keys(), fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"written: {args.output} (goals: " +
          ", ".join(f">= {g}x {GOAL_NAMES[a]}" for a, g in GOALS) + " for every workload)")


if __name__ == "__main__":
    main()
