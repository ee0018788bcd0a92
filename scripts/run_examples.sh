#!/usr/bin/env bash
# run_examples: builds pykc and runs the main job over examples/.
#
# pyk does not run kernels yet (code generation and the backends come next), so the main job
# today is the front end's: check every example and list the kernels, device functions and
# ufuncs it declares, with their signatures and the module constants they use.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PYK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" >/dev/null
pykc="$build/compiler/pykc"
status=0
for example in "$root"/examples/*.pyk; do
  echo "== ${example#"$root"/}"
  if ! "$pykc" emit "$example" --emit=symbols; then
    status=1
  fi
done
exit $status
