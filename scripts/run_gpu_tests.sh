#!/usr/bin/env bash
# run_gpu_tests: the `gpu` tests from a build folder made by scripts/build_gpu.sh, on a machine
# with a GPU (run from the repository root; paths are relative, so the folder may have been
# copied from another machine). The three tests CTest knows by the label `gpu` (the runtime API
# on the device, every example on CUDA, the conformance suite on CUDA compared with numba's
# simulator), then numba's own CUDA tests launch by launch on CUDA (collected by build_gpu.sh),
# and compute-sanitizer's memcheck, racecheck and synccheck over every example where it is
# installed (CUDA_HOME/bin or PATH).
# Exits 77 with the reason when CUDA cannot run here; non-zero when any test fails.
# usage: scripts/run_gpu_tests.sh [--only STEP[,STEP...]] [BUILD_DIR]      (default build-gpu)
#   steps: api, examples, conformance, numba_suite, sanitizer (default: all, in that order)
# environment: PYK_GPU_JOBS (parallel cases, default 8), PYK_SANITIZER_TOOLS (default
#   "memcheck racecheck synccheck"), PYK_SANITIZER_EXAMPLES (names without pyk_example_; default
#   every example), PYK_NUMBA_SUITE_TIME_LIMIT (seconds: a partial run of numba's suite, a
#   sample of its launches)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
only="api,examples,conformance,numba_suite,sanitizer"
if [ "${1:-}" = "--only" ]; then
  only="$2"
  shift 2
fi
build="${1:-$root/build-gpu}"
python="${PYTHON:-python3}"
jobs="${PYK_GPU_JOBS:-8}"
export PYK_BACKEND=cuda
export PYK_CACHE_DIR="${PYK_CACHE_DIR:-$build/gpu-cache}"
wanted() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# A build folder carried as its bundle (scripts/build_gpu.sh) is unpacked first.
if [ -f "$build/gpu-bundle.tar.xz" ] && [ ! -x "$build/compiler/pykc" ]; then
  tar -C "$build" -xJf "$build/gpu-bundle.tar.xz" || exit 1
fi
"$build/tests/pyk_cuda_available" || exit $?
status=0
run() {
  echo "== $1" >&2
  shift
  "$@"
  local rc=$?
  if [ $rc -eq 0 ]; then echo "PASS" >&2; else status=1; echo "FAIL (exit $rc)" >&2; fi
}
wanted api && run "gpu_runtime_api" "$build/tests/pyk_gpu_runtime_tests"
wanted examples &&
  run "gpu_examples" env PYK_BUILD_DIR="$build" "$root/scripts/run_examples.sh" --no-build
# The conformance reference recorded by build_gpu.sh under numba 0.56, where there is one; else
# this machine's simulator.
reference=()
[ -d "$build/conformance-reference" ] && reference=(--expected "$build/conformance-reference")
wanted conformance && run "gpu_conformance_vs_numba_simulator" \
  "$python" "$root/tests/conformance/run_conformance.py" "$build/compiler/pykc" --backend cuda \
  -j "$jobs" "${reference[@]}"
if wanted numba_suite; then
  if [ -f "$build/numba-suite/launches.json" ]; then
    run "numba_suite_on_cuda" "$python" "$root/tests/numba_suite/run_numba_suite.py" \
      "$build/compiler/pykc" "$build/numba-suite" --reuse --backend cuda --no-cuda -j "$jobs" \
      --markdown "$build/numba-suite-cuda.md" \
      --min-matched-file "$root/tests/numba_suite/matched_floor.txt" \
      ${PYK_NUMBA_SUITE_TIME_LIMIT:+--time-limit "$PYK_NUMBA_SUITE_TIME_LIMIT"}
  else
    echo "== numba_suite_on_cuda: skipped, $build/numba-suite was not collected (build_gpu.sh does)" >&2
  fi
fi
if wanted sanitizer; then
  sanitizer="$(command -v compute-sanitizer || true)"
  for dir in "${CUDA_HOME:-/usr/local/cuda}/bin" /usr/local/cuda*/bin; do
    [ -z "$sanitizer" ] && [ -x "$dir/compute-sanitizer" ] && sanitizer="$dir/compute-sanitizer"
  done
  if [ -n "$sanitizer" ]; then
    mkdir -p "$build/sanitizer-output"
    while read -r program; do
      case " ${PYK_SANITIZER_EXAMPLES:-${program#pyk_example_}} " in
        *" ${program#pyk_example_} "*) ;;
        *) continue ;;
      esac
      for tool in ${PYK_SANITIZER_TOOLS:-memcheck racecheck synccheck}; do
        run "compute-sanitizer $tool ${program#pyk_example_}" env PYK_DIFFUSION_STEPS=20 \
          "$sanitizer" --tool "$tool" --error-exitcode 1 "$build/examples/$program" \
          "$root/examples" "$build/sanitizer-output"
      done
    done <"$build/examples/example_programs.txt"
  else
    echo "== compute-sanitizer: skipped, not installed here" >&2
  fi
fi
exit $status
