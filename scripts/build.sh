#!/usr/bin/env bash
# build: installs what is missing, then configures and builds pyk in build/ (or $PYK_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
# A unity build (PYK_UNITY_BUILD, CMakeLists.txt): a clean build in batches, as CI needs it fast.
# PYK_MPI=OFF: without the MPI example and its tests (and without installing OpenMPI).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPYK_UNITY_BUILD=ON \
  -DPYK_MPI="${PYK_MPI:-ON}" >/dev/null
cmake --build "$build" -j "$(nproc)"
