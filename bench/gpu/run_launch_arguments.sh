#!/usr/bin/env bash
# The host's cost of a pyk launch as the argument count grows (bench/gpu/launch_arguments.cpp)
# against a raw cuLaunchKernel of the same function, and writes the table to
# bench/results/launch-arguments-<date>-<device>.md. On a machine without a GPU (or with
# PYK_BENCH_FAKE=1) it runs on the tests' fake driver and NVRTC, which the build folder has once
# the tests are built: a launch there runs nothing, so the table is pyk's own host cost.
#
# usage: bench/gpu/run_launch_arguments.sh [BUILD_DIR] [ROUNDS]   (default build, 15)
# environment: PYK_BENCH_FAKE=1  the fake driver even where a GPU is,
#              PYK_BENCH_RESULTS_DIR  where the table goes (default bench/results).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
[[ "$build" = /* ]] || build="$root/$build"
rounds=${2:-15}
results_dir=${PYK_BENCH_RESULTS_DIR:-bench/results}
cd "$root"

fake=${PYK_BENCH_FAKE:-}
if [[ -z "$fake" ]] && ! command -v nvidia-smi >/dev/null 2>&1; then
  fake=1
fi
targets=(pyk_bench_launch_arguments)
[[ -n "$fake" ]] && targets+=(pyk_fake_libcuda pyk_fake_libnvrtc)
cmake --build "$build" --target "${targets[@]}" >&2

cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export PYK_CACHE_DIR="$cache" PYK_BACKEND=cuda
if [[ -n "$fake" ]]; then
  export PYK_LIBCUDA="$build/tests/libpyk_fake_libcuda.so"
  export PYK_LIBNVRTC="$build/tests/libpyk_fake_libnvrtc.so"
  device="fake-driver-$(hostname -s | tr -c 'A-Za-z0-9\n' '-')"
else
  device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' |
    tr -cd 'a-z0-9-')
fi

if commit=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD -- runtime 2>/dev/null || commit="$commit + uncommitted changes to runtime"
else
  commit="(not a git checkout)"
fi
mkdir -p "$results_dir"
out="$results_dir/launch-arguments-$(date -u +%Y-%m-%d)-$device.md"
status=0
table=$("$build/bench/pyk_bench_launch_arguments" "$rounds") || status=$?
{
  echo "# pyk's host cost of a launch by argument count"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); pyk $commit"
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "- reproduce: \`bench/gpu/run_launch_arguments.sh\`$([[ -n "$fake" ]] && echo " (the tests' fake driver: a launch runs nothing)")"
  echo "$table"
} | tee "$out"
echo "written: $out" >&2
# 3: the program ran and a goal was missed (the table says which); anything else failed
[[ $status -eq 0 || $status -eq 3 ]] || exit "$status"
