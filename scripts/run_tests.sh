#!/usr/bin/env bash
# run_tests: builds pyk and runs every test (unit, lit golden files, robustness, examples,
# conformance, numba's suite, the downstream project, the fuzz targets replaying their corpora) in
# parallel; then builds pyk again with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-sanitize/, PYK_SANITIZE=ON) and runs the unit, lit and ahead-of-time tests there (labels
# unit|lit|aot; the kernels the CPU backend compiles at run time are not instrumented, the runtime
# running them is); then runs each libFuzzer target for 60 s on a copy of its committed corpus
# (scripts/run_fuzzers.sh, a Clang build in build-fuzz/; a crash fails the run).
#   scripts/run_tests.sh                 all three
#   scripts/run_tests.sh --no-sanitize   the first only
#   scripts/run_tests.sh --sanitize      the sanitized run only
#   scripts/run_tests.sh --fuzz          the fuzzers only;  --no-fuzz: the first two
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"
mode=${1:-all}
case "$mode" in
all) parts=" normal sanitize fuzz " ;;
--no-sanitize) parts=" normal " ;;
--sanitize) parts=" sanitize " ;;
--fuzz) parts=" fuzz " ;;
--no-fuzz) parts=" normal sanitize " ;;
*) echo "usage: $0 [--no-sanitize | --sanitize | --fuzz | --no-fuzz]" >&2; exit 2 ;;
esac

if [[ "$parts" == *" normal "* ]]; then
  "$root/scripts/build.sh"
  "$root/scripts/setup_numba_cuda.sh" >/dev/null # numba-cuda's suite (tests/numba_cuda_suite)
  ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
fi
if [[ "$parts" == *" sanitize "* ]]; then
  sanitize="${PYK_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  "$root/scripts/setup.sh"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # -O1: the sanitizers' usual level (a faster build, stacks still readable).
  cmake -S "$root" -B "$sanitize" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DPYK_UNITY_BUILD=ON -DPYK_SANITIZE=ON -DPYK_MPI="${PYK_MPI:-ON}" "${launcher[@]}" >/dev/null
  cmake --build "$sanitize" -j "$(nproc)"
  # Leak checking needs ptrace, which some containers forbid: on only when asked
  # (ASAN_OPTIONS=detect_leaks=1).
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
  ctest --test-dir "$sanitize" -j "$(nproc)" --output-on-failure -L "unit|lit|aot"
fi
if [[ "$parts" == *" fuzz "* ]]; then
  # On a copy: what the fuzzers add stays out of the tree (long runs are merged with
  # scripts/minimise_fuzz_corpus.sh).
  corpus="$(mktemp -d)"
  trap 'rm -rf "$corpus"' EXIT
  cp -r "$root/tests/fuzz/corpus/." "$corpus/"
  PYK_FUZZ_CORPUS="$corpus" PYK_FUZZ_JOBS="$(nproc)" "$root/scripts/run_fuzzers.sh" 60
fi
