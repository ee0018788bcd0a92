#!/usr/bin/env bash
# run_fuzzers: builds the libFuzzer targets (tests/fuzz/, a Clang build in build-fuzz/) and runs
# each for SECONDS (default 60) on its corpus, seeded from the examples, tests and lit inputs.
# New inputs the fuzzer finds go into tests/fuzz/corpus/<target>/ ($PYK_FUZZ_CORPUS/<target>/);
# after long runs, scripts/minimise_fuzz_corpus.sh merges them (-set_cover_merge=1) into a small corpus to
# commit. A crash stops its target, is kept in tests/fuzz/crashes/ and fails the script.
#   scripts/run_fuzzers.sh [SECONDS] [TARGET...]
# environment: PYK_FUZZ_JOBS (targets run at once, default 1), PYK_FUZZ_TIMEOUT (seconds an input
#   may take, default 30), PYK_FUZZ_CORPUS, PYK_FUZZ_BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(front_end typing signature npy cache_entry)

# Clang and its libFuzzer runtime (Debian's clang 16: its libFuzzer has -set_cover_merge, which
# scripts/minimise_fuzz_corpus.sh uses), beside what the build needs.
"$root/scripts/setup.sh" clang-16 libclang-rt-16-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-16 \
  -DPYK_BUILD_FUZZERS=ON -DPYK_BUILD_TESTS=OFF -DPYK_BUILD_EXAMPLES=OFF -DPYK_BUILD_BENCH=OFF \
  -DPYK_INSTALL=OFF -DPYK_MPI=OFF -DPYK_UNITY_BUILD="${PYK_FUZZ_UNITY:-ON}" "${launcher[@]}" >/dev/null
cmake --build "$build" --target pyk_fuzzers -j "$(nproc)"

corpus="${PYK_FUZZ_CORPUS:-$root/tests/fuzz/corpus}"
seed() { # seed TARGET FILES...: copies seeds into the target's corpus (named by content)
  local dir="$corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)"
  done
  return 0
}
mapfile -t sources < <(ls "$root"/examples/*.pyk "$root"/tests/lit/*/*.pyk "$root"/bench/*/kernels/*.pyk 2>/dev/null)
seed front_end "${sources[@]}"
seed typing "${sources[@]}"
mkdir -p "$corpus/signature"
for s in 'void(float32[::1], float32[::1])' '(int64, float64[:, ::1])' 'float32(float32, int32)' \
         'void(UniTuple(float32, 3), Tuple((int64, float32)))' 'void(Array(float64, 2, "F"))' \
         'void(Record(x[type=float32;offset=0],y[type=int64;offset=8];16;False))'; do
  printf '%s' "$s" >"$corpus/signature/seed-$(printf '%s' "$s" | sha1sum | cut -c1-16)"
done
/usr/bin/python3 - "$corpus/npy" <<'PY'
import io, os, sys
import numpy as np
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
arrays = [np.arange(6, dtype=np.float32), np.zeros((2, 3), np.int64), np.float64(3.0),
          np.asfortranarray(np.ones((3, 2), np.int16)), np.zeros(2, dtype=[('x', '<f4'), ('y', '<i8')]),
          np.array([1 + 2j], np.complex64), np.array([True, False]), np.zeros((0, 4), np.uint8)]
for i, a in enumerate(arrays):
    b = io.BytesIO()
    np.save(b, a)
    open(os.path.join(out, 'seed-%d' % i), 'wb').write(b.getvalue())
PY
mkdir -p "$corpus/cache_entry"
printf 'PYKCACHE' >"$corpus/cache_entry/seed-magic"

mkdir -p "$root/tests/fuzz/crashes"
# fuzz TARGET: one target's run; its summary printed when it ends, exit 1 on a crash.
fuzz() {
  local t=$1 rc=0
  "$build/tests/fuzz/pyk_fuzz_$t" "$corpus/$t" -dict="$root/tests/fuzz/pyk.dict" \
    -max_total_time="$seconds" -timeout="${PYK_FUZZ_TIMEOUT:-30}" -rss_limit_mb=4096 -max_len=8192 \
    -artifact_prefix="$root/tests/fuzz/crashes/$t-" -print_final_stats=1 2>"$build/fuzz-$t.log" ||
    rc=1
  {
    echo "== pyk_fuzz_$t, $seconds s$([ $rc = 0 ] || echo ": FAILED")"
    [ $rc = 0 ] || tail -40 "$build/fuzz-$t.log"
    grep -E "^stat::(number_of_executed_units|new_units_added|peak_rss_mb)" "$build/fuzz-$t.log" || true
    echo "corpus: $(ls "$corpus/$t" | wc -l) inputs"
  }
  return $rc
}
# PYK_FUZZ_JOBS targets at once (default 1).
status=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "${PYK_FUZZ_JOBS:-1}" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
