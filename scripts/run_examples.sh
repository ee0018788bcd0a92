#!/usr/bin/env bash
# run_examples: the main job. Builds pyk and runs every example (examples/host/NAME.cpp with its
# .pyk file) on the default backend: CUDA when there is a GPU with its driver and NVRTC, else the
# CPU backend (PYK_BACKEND=cpu|cuda forces one). Each example checks its own results; their
# output is shown as it comes, then one table: example, backend, time, verified.
# Images (the diffusion example's PNGs) go to $PYK_BUILD_DIR/example-output/. Then, where it is
# built and mpirun is there, the diffusion over two MPI ranks (examples/diffusion_mpi).
# usage: scripts/run_examples.sh [--no-build]       exit 1 when any example fails or is wrong
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"

if [ "${1:-}" != "--no-build" ]; then
  "$root/scripts/build.sh" >/dev/null || exit 1
fi
list="$build/examples/example_programs.txt"
[ -f "$list" ] || { echo "run_examples: $list is missing; build first" >&2; exit 1; }
output="$build/example-output"
mkdir -p "$output"
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
status=0
while read -r program; do
  name="${program#pyk_example_}"
  echo "== $name"
  # The example's output passes through; its RESULT lines are kept for the table.
  if ! "$build/examples/$program" "$root/examples" "$output" | tee -a "$results"; then
    status=1
    echo "RESULT $name - - no" >>"$results"
  fi
done <"$list"
# The diffusion over MPI ranks (examples/diffusion_mpi), where it is built (PYK_MPI) and mpirun is
# there: two ranks, each with its strip of the seed's field.
mpi_program="$build/examples/diffusion_mpi/pyk_diffusion_mpi"
if [ -x "$mpi_program" ] && command -v mpirun >/dev/null; then
  echo "== diffusion_mpi"
  if ! OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --oversubscribe --bind-to none -np 2 \
    "$mpi_program" --examples "$root/examples" --size 2000,2000 --steps 200 | tee -a "$results"; then
    status=1
    echo "RESULT diffusion_mpi - - no" >>"$results"
  fi
fi

echo
printf '%-34s %-8s %12s  %s\n' example backend time verified
printf '%-34s %-8s %12s  %s\n' ------- ------- ---- --------
while read -r _ what backend secs verified; do
  if [ "$secs" = "-" ]; then
    time="(failed)"
  else
    time="$(awk -v s="$secs" 'BEGIN { if (s < 1e-3) printf "%.1f us", s * 1e6;
                                      else if (s < 1) printf "%.2f ms", s * 1e3;
                                      else printf "%.2f s", s }')"
  fi
  printf '%-34s %-8s %12s  %s\n' "$what" "$backend" "$time" "$verified"
  [ "$verified" = yes ] || status=1
done < <(grep '^RESULT ' "$results")
exit $status
