#!/usr/bin/env bash
# minimise_fuzz_corpus: shrinks the committed libFuzzer corpora (tests/fuzz/corpus/<target>/) after
# long fuzzer runs (scripts/run_fuzzers.sh adds what it finds there). Builds the targets as
# run_fuzzers.sh does (a Clang 16 build in build-fuzz/), merges each corpus into an empty folder
# (-set_cover_merge=1 -use_counters=0: a small set of inputs that together reach every coverage
# edge the corpus reaches, chosen as a set cover, about half of what -merge=1's greedy pass by
# size keeps; an input that only hits a known edge more often is dropped) and puts the result in
# its place, then prints each target's count before and after; commit with
# `git add -A tests/fuzz/corpus`. A target whose merge crashes or hangs on an input keeps its corpus
# and fails the script (the input belongs in tests/fuzz/regressions/, which is never touched here).
#   scripts/minimise_fuzz_corpus.sh [TARGET...]
# environment: PYK_FUZZ_MERGE_COUNTERS=1 keeps an input for a new hit count of an edge too
#   (libFuzzer's default features: about three times the inputs); PYK_FUZZ_TIMEOUT, PYK_FUZZ_CORPUS,
#   PYK_FUZZ_BUILD_DIR and PYK_FUZZ_UNITY as in run_fuzzers.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_FUZZ_BUILD_DIR:-$root/build-fuzz}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(front_end typing signature npy cache_entry)

# The build of run_fuzzers.sh (same configure, so the two share build-fuzz/).
"$root/scripts/setup.sh" clang-16 libclang-rt-16-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-16 \
  -DPYK_BUILD_FUZZERS=ON -DPYK_BUILD_TESTS=OFF -DPYK_BUILD_EXAMPLES=OFF -DPYK_BUILD_BENCH=OFF \
  -DPYK_INSTALL=OFF -DPYK_MPI=OFF -DPYK_UNITY_BUILD="${PYK_FUZZ_UNITY:-ON}" "${launcher[@]}" >/dev/null
cmake --build "$build" --target pyk_fuzzers -j "$(nproc)"

corpus="${PYK_FUZZ_CORPUS:-$root/tests/fuzz/corpus}"
counters=0
[ "${PYK_FUZZ_MERGE_COUNTERS:-0}" = 1 ] && counters=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for t in "${targets[@]}"; do
  dir="$corpus/$t"
  log="$build/merge-$t.log"
  if [ ! -d "$dir" ]; then
    echo "== pyk_fuzz_$t: no corpus at $dir" >&2
    status=1
    continue
  fi
  before=$(find "$dir" -maxdepth 1 -type f | wc -l)
  mkdir "$work/$t"
  # One attempt only: libFuzzer's merge steps over an input that crashes or hangs and would leave
  # it out of the corpus without a word.
  if ! "$build/tests/fuzz/pyk_fuzz_$t" -set_cover_merge=1 -use_counters=$counters \
      -timeout="${PYK_FUZZ_TIMEOUT:-30}" -rss_limit_mb=4096 -max_len=8192 \
      "$work/$t" "$dir" >"$log" 2>&1 || ! grep -q "successful in 1 attempt" "$log"; then
    echo "== pyk_fuzz_$t: merge FAILED, corpus left as it was ($log)" >&2
    tail -20 "$log" >&2
    status=1
    continue
  fi
  find "$dir" -maxdepth 1 -type f -delete
  find "$work/$t" -maxdepth 1 -type f -exec mv -t "$dir" {} +
  echo "== pyk_fuzz_$t: $before -> $(find "$dir" -maxdepth 1 -type f | wc -l) inputs;" \
    "$(grep -o '[0-9]* new coverage edges' "$log" | sed 's/new coverage //')"
done
exit $status
