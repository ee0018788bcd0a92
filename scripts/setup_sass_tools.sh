#!/usr/bin/env bash
# setup_sass_tools: cuobjdump and nvdisasm (CUDA's own tools, which the toolkit installed here
# lacks) into the project-local venv .venv/, from NVIDIA's PyPI wheels, for bench/gpu/sass_report.
# 13.2.51 is the oldest CUDA 13 release NVIDIA publishes these wheels for; both read the CUBINs
# of CUDA 13.0's NVRTC and nvcc. Prints the folder holding the two programs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
version=13.2.51

found="$(ls -d "$venv"/lib/python3*/site-packages/nvidia/cu13/bin 2>/dev/null | head -n 1 || true)"
if [ -n "$found" ] && [ -x "$found/cuobjdump" ] && [ -x "$found/nvdisasm" ]; then
  echo "$found"
  exit 0
fi
if ! /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
[ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv" >&2
"$venv/bin/pip" install -q "nvidia-cuda-cuobjdump==$version" "nvidia-cuda-nvdisasm==$version" >&2
found="$(ls -d "$venv"/lib/python3*/site-packages/nvidia/cu13/bin | head -n 1)"
chmod +x "$found/cuobjdump" "$found/nvdisasm"
echo "$found"
