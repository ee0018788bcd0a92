#!/usr/bin/env bash
# Builds and runs the CPU-backend benchmark (pyk's CPU backend in its own mode and on fibers,
# hand-written OpenMP C++, numba @njit(parallel=True), numba's CUDA simulator) and writes a
# Markdown table of median times and first-launch (compile) times to
# bench/results/cpu-<date>-<host>.md (host: "ci" when $CI is set, else the short hostname),
# printing it too, with the RESULT lines it comes from (.txt) and a plot of the ratios (.png).
#
# usage: bench/cpu/run_cpu_bench.sh [BUILD_DIR]        (default build-bench, under the repository)
# environment: PYK_CPU_THREADS / OMP_NUM_THREADS / NUMBA_NUM_THREADS (default every core),
#              PYK_BENCH_ROUNDS=N  rounds of the OpenMP, pyk and numba-parallel runs (default 3),
#              PYK_BENCH_QUIET_WAIT=S  wait up to S seconds for the 1-minute load average to fall
#                                      below 0.5 before measuring (the machine is shared),
#              PYK_BENCH_LOAD=0  skip the rounds under a competing load (a busy process pinned
#                                to core 0, started by the script; default: run them),
#              PYTHON (default /usr/bin/python3, which has numba and numpy).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-bench}
[[ "$build" = /* ]] || build="$root/$build"
python=${PYTHON:-/usr/bin/python3}
cd "$root"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target pyk_bench_cpu_backend pyk_bench_openmp_reference pykc
scripts/setup.sh python3-matplotlib # the plot
# What was built (the tree may change while the benchmark runs).
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- compiler runtime stdlib ||
  echo ' + uncommitted changes to compiler/runtime/stdlib')"

# One benchmark at a time on this machine: two at once would measure each other.
exec 9>"${TMPDIR:-/tmp}/pyk-cpu-bench.lock"
if ! flock -n 9; then
  echo "another run_cpu_bench.sh is running on this machine; waiting for it..." >&2
  flock 9
fi

if [[ -n "${PYK_BENCH_QUIET_WAIT:-}" ]]; then
  deadline=$((SECONDS + PYK_BENCH_QUIET_WAIT))
  while (( SECONDS < deadline )) && ! awk '{ exit !($1 < 0.5) }' /proc/loadavg; do
    sleep 5
  done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYK_BACKEND=cpu
# The precompiled support header the rounds' caches start with (what a machine's first compile
# leaves): built here by compiling one kernel.
mkdir -m 700 "$work/header"
PYK_CACHE_DIR="$work/header" "$build/compiler/pykc" emit bench/cpu/kernels/vector_add.pyk \
  --emit=so --kernel vector_add --sig 'void(float32[::1], float32[::1], float32[::1])' \
  -o "$work/header/unit.so"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Rounds interleave the implementations, so that a burst of other load on a shared machine hits
# them alike; the table takes the median over rounds. Fibers and the simulator run once.
rounds=${PYK_BENCH_ROUNDS:-3}
for ((round = 1; round <= rounds; ++round)); do
  echo "== round $round of $rounds: OpenMP reference" >&2
  "$build/bench/pyk_bench_openmp_reference" | tee -a "$work/results.txt"
  echo "== round $round of $rounds: pyk CPU backend" >&2
  # An empty disk cache each round, but for the precompiled support header (built once, below):
  # the first launch of each kernel compiles, as a new signature's does.
  rm -rf "$work/cache" && mkdir -m 700 "$work/cache" && cp -al "$work/header"/pch-* "$work/cache"/
  PYK_CACHE_DIR="$work/cache" "$build/bench/pyk_bench_cpu_backend" \
    $( ((round > 1)) && echo --no-fiber) | tee -a "$work/results.txt"
  echo "== round $round of $rounds: numba @njit(parallel=True)" >&2
  "$python" bench/cpu/numba_reference.py --parallel-only | tee -a "$work/results.txt"
done
# The same rounds again with a competing load the script starts itself: a busy process pinned to
# one core, as another program, another MPI rank or a hyperthread sibling would be (set
# PYK_BENCH_LOAD=0 to skip). Their lines are tagged `-load` (`pyk-load`, `openmp-load`, ...).
load_rounds=0
if [[ "${PYK_BENCH_LOAD:-1}" != 0 ]] && command -v taskset >/dev/null; then
  load_rounds=$rounds
  taskset -c 0 sh -c 'while :; do :; done' &
  busy=$!
  trap 'kill $busy 2>/dev/null; rm -rf "$work"' EXIT
  tag() { sed -u 's/^RESULT|\([^|]*\)|\([^|]*\)|/RESULT|\1|\2-load|/'; }
  for ((round = 1; round <= rounds; ++round)); do
    echo "== loaded round $round of $rounds: OpenMP reference" >&2
    "$build/bench/pyk_bench_openmp_reference" | tag | tee -a "$work/results.txt"
    echo "== loaded round $round of $rounds: pyk CPU backend" >&2
    rm -rf "$work/cache" && mkdir -m 700 "$work/cache" && cp -al "$work/header"/pch-* "$work/cache"/
    PYK_CACHE_DIR="$work/cache" "$build/bench/pyk_bench_cpu_backend" --no-fiber | tag |
      tee -a "$work/results.txt"
    echo "== loaded round $round of $rounds: numba @njit(parallel=True)" >&2
    "$python" bench/cpu/numba_reference.py --parallel-only | tag | tee -a "$work/results.txt"
  done
  kill "$busy"
  wait "$busy" 2>/dev/null || true
fi
echo "== numba CUDA simulator (scaled from small problems)" >&2
NUMBA_ENABLE_CUDASIM=1 "$python" bench/cpu/numba_reference.py --simulator-only |
  tee -a "$work/results.txt"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

date=$(date -u +%Y-%m-%d)
host=$([[ -n "${CI:-}" ]] && echo ci || hostname -s)
mkdir -p bench/results
out="bench/results/cpu-$date-$host.md"
"$python" bench/cpu/cpu_bench_table.py "$work/results.txt" \
  --nproc "$(nproc)" \
  --threads "pyk workers ${PYK_CPU_THREADS:-$(nproc)}, OpenMP threads ${OMP_NUM_THREADS:-$(nproc)}, numba threads ${NUMBA_NUM_THREADS:-$(nproc)}" \
  --cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
  --date "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  --load "$load_before -> $load_after" \
  --commit "$commit" \
  --compiler "$(${CXX:-g++} --version | head -1)" \
  --numba "$("$python" -c 'import numba, numpy; print("numba", numba.__version__, "numpy", numpy.__version__)')" \
  --command "bench/cpu/run_cpu_bench.sh ${1:-build-bench}" >"$out"
cat "$out"
echo "written: $out" >&2
cp "$work/results.txt" "${out%.md}.txt" # the RESULT lines the table and plot come from
(cd bench/cpu && "$python" plot_cpu_bench.py "$root/${out%.md}.txt" -o "$root/${out%.md}.png" \
  --title "pyk CPU backend vs OpenMP and numba parallel ($(nproc) cores, $date, medians of $rounds rounds)")
