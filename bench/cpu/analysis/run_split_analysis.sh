#!/usr/bin/env bash
# What limits the CPU backend's split mode on the benchmark's barrier kernels: times, on one core
# and without the worker pool, the block entries pykc generates for bench/cpu/kernels/*.pyk
# against hand-edited forms of them (split_variants.cpp: each adds one code-generator change) and
# against the same work written by hand for the CPU. Prints a Markdown table (best of ROUNDS).
#
# usage: bench/cpu/analysis/run_split_analysis.sh [BUILD_DIR] [ROUNDS]   (default build-bench, 3)
# Compiles with the CPU backend's optimisation flags (compiler/jit/HostCompiler.cpp's, kept in
# step by hand: until 2026-11-30 this script lacked -fno-tree-loop-distribute-patterns, and its
# split kernels were slower than the runtime's) and $PYK_CXX or g++.
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-build-bench}
[[ "$build" = /* ]] || build="$root/$build"
rounds=${2:-3}
cd "$root"
cmake --build "$build" --target pykc >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYK_CACHE_DIR="$work/cache"
cxx=${PYK_CXX:-g++}
flags=(-std=c++20 -O3 -march=native -fno-math-errno -fno-tree-loop-distribute-patterns -I stdlib/cpu)

declare -A sigs=(
  [vector_add]='void(float32[::1], float32[::1], float32[::1])'
  [diffusion]='void(float32[:, ::1], float32[:, ::1], float32)'
  [matmul]='void(float32[:, ::1], float32[:, ::1], float32[:, ::1])'
  [reduction]='void(float32[::1], float32[::1])'
  [histogram]='void(int32[::1], int32[::1])'
)
# The block shapes cpu_backend_bench.cpp launches with: the runtime compiles split kernels for them.
declare -A blocks=(
  [vector_add]='256'
  [diffusion]='32,8'
  [matmul]='16,16'
  [reduction]='256'
  [histogram]='256'
)
declare -A variants=(
  [vector_add]=''
  [diffusion]='diffusion_d1 diffusion_d2 diffusion_d3 diffusion_d4 diffusion_d5'
  [matmul]='matmul_m1 matmul_m2 matmul_m3'
  [reduction]='reduction_r1 reduction_r2'
  [histogram]=''
)

# Written for the CPU, not through the thread loops: they have no form with Python's wrap.
no_wrap_form='diffusion_d4 diffusion_d5'

echo "compiling..." >&2
"$cxx" "${flags[@]}" -c bench/cpu/analysis/split_variants.cpp -o "$work/variants.o"
"$cxx" "${flags[@]}" -DPYK_VARIANT_WRAP -c bench/cpu/analysis/split_variants.cpp \
  -o "$work/variants_wrap.o"
binaries=()
for w in vector_add diffusion matmul reduction histogram; do
  "$build/compiler/pykc" emit "bench/cpu/kernels/$w.pyk" --emit=cpu --block "${blocks[$w]}" --sig "${sigs[$w]}" \
    >"$work/$w.cpp"
  entry=$(grep -o -m1 'pyk_k_[A-Za-z0-9_]*__block' "$work/$w.cpp")
  "$cxx" "${flags[@]}" -c "$work/$w.cpp" -o "$work/$w.o"
  W=${w^^}
  "$cxx" "${flags[@]}" -DENTRY="$entry" -DWORKLOAD_$W bench/cpu/analysis/split_harness.cpp \
    "$work/$w.o" -o "$work/bin_$w-generated"
  binaries+=("$work/bin_$w-generated")
  for v in ${variants[$w]}; do
    "$cxx" "${flags[@]}" -DENTRY="$v" -DWORKLOAD_$W bench/cpu/analysis/split_harness.cpp \
      "$work/variants.o" -o "$work/bin_$w-$v"
    binaries+=("$work/bin_$w-$v")
    [[ " $no_wrap_form " = *" $v "* ]] && continue
    "$cxx" "${flags[@]}" -DENTRY="$v" -DWORKLOAD_$W bench/cpu/analysis/split_harness.cpp \
      "$work/variants_wrap.o" -o "$work/bin_$w-$v-wrap"
    binaries+=("$work/bin_$w-$v-wrap")
  done
done

for ((round = 1; round <= rounds; ++round)); do
  echo "round $round of $rounds..." >&2
  for b in "${binaries[@]}"; do
    name=${b##*/bin_}
    "$b" | sed "/^TIME|[^|]*|hand|/!s/^TIME|\([^|]*\)|[^|]*|/TIME|\1|${name#*-}|/" \
      >>"$work/times.txt"
  done
done

python3 - "$work/times.txt" <<'PY'
import sys
what = {
    "generated": "what pykc emits today",
    "diffusion_d1": "d1: thread-index values recomputed per region, no per-thread arrays",
    "diffusion_d2": "d2: d1 + block shape a compile-time constant",
    "diffusion_d3": "d3: d2 + halo statements distributed and narrowed",
    "diffusion_d4": "d4: the kernel's tiled algorithm as the best CPU block function found (no thread loop)",
    "diffusion_d5": "d5: no tile, the stencil from `field` in the blocks' order",
    "matmul_m1": "m1: only `acc` per thread, the rest recomputed",
    "matmul_m2": "m2: m1 + `for j` interchanged with the thread loop (lockstep)",
    "matmul_m3": "m3: m2 + block shape a compile-time constant",
    "reduction_r1": "r1: `tid` recomputed, `stride` a block scalar updated once",
    "reduction_r2": "r2: r1 + `if tid < stride` / `if tid == 0` narrow the thread range",
    "hand": "hand-written CPU loop (the OpenMP reference's, one thread)",
}
best = {}
for line in open(sys.argv[1]):
    _, workload, entry, ms = line.strip().split("|")
    key = (workload, entry)
    # the hand loop runs in every binary: keep its best over all of them
    best[key] = min(best.get(key, float("inf")), float(ms))
print("| workload | entry | ms per launch (1 core, best of rounds) | vs generated | hand / entry |")
print("|---|---|---|---|---|")
for workload in ("vector_add", "diffusion", "matmul", "reduction", "histogram"):
    gen = best.get((workload, "generated"))
    hand = best.get((workload, "hand"))
    entries = sorted((e for (w, e) in best if w == workload and e not in ("generated", "hand")),
                     key=lambda e: (e.replace("-wrap", ""), e.endswith("-wrap")))
    for entry in ["generated"] + entries + ["hand"]:
        ms = best.get((workload, entry))
        if ms is None:
            continue
        base = entry.replace("-wrap", "")
        label = what.get(base, base)
        if entry.endswith("-wrap"):
            label += ", with Python's negative-index wrap on every access"
        print(f"| {workload} | {label} | {ms:.2f} | {gen / ms:.1f}× | {hand / ms:.2f} |")
PY
