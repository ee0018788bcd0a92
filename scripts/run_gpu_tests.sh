#!/usr/bin/env bash
# run_gpu_tests: the `gpu` tests from a build folder made by scripts/build_gpu.sh, on a machine
# with a GPU (run from the repository root; paths are relative, so the folder may have been
# copied from another machine). The same three tests CTest knows by the label `gpu`:
#   the runtime API on the device, every example on CUDA, and the conformance suite on
#   CUDA compared with numba's simulator.
# Exits 77 with the reason when CUDA cannot run here; non-zero when any test fails.
# usage: scripts/run_gpu_tests.sh [BUILD_DIR]        (default build-gpu)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-gpu}"
python="${PYTHON:-python3}"
export PYK_BACKEND=cuda
export PYK_CACHE_DIR="${PYK_CACHE_DIR:-$build/gpu-cache}"

# A build folder carried as its bundle (scripts/build_gpu.sh) is unpacked first.
if [ -f "$build/gpu-bundle.tar.xz" ] && [ ! -x "$build/compiler/pykc" ]; then
  tar -C "$build" -xJf "$build/gpu-bundle.tar.xz" || exit 1
fi
"$build/tests/pyk_cuda_available" || exit $?
status=0
run() {
  echo "== $1" >&2
  shift
  if "$@"; then echo "PASS" >&2; else status=1; echo "FAIL (exit $?)" >&2; fi
}
run "gpu_runtime_api" "$build/tests/pyk_gpu_runtime_tests"
run "gpu_examples" env PYK_BUILD_DIR="$build" "$root/scripts/run_examples.sh" --no-build
run "gpu_conformance_vs_numba_simulator" \
  "$python" "$root/tests/conformance/run_conformance.py" "$build/compiler/pykc" --backend cuda -j 8
exit $status
