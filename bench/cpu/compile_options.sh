#!/usr/bin/env bash
# The ways to make the CPU backend's compile of a kernel faster, measured side by side: the host
# compiler on two units pykc emits (vector add, loop mode; the diffusion step, split for a 32x8
# block) with the support header parsed as text at -O0..-O3, against the header precompiled (GCC's
# .gch, what jit/PrecompiledHeader does), and Clang with and without its .pch (what an in-process
# Clang/LLVM JIT would spend on the same front end and code generation, less the process start and
# the link: see the `empty unit` row). Median of N runs each, milliseconds; prints Markdown.
#
# usage: bench/cpu/compile_options.sh [BUILD_DIR] [N]      (default build, 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
[[ "$build" = /* ]] || build="$root/$build"
runs=${2:-5}
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$build/compiler/pykc" emit bench/cpu/kernels/vector_add.pyk --emit=cpu --kernel vector_add \
  --sig 'void(float32[::1], float32[::1], float32[::1])' >"$work/vector_add.cpp"
"$build/compiler/pykc" emit bench/cpu/kernels/diffusion.pyk --emit=cpu --kernel diffusion_step \
  --sig 'void(float32[:, ::1], float32[:, ::1], float32)' --block 32,8 >"$work/diffusion.cpp"
echo 'extern "C" int pyk_empty() { return 0; }' >"$work/empty.cpp"
mkdir -p "$work/text" "$work/gch" "$work/pch"
for d in text gch pch; do cp "$build/stdlib/cpu/pyk_cpu_support.h" "$work/$d/"; done
common=(-std=c++20 -march=native -fPIC -fno-math-errno -fvisibility=hidden -w)
gcc_extra=(-fno-tree-loop-distribute-patterns -fno-plt)

# median_ms COMMAND...: the median wall time of $runs runs, in ms
median_ms() {
  local times=()
  for ((i = 0; i < runs; ++i)); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

gch_ms=$(median_ms g++ "${common[@]}" "${gcc_extra[@]}" -O3 -x c++-header "$work/gch/pyk_cpu_support.h" \
  -o "$work/gch/pyk_cpu_support.h.gch")
pch_ms=$(median_ms clang++ "${common[@]}" -O3 -x c++-header "$work/pch/pyk_cpu_support.h" \
  -o "$work/pch/pyk_cpu_support.h.pch")
gch_mb=$(($(stat -c %s "$work/gch/pyk_cpu_support.h.gch") / 1000000))
pch_mb=$(($(stat -c %s "$work/pch/pyk_cpu_support.h.pch") / 1000000))

echo "| compile of | vector add | diffusion step (split, 32x8) |"
echo "|---|---|---|"
row() {
  local name=$1
  shift
  printf '| %s | %s ms | %s ms |\n' "$name" \
    "$(median_ms "$@" -o "$work/out.so" "$work/vector_add.cpp")" \
    "$(median_ms "$@" -o "$work/out.so" "$work/diffusion.cpp")"
}
row "g++ -fsyntax-only, header as text (the parse alone)" g++ "${common[@]}" -fsyntax-only -I "$work/text"
for o in -O0 -O1 -O2 -O3; do
  row "g++ $o, header as text" g++ "${common[@]}" "${gcc_extra[@]}" -shared "$o" -I "$work/text"
done
for o in -O2 -O3; do
  row "g++ $o, precompiled header (pyk's choice at -O3)" g++ "${common[@]}" "${gcc_extra[@]}" -shared "$o" -I "$work/gch"
done
row "clang++ -O3, header as text" clang++ "${common[@]}" -shared -O3 -I "$work/text"
row "clang++ -O3, precompiled header" clang++ "${common[@]}" -shared -O3 -I "$work/pch" \
  -include-pch "$work/pch/pyk_cpu_support.h.pch"
printf '| g++ -O3, an empty unit (process start, link) | %s ms | |\n' \
  "$(median_ms g++ "${common[@]}" -shared -O3 -o "$work/out.so" "$work/empty.cpp")"
echo
echo "Building the precompiled header once: GCC $gch_ms ms ($gch_mb MB), Clang $pch_ms ms ($pch_mb MB)."
echo
echo "The standard headers the support header includes, parsed alone (g++ -fsyntax-only):"
for h in atomic cmath cstring cstdio cfenv bit; do
  echo "#include <$h>" >"$work/h.cpp"
  printf -- '- <%s>: %s ms\n' "$h" "$(median_ms g++ -std=c++20 -fsyntax-only "$work/h.cpp")"
done
