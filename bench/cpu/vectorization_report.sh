#!/usr/bin/env bash
# Which loops of the CPU benchmark's kernels GCC vectorises: each kernel's CPU unit emitted for
# the block shape the benchmark launches it with (as a launch compiles it, `pykc emit --emit=cpu
# --block`), compiled with the runtime's flags (jit/HostCompiler.cpp) and -fopt-info-vec, each
# report mapped to the .pyk line it came from (the unit's #line directives) or to the support
# header's thread loop (a region's loop over the block's threads). Prints a Markdown table: per
# kernel, the loops vectorised, how many GCC versioned for possible aliasing (a run-time overlap
# test and a scalar copy), the masked loads and stores left in the block's entry point (AVX-512
# `{%k}` memory operands: what a test inside a vectorised thread loop costs), and the kernel's
# loops left scalar with GCC's first reason (a line past the .pyk file's end is the generated
# entry point after the kernel's last #line).
#
# usage: bench/cpu/vectorization_report.sh [BUILD_DIR]   (default build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
[[ "$build" = /* ]] || build="$root/$build"
cd "$root"
pykc="$build/compiler/pykc"
include="$build/stdlib/cpu"
[[ -x "$pykc" && -f "$include/pyk_cpu_support.h" ]] || {
  echo "vectorization_report: build pykc first ($pykc)" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# file kernel signature block
kernels=(
  "vector_add.pyk vector_add void(float32[::1],float32[::1],float32[::1]) 256,1,1"
  "diffusion.pyk diffusion_step void(float32[:,::1],float32[:,::1],float32) 32,8,1"
  "matmul.pyk matmul void(float32[:,::1],float32[:,::1],float32[:,::1]) 16,16,1"
  "reduction.pyk block_sum void(float32[::1],float32[::1]) 256,1,1"
  "reduction_helper.pyk block_sum void(float32[::1],float32[::1]) 256,1,1"
  "histogram.pyk histogram void(int32[::1],int32[::1]) 256,1,1"
)
echo "| kernel (file, block) | mode | loops vectorised | of them versioned for aliasing | masked loads and stores | loops of the kernel's lines left scalar (GCC's first reason) |"
echo "|---|---|---|---|---|---|"
for entry in "${kernels[@]}"; do
  read -r file kernel sig block <<<"$entry"
  unit="$work/${file%.pyk}.cpp"
  "$pykc" emit "bench/cpu/kernels/$file" --emit=cpu --kernel "$kernel" --sig "$sig" \
    --block "$block" >"$unit"
  mode=$(head -1 "$unit" | sed -E 's|^// mode: ([a-z]+).*|\1|')
  g++ -std=c++20 -O3 -march=native -fPIC -shared -fno-math-errno \
    -fno-tree-loop-distribute-patterns -fno-plt -fvisibility=hidden -w -I "$include" \
    -fopt-info-vec-optimized -fopt-info-vec-missed "$unit" -o "$work/unit.so" \
    2>"$work/info.txt" || true
  # The kernel's own lines (#line maps them to the .pyk file), and the support header's thread
  # loops (forEachThread: the loop over a region's threads, whose body is the kernel's lines).
  optimized=$({ grep -E ": optimized: loop vectorized" "$work/info.txt" || true; } |
    sed -E "s|^([^:]*):([0-9]+):[0-9]+: optimized: loop vectorized using ([0-9]+ byte vectors).*|\1:\2: \3|" |
    sed -E "s|^[^:]*$file:|line |; s|^[^:]*pyk_cpu_support.h:([0-9]+)|thread loop (support header \1)|" |
    sort | uniq -c | sed -E 's/^ *([0-9]+) (.*)/\2 (x\1)/' | paste -sd ';' | sed 's/;/; /g')
  versioned=$({ grep -cE ": optimized: +loop versioned for vectorization because of possible aliasing" "$work/info.txt" || true; })
  missed=$({ grep -E "^[^:]*$file:[0-9]+:[0-9]+: missed: (couldn't vectorize loop|not vectorized)" "$work/info.txt" || true; } |
    sed -E "s|^[^:]*:([0-9]+):[0-9]+: missed: (.*)|\1\t\2|" | sort -t$'\t' -k1,1n -u |
    awk -F'\t' -v last="$(wc -l <"bench/cpu/kernels/$file")" '!seen[$1]++ {
      where = $1 > last ? "the generated entry point" : "line " $1
      printf "%s%s: %s", (n++ ? "; " : ""), where, $2 }' |
    sed 's/|/\\|/g')
  masked=$(objdump -d --no-show-raw-insn "$work/unit.so" 2>/dev/null |
    awk '/^[0-9a-f]+ <pyk_k_.*__block>:$/ { on = 1; next } /^$/ { on = 0 } on' |
    grep -cE '\(.*\{%k[1-7]\}|\{%k[1-7]\}.*\(' || true)
  echo "| $kernel ($file, $block) | $mode | ${optimized:-none} | ${versioned:-0} | ${masked:-0} | ${missed:-none} |"
done
