#!/usr/bin/env bash
# run_numba_suites: both of numba's CUDA test suites, whole, launch by launch (CI runs numba 0.56's
# whole and every third launch of numba-cuda's): tests/numba_suite against Debian's numba 0.56 and
# tests/numba_cuda_suite against numba-cuda from .venv-numba-cuda/ (scripts/setup_numba_cuda.sh).
# Each fails under its committed floor (matched_floor.txt); the tables are written to
# WORK/numba-suite.md and WORK/numba-cuda-suite.md; then the kernels numba-cuda's tests compile
# without launching (--compile-only, floor compile_only_floor.txt, WORK/numba-cuda-compile-only.md).
# Run before you stop; about 20 minutes on 2 cores.
#   scripts/run_numba_suites.sh [PYKC [WORK]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pykc="${1:-$root/build/compiler/pykc}"
work="${2:-${TMPDIR:-/tmp}/pyk-numba-suites}"
python="$("$root/scripts/setup_numba_cuda.sh")"
status=0
/usr/bin/python3 "$root/tests/numba_suite/run_numba_suite.py" "$pykc" "$work/numba-0.56" -j "$(nproc)" \
  --markdown "$work/numba-suite.md" \
  --min-matched-file "$root/tests/numba_suite/matched_floor.txt" || status=1
/usr/bin/python3 "$root/tests/numba_suite/run_numba_suite.py" "$pykc" "$work/numba-cuda" -j "$(nproc)" \
  --python "$python" --differs-file "$root/tests/numba_cuda_suite/compiled_numba_differs.txt" \
  --markdown "$work/numba-cuda-suite.md" \
  --min-matched-file "$root/tests/numba_cuda_suite/matched_floor.txt" || status=1
/usr/bin/python3 "$root/tests/numba_suite/run_numba_suite.py" "$pykc" "$work/numba-cuda-compile-only" \
  -j "$(nproc)" --python "$python" --compile-only --markdown "$work/numba-cuda-compile-only.md" \
  --min-matched-file "$root/tests/numba_cuda_suite/compile_only_floor.txt" || status=1
exit $status
