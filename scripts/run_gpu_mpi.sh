#!/usr/bin/env bash
# run_gpu_mpi: examples/diffusion_mpi on CUDA, on a GPU machine, from the bundle of
# scripts/build_gpu.sh (with its packed Open MPI when the machine has no mpirun): the field on 1
# and 2 ranks (sharing the GPU when there is one) against one process, bit for bit
# (tests/mpi/run_diffusion_mpi.sh), halos staged through the host unless the MPI is CUDA-aware;
# --halo=direct refused, naming why, where it is not; then the scaling table
# (bench/mpi/run_scaling.py) written to $OUT (else build-gpu/).
# usage: scripts/run_gpu_mpi.sh [BUILD_DIR]            (default build-gpu)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${1:-build-gpu}"
command -v mpirun >/dev/null || . "$build/mpi-runtime/env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYK_MPI_TEST_BACKEND=cuda
program="$build/examples/diffusion_mpi/pyk_diffusion_mpi"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
status=0
for run in serial 1 2 2-staged; do
  if tests/mpi/run_diffusion_mpi.sh "$(command -v mpirun)" "$program" "$folder" "$run"; then
    echo "PASS mpi_diffusion_$run (cuda)"
  else
    echo "FAIL mpi_diffusion_$run (cuda)"
    status=1
  fi
done
PYK_BACKEND=cuda timeout 120 mpirun -np 2 "$program" --size 64,64 --steps 2 --halo direct \
  >"$folder/direct.log" 2>&1
if grep -q "does not take CUDA device pointers" "$folder/direct.log"; then
  echo "PASS mpi_direct_refused_without_cuda_aware_mpi (cuda)"
elif grep -q "^SCALING" "$folder/direct.log"; then
  echo "PASS mpi_direct (cuda-aware MPI)"
else
  echo "FAIL mpi_direct: $(cat "$folder/direct.log")"
  status=1
fi
device="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
  tr 'A-Z ' 'a-z-')"
python3 bench/mpi/run_scaling.py "$build" --backend cuda --ranks 1,2 --rounds "${PYK_MPI_ROUNDS:-3}" \
  --device "${device:-gpu}" --output "${OUT:-$build}/mpi-scaling-$(date +%F)-${device:-gpu}.md" ||
  status=1
exit $status
