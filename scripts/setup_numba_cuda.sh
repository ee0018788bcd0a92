#!/usr/bin/env bash
# setup_numba_cuda: NVIDIA's numba-cuda (its simulator and its own CUDA tests, which Debian does not
# package) into the project-local venv .venv-numba-cuda/, from PyPI, pinned by
# tests/numba_cuda_suite/requirements.txt, for tests/numba_cuda_suite. Quick and quiet when the
# venv already holds them. Prints the venv's python.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-numba-cuda"
requirements="$root/tests/numba_cuda_suite/requirements.txt"
stamp="$venv/.requirements"

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$stamp" "$requirements"; then
  echo "$venv/bin/python"
  exit 0
fi
if ! /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
[ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv" >&2
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
cp "$requirements" "$stamp"
echo "$venv/bin/python"
