#!/usr/bin/env bash
# compare_builds: pyk's CPU backend benchmark (pyk_bench_cpu_backend, pyk's own mode) from two
# builds of two checkouts, in interleaved rounds (before/after, then after/before), to show that a
# change of the compiler or runtime leaves speed as it was. Each run gets an empty disk cache with
# both builds' precompiled support headers in it (what a machine's first compile leaves), so the
# first launches compare too. Writes a Markdown table of medians, ratios and the spread over rounds
# to OUT (default bench/results/cpu-compare-<date>-<host>.md) and the RESULT lines beside it.
#
# usage: bench/cpu/compare_builds.sh BEFORE_ROOT AFTER_ROOT [ROUNDS] [OUT]
#   *_ROOT: a checkout with a Release build in build/ (the target is built here if missing)
# environment: PYK_CPU_THREADS (default every core)
set -euo pipefail
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd) rounds=${3:-12}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${4:-$root/bench/results/cpu-compare-$(date -u +%Y-%m-%d)-$(hostname -s).md}
python=${PYTHON:-/usr/bin/python3}
for side in "$before" "$after"; do
  cmake --build "$side/build" --target pyk_bench_cpu_backend pykc >/dev/null
done

exec 9>"${TMPDIR:-/tmp}/pyk-cpu-bench.lock" # one benchmark at a time on this machine
flock 9
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYK_BACKEND=cpu
mkdir -m 700 "$work/header"
for side in "$before" "$after"; do
  PYK_CACHE_DIR="$work/header" "$side/build/compiler/pykc" emit "$side/bench/cpu/kernels/vector_add.pyk" \
    --emit=so --kernel vector_add --sig 'void(float32[::1], float32[::1], float32[::1])' \
    -o "$work/header/unit.so"
done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((round = 1; round <= rounds; ++round)); do
  order=(before after)
  ((round % 2 == 0)) && order=(after before)
  for side in "${order[@]}"; do
    dir=$before
    [ "$side" = after ] && dir=$after
    echo "== round $round of $rounds: $side" >&2
    rm -rf "$work/cache" && mkdir -m 700 "$work/cache" && cp -al "$work/header"/pch-* "$work/cache"/
    (cd "$dir" && PYK_CACHE_DIR="$work/cache" build/bench/pyk_bench_cpu_backend --no-fiber) |
      sed -n "s/^RESULT|/RESULT|$side|$round|/p" >>"$work/results.txt"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

describe() { git -C "$1" rev-parse --short HEAD 2>/dev/null || echo "$1"; }
mkdir -p "$(dirname "$out")"
cp "$work/results.txt" "${out%.md}.txt"
"$python" - "$work/results.txt" "$(describe "$before")" "$(describe "$after")" "$rounds" \
  "$load_before -> $load_after" >"$out" <<'PY'
import collections, statistics, sys
path, before, after, rounds, load = sys.argv[1:]
times = collections.defaultdict(list)
for line in open(path):
    _, side, _, workload, measure, seconds = line.strip().split("|")[:6]
    times[(workload, measure, side)].append(float(seconds))
print(f"# CPU backend: {before} (before) against {after} (after)\n")
print(f"pyk_bench_cpu_backend in pyk's own mode, {rounds} interleaved rounds, each with an empty "
      f"disk cache; load average {load}. Medians over the rounds; a ratio above 1 is slower after.\n")
print("| workload | measure | before | after | after/before | before min-max | after min-max |")
print("|---|---|---|---|---|---|---|")
for workload, measure in sorted({(w, m) for w, m, _ in times}):
    b, a = times[(workload, measure, "before")], times[(workload, measure, "after")]
    mb, ma = statistics.median(b), statistics.median(a)
    print(f"| {workload} | {measure} | {mb:.4g} s | {ma:.4g} s | {ma / mb:.3f} | "
          f"{min(b):.4g}-{max(b):.4g} | {min(a):.4g}-{max(a):.4g} |")
PY
cat "$out"
echo "written: $out" >&2
