#!/usr/bin/env bash
# gpu_session: everything one lease of a GPU machine is used for, in one call, each step under a
# time limit so that a hang in one still leaves the others' results. Run from the repository root
# on the GPU machine, with the bundle of scripts/build_gpu.sh (build-gpu/gpu-bundle.tar.xz)
# carried along. Logs go to $OUT (the device tool's folder that comes back; else gpu-session/),
# eight files at most:
#   summary.txt      the machine (nvidia-smi, driver, toolkit, Python packages) and each step's
#                    exit status and seconds
#   tests.log        the runtime API tests and every example on CUDA (run_gpu_tests.sh), and the
#                    MPI example's checks on CUDA (run_gpu_mpi.sh)
#   mpi-scaling-<date>-<device>.md   its scaling table
#   bench.log, gpu-<date>-<device>.md   bench/gpu/run_gpu_bench.sh and its table
#   conformance.log, numba-suite.log (numba-suite-cuda.md at its end), sanitizer.log   the
#                    correctness runs, side by side after the benchmark (which runs alone, so
#                    nothing disturbs it)
# usage: scripts/gpu_session.sh [BUILD_DIR]            (default build-gpu)
# environment: PYK_SESSION_STEPS (default "api examples mpi bench checks", in that order; the
#   benchmark runs alone, the checks side by side), PYK_BENCH_LIMIT / PYK_CHECKS_LIMIT (seconds),
#   PYK_BENCH_ROUNDS, PYK_BENCH_COMPILE_REPS, PYK_GPU_JOBS, PYK_SANITIZER_TOOLS and
#   PYK_SANITIZER_EXAMPLES (run_gpu_tests.sh)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${1:-build-gpu}"
out="${OUT:-$root/gpu-session}"
mkdir -p "$out"
summary="$out/summary.txt"
export PYTHONUNBUFFERED=1 PYK_COMPILE_MESSAGES=0

# step NAME SECONDS LOG COMMAND...: the command under `timeout`, its exit status and time noted.
step() {
  local name=$1 limit=$2 log=$3 start rc
  shift 3
  start=$(date +%s)
  echo "== $name (limit ${limit}s)" | tee -a "$log" >&2
  timeout -k 10 "$limit" "$@" >>"$log" 2>&1
  rc=$?
  [ $rc -eq 124 ] && echo "== $name: TIMED OUT after ${limit}s" >>"$log"
  echo "$name: exit $rc, $(($(date +%s) - start)) s" | tee -a "$summary" >&2
}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
    --format=csv 2>&1
  (nvcc --version 2>/dev/null || /usr/local/cuda/bin/nvcc --version) | grep release
  ls -d /usr/local/cuda*/lib64/libnvrtc.so* 2>&1 | head -3
  python3 -c 'import numpy, numba; print("numpy", numpy.__version__, "numba", numba.__version__)
try:
    import cupy; print("cupy", cupy.__version__)
except Exception as e: print("cupy:", e)' 2>&1
  nproc
} >"$summary" 2>&1

if [ -f "$build/gpu-bundle.tar.xz" ] && [ ! -x "$build/compiler/pykc" ]; then
  tar -C "$build" -xJf "$build/gpu-bundle.tar.xz" || { echo "bundle unpack failed" >>"$summary"; exit 1; }
fi
if ! "$build/tests/pyk_cuda_available" >>"$summary" 2>&1; then
  echo "CUDA cannot run here: stopping" >>"$summary"
  exit 77
fi

tests="scripts/run_gpu_tests.sh"
steps=" ${PYK_SESSION_STEPS:-api examples mpi bench checks} "
bench() {
  step bench "${PYK_BENCH_LIMIT:-200}" "$out/bench.log" env PYK_BENCH_ROUNDS="${PYK_BENCH_ROUNDS:-3}" \
    PYK_BENCH_COMPILE_REPS="${PYK_BENCH_COMPILE_REPS:-2}" PYK_BENCH_RESULTS_DIR="$out" \
    bench/gpu/run_gpu_bench.sh "$build"
}
checks() {
  local limit=${PYK_CHECKS_LIMIT:-150}
  export PYK_GPU_JOBS=${PYK_GPU_JOBS:-6}
  step conformance "$limit" "$out/conformance.log" "$tests" --only conformance "$build" &
  step numba_suite "$limit" "$out/numba-suite.log" "$tests" --only numba_suite "$build" &
  step sanitizer "$limit" "$out/sanitizer.log" env PYK_SANITIZER_TOOLS="${PYK_SANITIZER_TOOLS:-memcheck racecheck}" \
    "$tests" --only sanitizer "$build" &
  wait
}
for name in $steps; do
  case $name in
    api) step api 60 "$out/tests.log" "$tests" --only api "$build" ;;
    examples) step examples 120 "$out/tests.log" "$tests" --only examples "$build" ;;
    mpi) step mpi "${PYK_MPI_LIMIT:-120}" "$out/tests.log" scripts/run_gpu_mpi.sh "$build" ;;
    bench) bench ;;
    checks) checks ;;
    *) echo "unknown step $name" >>"$summary" ;;
  esac
done
# (Appended, not copied: what comes back from the machine is eight files at most.)
[ -f "$build/numba-suite-cuda.md" ] && cat "$build/numba-suite-cuda.md" >>"$out/numba-suite.log"
cat "$summary"
tail -n 30 "$out"/gpu-*.md "$out"/mpi-scaling-*.md 2>/dev/null
grep -E "^(== |PASS|FAIL)" "$out/tests.log" 2>/dev/null | tail -n 20
