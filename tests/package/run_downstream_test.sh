#!/usr/bin/env bash
# run_downstream_test: builds tests/package/downstream against pyk and runs it with no compiler.
#   run_downstream_test.sh package BUILD_DIR WORK   cmake --install BUILD_DIR into WORK/stage, move
#                                                   it (relocatable), find_package from there
#   run_downstream_test.sh source SOURCE_DIR WORK   add_subdirectory(SOURCE_DIR)
# The programs run with an empty environment: PATH names no compiler, PYK_CXX and PYK_LIBNVRTC
# name files that do not exist, and the disk cache is an empty folder, so only what was built
# ahead can run.
set -euo pipefail
mode=$1 from=$(cd "$2" && pwd) work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

case "$mode" in
package)
  cmake --install "$from" --prefix "$work/stage" >"$work/install.log"
  mv "$work/stage" "$work/prefix" # nothing may point back at the stage or the build
  if grep -rl -e "$from" -e "$work/stage" "$work/prefix/lib/cmake"; then
    echo "the installed CMake package names the build or install folder" >&2
    exit 1
  fi
  for f in bin/pykc lib/libpyk_runtime.a include/pyk/pyk.hpp include/pyk/version.hpp \
           include/pyk/base/Version.h include/pyk/base/Error.h include/pyk/base/Float16.h \
           include/pyk/aot.hpp include/pyk/settings.def include/pyk/support/pyk_cpu_support.h \
           lib/cmake/pyk/pykConfig.cmake lib/cmake/pyk/pykConfigVersion.cmake \
           lib/cmake/pyk/pykAddKernels.cmake; do
    [ -e "$work/prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
  done
  ls "$work/prefix"/lib/libpyk_runtime.so* >/dev/null
  configure=(-DCMAKE_PREFIX_PATH="$work/prefix")
  ;;
source)
  configure=(-DPYK_DOWNSTREAM_USE=source -DPYK_SOURCE_DIR="$from" -DPYK_UNITY_BUILD=ON)
  ;;
*)
  echo "usage: $0 package BUILD_DIR WORK | source SOURCE_DIR WORK" >&2
  exit 2
  ;;
esac

cmake -S "$here/downstream" -B "$work/build" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >"$work/configure.log"
cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" || { tail -50 "$work/build.log"; exit 1; }

mkdir -p "$work/empty-cache"
for program in saxpy_app saxpy_app_shared; do
  env -i PATH=/nonexistent HOME="$work" PYK_BACKEND=cpu PYK_CXX=/nonexistent/c++ \
    PYK_LIBNVRTC=/nonexistent/libnvrtc.so PYK_CACHE_DIR="$work/empty-cache" \
    "$work/build/$program"
done
if [ -n "$(ls -A "$work/empty-cache")" ]; then
  echo "the programs compiled something into the cache" >&2
  exit 1
fi
echo "downstream ($mode): ok"
