#!/usr/bin/env bash
# run_tests: builds pyk and runs every test (unit, lit golden files, robustness) in parallel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
