#!/usr/bin/env bash
# run_tsan: the runtime's concurrency tests under ThreadSanitizer (build-tsan/, PYK_SANITIZE_THREAD):
# 16 host threads launching through one module (first compiles racing), concurrent launches
# sharing one specialization cache, the CPU engine's worker pool, block and grid barriers and
# fault handling, the cache faults, the settings store, the disk cache's concurrent writers, and
# two threads launching one module on two devices of one architecture (the fake driver) and on two
# CPU devices (PYK_CPU_DEVICES=2). Not part of CI (a third build of the whole runtime): run it
# before a change to the runtime's threading lands. A report fails the run.
#   scripts/run_tsan.sh [GTEST_FILTER]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_TSAN_BUILD_DIR:-$root/build-tsan}"
# Not the largest cooperative launch (its 16,384 fibers are ThreadSanitizer threads, past its
# limit of 8,128), nor a fiber's stack overflow (the jump from the fault back to the worker crosses
# fibers, which ThreadSanitizer's siglongjmp cannot follow: "can't find longjmp buf").
filter="${1:-ConcurrentLaunches.*:HostApi.Concurrent*:CpuEngine.*:CpuBlockBarrier*:CpuGridSync*:RuntimeSettings*:KernelFault.*:CacheFaults.*-CpuGridSync.TheLargestCooperativeLaunchesRun}"
"$root/scripts/setup.sh"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" \
  -DPYK_UNITY_BUILD=ON -DPYK_SANITIZE_THREAD=ON -DPYK_BUILD_EXAMPLES=OFF -DPYK_BUILD_BENCH=OFF \
  -DPYK_INSTALL=OFF -DPYK_MPI=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target pyk_runtime_unit_tests pyk_unit_tests \
  pyk_cuda_backend_scenarios pyk_fake_libcuda pyk_fake_libnvrtc pyk_cpu_devices_scenario
export TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1}" # every report, exit 66 if any
export PYK_BACKEND=cpu PYK_CACHE_DIR="$build/tsan-cache"
status=0
"$build/tests/pyk_runtime_unit_tests" --gtest_filter="$filter" || status=1
# The disk cache's concurrent writers and readers (the compiler's units).
"$build/tests/pyk_unit_tests" --gtest_filter="DiskCache.*" || status=1
# A thread per device, one module (the fake driver and NVRTC, as CTest runs them).
PYK_LIBCUDA="$build/tests/libpyk_fake_libcuda.so" PYK_LIBNVRTC="$build/tests/libpyk_fake_libnvrtc.so" \
  PYK_BACKEND=auto PYK_FAKE_CUDA_TWO_H100=1 "$build/tests/pyk_cuda_backend_scenarios" \
  --gtest_filter="TwoH100s.*" || status=1
# A thread per CPU device, each device's engine launching at once (PYK_CPU_DEVICES=2).
PYK_CPU_DEVICES=2 "$build/tests/pyk_cpu_devices_scenario" || status=1
exit $status
