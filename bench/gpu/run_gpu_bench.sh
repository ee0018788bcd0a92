#!/usr/bin/env bash
# Runs the GPU benchmark on the machine with the GPU: pyk's CUDA backend (the program
# bench/pyk_bench_gpu_backend of a pyk build folder, with PYK_BACKEND=cuda), hand-written CUDA C++
# (bench/gpu/cuda_reference.cu, compiled here with nvcc), numba-cuda on the same .pyk kernels
# (bench/gpu/numba_cuda_reference.py) and CuPy (bench/gpu/cupy_reference.py), and writes the
# Markdown report of gpu_bench_table.py to bench/results/gpu-<date>-<device>.md (device: the GPU's
# name from nvidia-smi, sanitized), printing it too. Each of the four is optional: a missing one
# (no program, no nvcc, no numba-cuda, no CuPy) prints a "skipped" line and the run goes on; one
# that is there but fails makes the run's exit status 1 after the report is written.
#
# usage: bench/gpu/run_gpu_bench.sh [BUILD_DIR]         (default build-gpu, under the repository;
#        build pyk's program first: cmake --build BUILD_DIR --target pyk_bench_gpu_backend)
# environment: PYK_BENCH_ROUNDS=N  interleaved rounds of every implementation (default 3; the
#                                  compile-time measurements run in round 1 only),
#              PYK_BENCH_COMPILE_REPS=N  cold/warm process pairs per kernel (default 3),
#              PYK_BENCH_CUDA_ARCH  nvcc's -arch (default sm_90), NVCC (default nvcc on PATH,
#                                   else /usr/local/cuda/bin/nvcc),
#              PYTHON (default python3: the one with numba-cuda and CuPy),
#              PYK_BENCH_RESULTS_DIR  where the report goes (default bench/results),
#              PYK_BENCH_RAW=FILE  also keep the raw RESULT lines there.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-gpu}
[[ "$build" = /* ]] || build="$root/$build"
python=${PYTHON:-python3}
arch=${PYK_BENCH_CUDA_ARCH:-sm_90}
rounds=${PYK_BENCH_ROUNDS:-3}
compile_reps=${PYK_BENCH_COMPILE_REPS:-3}
results_dir=${PYK_BENCH_RESULTS_DIR:-bench/results}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cd "$root"

# What is measured (the tree may change while the benchmark runs).
if commit=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD -- compiler runtime stdlib 2>/dev/null ||
    commit="$commit + uncommitted changes to compiler/runtime/stdlib"
else
  commit="(not a git checkout)"
fi

# One benchmark at a time on this machine: two at once would measure each other.
exec 9>"${TMPDIR:-/tmp}/pyk-gpu-bench.lock"
if ! flock -n 9; then
  echo "another run_gpu_bench.sh is running on this machine; waiting for it..." >&2
  flock 9
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.txt"
: >"$results"
skipped=()
failed=()

# ---- what can run -------------------------------------------------------------------------------
if command -v nvidia-smi >/dev/null; then
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
else
  gpu_name="unknown GPU (no nvidia-smi)"
  driver="?"
fi
device=$(echo "$gpu_name" | tr '[:upper:]' '[:lower:]' |
  sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')
[[ -n "$device" ]] || device=unknown-gpu

pyk_bench="$build/bench/pyk_bench_gpu_backend"
have_pyk=0
if [[ -x "$pyk_bench" ]]; then
  have_pyk=1
else
  echo "== skipped: pyk ($pyk_bench is not built:" \
    "cmake --build $build --target pyk_bench_gpu_backend)" >&2
  skipped+=("pyk (no $pyk_bench)")
fi

cuda_ref="$build/bench/cuda_reference"
have_cuda=0
if [[ -x "$nvcc" ]] || command -v "$nvcc" >/dev/null 2>&1; then
  mkdir -p "$build/bench"
  echo "== compiling bench/gpu/cuda_reference.cu: $nvcc -O3 -arch=$arch" >&2
  start=$(date +%s.%N)
  if "$nvcc" -O3 -arch="$arch" -o "$cuda_ref" bench/gpu/cuda_reference.cu; then
    end=$(date +%s.%N)
    have_cuda=1
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6g", b - a }')
    note="nvcc -O3 -arch=$arch of the whole program (all kernels and host code), offline"
    note+=" before the run; nothing compiles at run time"
    echo "RESULT|compile_cold:cuda_reference.cu|CUDA C++ (nvcc -O3)|$seconds|1|$note" |
      tee -a "$results"
  else
    echo "== FAILED: nvcc could not compile bench/gpu/cuda_reference.cu" >&2
    failed+=("CUDA C++ (nvcc failed)")
  fi
else
  echo "== skipped: CUDA C++ reference (no nvcc: set NVCC, or put the CUDA toolkit's bin" \
    "on PATH)" >&2
  skipped+=("CUDA C++ (no nvcc)")
fi

have_numba=0
if "$python" -c 'from numba import cuda; import sys; sys.exit(0 if cuda.is_available() else 1)' \
  >/dev/null 2>&1; then
  have_numba=1
else
  echo "== skipped: numba-cuda ($python cannot import numba.cuda, or it finds no GPU)" >&2
  skipped+=("numba-cuda (not importable with $python, or no GPU for it)")
fi

have_cupy=0
if "$python" -c 'import cupy, sys; sys.exit(0 if cupy.cuda.is_available() else 1)' \
  >/dev/null 2>&1; then
  have_cupy=1
else
  echo "== skipped: CuPy ($python cannot import cupy, or it finds no GPU)" >&2
  skipped+=("CuPy (not importable with $python, or no GPU for it)")
fi

# run NAME COMMAND...: its RESULT lines into the results; a failure is remembered, not fatal.
run() {
  local name=$1
  shift
  echo "== $name" >&2
  if ! "$@" | tee -a "$results"; then
    echo "== FAILED: $name" >&2
    failed+=("$name")
  fi
}

# ---- the rounds ---------------------------------------------------------------------------------
# Rounds interleave the implementations, so that whatever else disturbs the machine hits them
# alike; the table takes the median over rounds. Compile times: round 1 only.
for ((round = 1; round <= rounds; ++round)); do
  compile_args=(--compile-reps "$compile_reps")
  if ((round > 1)); then
    compile_args=(--no-compile)
  fi
  if ((have_cuda)); then
    run "round $round of $rounds: CUDA C++ reference" "$cuda_ref"
  fi
  if ((have_pyk)); then
    run "round $round of $rounds: pyk CUDA backend" env PYK_BACKEND=cuda "$pyk_bench"
  fi
  if ((have_numba)); then
    run "round $round of $rounds: numba-cuda" \
      "$python" bench/gpu/numba_cuda_reference.py "${compile_args[@]}"
  fi
  if ((have_cupy)); then
    run "round $round of $rounds: CuPy" "$python" bench/gpu/cupy_reference.py "${compile_args[@]}"
  fi
done

# ---- the report ---------------------------------------------------------------------------------
versions="driver $driver"
if ((have_cuda)); then
  versions+="; $("$nvcc" --version | grep -m1 -o 'release [0-9.]*' | sed 's/release/nvcc/')"
fi
if ((have_numba)); then
  versions+="; $("$python" -c 'import numba
try:
    from importlib.metadata import version
    nc = version("numba-cuda")
except Exception:
    nc = "(bundled)"
print("numba", numba.__version__, "numba-cuda", nc)')"
fi
if ((have_cupy)); then
  versions+="; $("$python" -c 'import cupy; print("CuPy", cupy.__version__)')"
fi
((${#skipped[@]} == 0)) || versions+="; skipped: $(printf '%s; ' "${skipped[@]}" | sed 's/; $//')"
((${#failed[@]} == 0)) || versions+="; FAILED: $(printf '%s; ' "${failed[@]}" | sed 's/; $//')"

date=$(date -u +%Y-%m-%d)
mkdir -p "$results_dir"
out="$results_dir/gpu-$date-$device.md"
"$python" bench/gpu/gpu_bench_table.py "$results" \
  --device "$gpu_name" \
  --date "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  --commit "$commit" \
  --versions "$versions" \
  --command "bench/gpu/run_gpu_bench.sh ${1:-build-gpu}" >"$out"
[[ -z "${PYK_BENCH_RAW:-}" ]] || cp "$results" "$PYK_BENCH_RAW"
cat "$out"
echo "written: $out" >&2
if ((${#failed[@]} > 0)); then
  echo "FAILED: $(printf '%s; ' "${failed[@]}" | sed 's/; $//')" >&2
  exit 1
fi
