#!/usr/bin/env python3
"""Compile time of the CPU backend: the first launch of a new signature, kernel by kernel.

Each kernel of bench/cpu/example_kernels.tsv is compiled as a launch compiles it (`pykc emit
--emit=so`: typing, emission, the host compiler, through the disk cache) into an empty cache
folder, so the host compiler runs every time, in two variants:

  precompiled header  the folder holds the precompiled support header already (hard links to
                      one built before), as it does after a machine's first compile
  header text         PYK_CPU_PRECOMPILED_HEADER=0: the support header parsed at every compile

and once more the cost of the very first compile in a new cache folder (the precompiled header
built, then the kernel). Rounds interleave the variants; the table gives each kernel's median,
then the median over kernels. Prints Markdown.

usage: bench/cpu/compile_time.py BUILD_DIR [--rounds N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kernels():
    with open(os.path.join(ROOT, "bench", "cpu", "example_kernels.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            source, kernel, signature = line.rstrip("\n").split("\t")
            yield source, kernel, signature


def compile_once(pykc, source, kernel, signature, cache, precompiled):
    env = dict(os.environ, PYK_CACHE_DIR=cache, PYK_CPU_PRECOMPILED_HEADER="1" if precompiled else "0",
               PYK_COMPILE_MESSAGES="0")
    out = os.path.join(cache, "unit.so")
    start = time.perf_counter()
    result = subprocess.run([pykc, "emit", os.path.join(ROOT, source), "--emit=so", "--kernel", kernel,
                             "--sig", signature, "-o", out], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"pykc failed for {kernel}{signature}:\n{result.stderr}")
    return seconds


def fresh_cache(work, name, header_from=None):
    folder = os.path.join(work, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder, mode=0o700)
    if header_from is not None:
        for entry in os.listdir(header_from):
            if entry.startswith("pch-") and os.path.isdir(os.path.join(header_from, entry)):
                shutil.copytree(os.path.join(header_from, entry), os.path.join(folder, entry),
                                copy_function=os.link)
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pykc = os.path.join(os.path.abspath(args.build), "compiler", "pykc")
    todo = list(kernels())
    with tempfile.TemporaryDirectory(prefix="pyk-compile-time-") as work:
        # The very first compile: a new cache folder, the precompiled header built by it.
        first = fresh_cache(work, "first")
        source, kernel, signature = todo[0]
        first_seconds = compile_once(pykc, source, kernel, signature, first, True)
        times = {(k, v): [] for k in range(len(todo)) for v in (True, False)}
        for _ in range(args.rounds):
            for i, (source, kernel, signature) in enumerate(todo):
                for precompiled in (True, False):
                    cache = fresh_cache(work, "c", first if precompiled else None)
                    times[(i, precompiled)].append(
                        compile_once(pykc, source, kernel, signature, cache, precompiled))
    rows = []
    for i, (source, kernel, signature) in enumerate(todo):
        rows.append((f"{os.path.basename(source)} `{kernel}{signature[signature.index('('):]}`",
                     statistics.median(times[(i, True)]), statistics.median(times[(i, False)])))
    print(f"First launch of a new signature on the CPU backend: `pykc emit --emit=so` into an empty "
          f"cache folder (typing, emission, host compiler), median of {args.rounds} interleaved rounds.\n")
    print("| kernel | precompiled header | header text | speed-up |")
    print("|---|---|---|---|")
    for name, with_pch, without in rows:
        print(f"| {name} | {with_pch * 1000:.0f} ms | {without * 1000:.0f} ms | {without / with_pch:.2f}x |")
    med_with = statistics.median(r[1] for r in rows)
    med_without = statistics.median(r[2] for r in rows)
    print(f"| **median over the {len(rows)} kernels** | **{med_with * 1000:.0f} ms** | "
          f"**{med_without * 1000:.0f} ms** | {med_without / med_with:.2f}x |")
    print(f"\nThe first compile in a new cache folder (the precompiled header built first, then "
          f"`{todo[0][1]}`): {first_seconds * 1000:.0f} ms.")


if __name__ == "__main__":
    main()
