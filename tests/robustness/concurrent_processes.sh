#!/usr/bin/env bash
# concurrent_processes: 8 `pykc run` processes at once, compiling the same kernels (and some
# different ones) into one empty disk cache, ROUNDS times. Every process's results must be right,
# the cache must hold whole entries only (a run afterwards compiles nothing: it says nothing under
# PYK_COMPILE_MESSAGES=1) and no temporary file may be left behind.
# Usage: concurrent_processes.sh PYKC WORK [ROUNDS]
set -euo pipefail
pykc=$1 work=$2 rounds=${3:-3}
python=/usr/bin/python3
rm -rf "$work"
mkdir -p "$work"
cat >"$work/k.pyk" <<'PYK'
from numba import cuda


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]
PYK
$python -c "
import numpy as np
for t in ('float32', 'float64', 'int32', 'int64'):
    np.save('$work/x_%s.npy' % t, np.arange(100).astype(t))
    np.save('$work/y_%s.npy' % t, np.ones(100).astype(t))
"
for round in $(seq 1 "$rounds"); do
  cache="$work/cache-$round"
  pids=()
  for p in $(seq 0 7); do
    types=(float32 float64 int32 int64)
    t=${types[$((p % 4))]}
    PYK_BACKEND=cpu PYK_CACHE_DIR="$cache" PYK_COMPILE_MESSAGES=0 \
      "$pykc" run "$work/k.pyk" axpy --grid 1 --block 128 --out "$work/out-$round-$p" \
      "$t:2" "$work/x_$t.npy" "$work/y_$t.npy" 2>"$work/err-$round-$p" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid"
  done
  for p in $(seq 0 7); do
    $python -c "
import numpy as np
y = np.load('$work/out-$round-$p/arg2.npy')
assert (y == 2 * np.arange(100) + 1).all(), y
"
  done
  # Whole entries only: a second run finds everything (nothing compiled, nothing said).
  for t in float32 float64 int32 int64; do
    out=$(PYK_BACKEND=cpu PYK_CACHE_DIR="$cache" PYK_COMPILE_MESSAGES=1 \
      "$pykc" run "$work/k.pyk" axpy --grid 1 --block 128 --out "$work/again" \
      "$t:2" "$work/x_$t.npy" "$work/y_$t.npy" 2>&1)
    if [ -n "$out" ]; then
      echo "round $round: the cache did not serve $t: $out" >&2
      exit 1
    fi
  done
  entries=$(PYK_CACHE_DIR="$cache" "$pykc" cache list | tail -1)
  case "$entries" in
  "4 entries,"*) ;;
  *) echo "round $round: expected 4 entries, got: $entries" >&2; exit 1 ;;
  esac
  # Besides the entries: the precompiled support header the eight built once between them (a
  # folder and its lock file), and no temporary file or folder.
  if ls -A "$cache" | grep -v -E '\.entry$|^pch-[0-9a-f]{32}(\.lock)?$' | grep -q .; then
    echo "round $round: files left in the cache: $(ls -A "$cache")" >&2
    exit 1
  fi
  if [ "$(ls -d "$cache"/pch-*/ 2>/dev/null | wc -l)" -gt 1 ]; then
    echo "round $round: more than one precompiled header: $(ls -A "$cache")" >&2
    exit 1
  fi
done
echo "concurrent_processes: $rounds rounds of 8 processes, all results right, caches whole"
