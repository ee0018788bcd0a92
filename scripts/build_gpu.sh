#!/usr/bin/env bash
# build_gpu: builds what a GPU machine runs (pykc, the `gpu` tests, the examples, the MPI example
# with a packed Open MPI unless PYK_MPI=OFF, the GPU benchmark) into build-gpu/ (or $PYK_GPU_BUILD_DIR), with libstdc++ and libgcc linked
# statically as the other third-party libraries already are (ANTLR's runtime, Boost.Context), so
# the folder runs on a machine that has only the NVIDIA driver and the CUDA toolkit: the driver
# and NVRTC are loaded at run time, nothing else is needed. Copy the folder with the repository
# (the device tool's `carry`) and run scripts/run_gpu_tests.sh there. The programs together are
# larger than a carry may be, so they are also packed into build-gpu/gpu-bundle.tar.xz: carry that
# one file, and run_gpu_tests.sh unpacks it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_GPU_BUILD_DIR:-$root/build-gpu}"

"$root/scripts/setup.sh"
mpi="${PYK_MPI:-ON}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPYK_UNITY_BUILD=ON \
  -DPYK_MPI="$mpi" -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" >/dev/null
targets=(pykc pyk_cuda_available pyk_gpu_runtime_tests pyk_examples pyk_bench_gpu_backend)
[ "$mpi" != OFF ] && targets+=(pyk_diffusion_mpi)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
# What the binaries still need from the machine: the C library only.
for binary in "$build/compiler/pykc" "$build/tests/pyk_gpu_runtime_tests"; do
  if ldd "$binary" | grep -qE 'libstdc\+\+|libgcc_s|libantlr|libboost|libcuda|libnvrtc'; then
    echo "build_gpu: $binary still links a library the GPU machine may lack:" >&2
    ldd "$binary" >&2
    exit 1
  fi
done
# numba's CUDA tests, launch by launch, collected here under the simulator (the GPU machine has no
# numba): run_gpu_tests.sh runs them there on CUDA.
rm -rf "$build/numba-suite"
/usr/bin/python3 "$root/tests/numba_suite/run_numba_suite.py" "$build/compiler/pykc" \
  "$build/numba-suite" --collect-only >/dev/null
# The conformance cases' reference, recorded here under numba 0.56's simulator (the authority;
# the GPU machine's numba, if any, is another version): run_gpu_tests.sh compares with it there.
rm -rf "$build/conformance-reference"
/usr/bin/python3 "$root/tests/conformance/run_conformance.py" - --record \
  "$build/conformance-reference" -j "$(nproc)" >/dev/null
programs=(compiler/pykc tests/pyk_cuda_available tests/pyk_gpu_runtime_tests
  bench/pyk_bench_gpu_backend examples/example_programs.txt numba-suite/launches.json
  numba-suite/cases conformance-reference)
while read -r program; do programs+=("examples/$program"); done <"$build/examples/example_programs.txt"
# The MPI example with this machine's Open MPI packed beside it (GPU machines may have no MPI):
# `. mpi-runtime/env.sh` there puts it first (scripts/run_gpu_mpi.sh).
if [ "$mpi" != OFF ]; then
  "$root/scripts/pack_openmpi.sh" "$build/mpi-runtime" "$build/examples/diffusion_mpi/pyk_diffusion_mpi"
  programs+=(examples/diffusion_mpi/pyk_diffusion_mpi mpi-runtime)
fi
tar -C "$build" -cJf "$build/gpu-bundle.tar.xz" "${programs[@]}"
du -sh "$build/gpu-bundle.tar.xz"
