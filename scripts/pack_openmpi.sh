#!/usr/bin/env bash
# pack_openmpi: copies this machine's Open MPI (Debian's openmpi-bin and its libraries) into a
# folder that runs elsewhere, for a GPU machine that has no MPI (scripts/build_gpu.sh bundles it
# with examples/diffusion_mpi). The folder keeps Open MPI's own layout under a prefix it is told at
# run time (OPAL_PREFIX), the shared libraries mpirun, orted, their plugins and PROGRAMS need
# (beside the C library) in lib/, and env.sh, which sets the variables:
#   scripts/pack_openmpi.sh FOLDER [PROGRAM...]
#   . FOLDER/env.sh && mpirun -np 2 PROGRAM
set -euo pipefail
folder=$1
shift
multiarch=x86_64-linux-gnu
rm -rf "$folder"
prefix="$folder/prefix"
mkdir -p "$prefix/bin" "$prefix/lib/$multiarch" "$prefix/share" "$folder/lib"
cp -a "/usr/lib/$multiarch/openmpi" "/usr/lib/$multiarch/pmix2" "$prefix/lib/$multiarch/"
cp -a /usr/share/openmpi "$prefix/share/"
[ -d /usr/share/pmix ] && cp -a /usr/share/pmix "$prefix/share/"
cp -L /usr/bin/orterun /usr/bin/orted "$prefix/bin/"
ln -s orterun "$prefix/bin/mpirun"
# Every library those need, but the C library's own (the other machine has its own).
for file in "$prefix/bin/orterun" "$prefix/bin/orted" "$@" \
  "$prefix/lib/$multiarch"/openmpi/lib/openmpi3/*.so "$prefix/lib/$multiarch"/pmix2/lib/pmix/*.so; do
  ldd "$file" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'
done | sort -u | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
  xargs -r cp -L -t "$folder/lib/"
cat >"$folder/env.sh" <<'ENV'
# Source me: the packed Open MPI first on PATH and the library path, told where it now lives.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OPAL_PREFIX="$here/prefix"
export PATH="$here/prefix/bin:$PATH"
export LD_LIBRARY_PATH="$here/lib:$here/prefix/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PMIX_MCA_mca_base_component_path="$here/prefix/lib/x86_64-linux-gnu/pmix2/lib/pmix"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ENV
