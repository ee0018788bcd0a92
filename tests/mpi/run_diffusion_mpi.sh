#!/usr/bin/env bash
# run_diffusion_mpi: one of tests/mpi's runs of examples/diffusion_mpi on the CPU backend
# (PYK_MPI_TEST_BACKEND=cuda: on CUDA, as scripts/run_gpu_mpi.sh runs them).
#   run_diffusion_mpi.sh MPIEXEC PROGRAM FOLDER serial          the reference, FOLDER/serial.npy
#   run_diffusion_mpi.sh MPIEXEC PROGRAM FOLDER N[-staged]      N ranks, compared with it byte
#                                                                for byte
#   run_diffusion_mpi.sh MPIEXEC PROGRAM FOLDER too-many-ranks  4 ranks, 3 rows: refused, named
#   ... missing-output-folder, one-rank-fails                   refused before the run; rank 0
#                                                                failing alone after it
# The field: 250 x 200 (not a multiple of the block edge, strips of unequal rows), 100 steps.
set -euo pipefail
mpiexec=$1 program=$2 folder=$3 run=$4
mkdir -p "$folder"
export PYK_BACKEND="${PYK_MPI_TEST_BACKEND:-cpu}" # scripts/run_gpu_mpi.sh: cuda
# Open MPI refuses root unless told (CI containers run as root); more ranks than cores on purpose;
# no cross-memory attach between ranks (containers without ptrace refuse it, and the halos are
# small).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
size=(--size 250,200 --steps 100)

if [ "$run" = serial ]; then
  PYK_CACHE_DIR="$folder/cache-serial" "$program" --serial "${size[@]}" --output "$folder/serial.npy"
  exit
fi
# fails EXPECTED ARGS...: the run exits non-zero (not by the timeout: no rank left waiting) and
# says EXPECTED.
fails() {
  local expected=$1 output status
  shift
  set +e
  output="$(PYK_CACHE_DIR="$folder/cache-refused" timeout 120 "$mpiexec" "$@" 2>&1)"
  status=$?
  set -e
  echo "$output"
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { echo "FAIL: exit status $status" >&2; exit 1; }
  grep -qF "$expected" <<<"$output" || { echo "FAIL: no message \`$expected\`" >&2; exit 1; }
}
case $run in
too-many-ranks) # every rank refuses
  fails "error: a field of 3 rows cannot be cut into 4 strips of at least one row" \
    -np 4 "$program" --size 3,16 --steps 2
  exit 0 ;;
missing-output-folder) # refused before the run
  fails "error: --output $folder/none/out.npy: the folder $folder/none does not exist" \
    -np 2 "$program" --size 16,16 --steps 2 --output "$folder/none/out.npy"
  exit 0 ;;
one-rank-fails) # rank 0 alone, after the run, while the others have finished: MPI_Abort
  mkdir -p "$folder/a-folder"
  fails "rank 0: error: $folder/a-folder: cannot write: Is a directory" \
    -np 2 "$program" --size 16,16 --steps 2 --output "$folder/a-folder"
  exit 0 ;;
esac

ranks=${run%-staged}
halo=auto
[ "$run" != "$ranks" ] && halo=staged
# A cache folder that starts empty: the ranks compile the kernel (and the CPU backend's
# precompiled header) into it at the same time.
cache="$folder/cache-$run"
rm -rf "$cache"
output="$folder/ranks-$run.npy"
rm -f "$output"
PYK_CACHE_DIR="$cache" "$mpiexec" -np "$ranks" "$program" "${size[@]}" --halo "$halo" \
  --output "$output"
if ! cmp "$folder/serial.npy" "$output"; then
  echo "FAIL: $ranks ranks ($halo halos) differ from one process" >&2
  exit 1
fi
echo "$ranks ranks ($halo halos): the single-process field, bit for bit"
