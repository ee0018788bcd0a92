#!/usr/bin/env bash
# run_examples: builds pykc and runs the main job over examples/.
#
# For every example: check it, list what it declares, and compile each kernel (for the signature
# its host code launches it with, examples/launch_signatures.txt) and each ufunc to PTX for sm_90
# through NVRTC, when pykc has NVRTC. Then run every example's kernels from C++
# (examples/host/seed_kernels.cpp) on the CPU backend, checking their results. (The CUDA backend
# comes with issue 5.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" >/dev/null
pykc="$build/compiler/pykc"
status=0
nvrtc=1
"$pykc" --version | grep -q "NVRTC none" && nvrtc=0

ptx() { # FILE [--kernel K --sig S]: report the PTX entry points, or the failure
  local out
  if out=$("$pykc" emit "$@" --emit=ptx 2>&1); then
    echo "$out" | sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/  PTX entry: \1/p'
  else
    echo "$out"
    status=1
  fi
}

for example in "$root"/examples/*.pyk; do
  name="${example#"$root"/examples/}"
  echo "== examples/$name"
  if ! "$pykc" emit "$example" --emit=symbols; then
    status=1
    continue
  fi
  [ "$nvrtc" = 1 ] || continue
  if grep -q "^$name " "$root/examples/launch_signatures.txt"; then
    while read -r file kernel signature; do
      [ "$file" = "$name" ] && ptx "$example" --kernel "$kernel" --sig "$signature"
    done < <(grep -v '^#' "$root/examples/launch_signatures.txt")
  elif grep -q "@vectorize\|@guvectorize" "$example"; then
    ptx "$example" # ufuncs carry their signatures
  fi
done
[ "$nvrtc" = 1 ] || echo "(pykc was built without NVRTC: no PTX compiled)"
echo "== the seeds' kernels on the CPU backend"
"$build/examples/pyk_seed_kernels" "$root/examples" || status=1
exit $status
