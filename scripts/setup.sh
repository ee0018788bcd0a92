#!/usr/bin/env bash
# setup: installs every Debian package pyk needs to build and test; quick and quiet when all
# are present (OpenMPI only while PYK_MPI is not OFF). Runs as root or through sudo. Packages
# named as arguments are installed too (a script that needs more than the build and tests:
# scripts/run_fuzzers.sh asks for Clang).
set -euo pipefail

packages=(
  g++ cmake ninja-build          # the build
  antlr4 default-jre-headless    # generates the parser at build time
  libantlr4-runtime-dev          # the parser's C++ runtime (linked statically)
  libboost-context-dev           # the CPU backend's fibers: Boost.Context's fcontext, whose
                                 # per-architecture context-switch assembly is maintained upstream
                                 # (better than writing our own)
  googletest libgtest-dev libgmock-dev  # unit tests
  llvm-14-tools                  # lit and FileCheck, for the golden-file tests
  binutils                       # objdump: lit tests read the instructions of compiled CPU kernels
                                 # (g++ pulls it in already; named for what uses it)
  python3                        # runs lit
  python3-numpy                  # the .npy cross-check against numpy (tests/unit/runtime)
  zlib1g-dev                     # deflate for the PNG images the diffusion example writes
  libthrust-dev                  # Thrust (and CUB), for examples/host/thrust_interop.cpp: pyk
                                 # kernels on the memory of the library C++ GPU code uses most;
                                 # the example is what shows it works, so it cannot be ours
  libdlpack-dev                  # DLPack's header (dlpack/dlpack.h): the standard tensor-exchange ABI
                                 # (pyk::from_dlpack / to_dlpack); the format is its header, so
                                 # using it beats declaring a copy of ours
  chromium                       # a real browser, headless, for the test of `pykc report`'s page
                                 # (tests/report: its script run, its links, a screenshot); no
                                 # page check of our own would say how a browser reads it
  python3-numba                  # ground truth: numba's own typing (tests/differential/) and,
                                 # later, its CUDA simulator for the conformance suite
)
# examples/diffusion_mpi and its tests (tests/mpi): Debian's OpenMPI, the MPI of most clusters'
# images. Left out with PYK_MPI=OFF in the environment (scripts/build.sh then configures
# -DPYK_MPI=OFF and neither is built).
if [ "${PYK_MPI:-ON}" != OFF ]; then
  packages+=(libopenmpi-dev openmpi-bin)
fi
packages+=("$@")

missing=()
while read -r name status; do
  [ "$status" = "installed" ] || missing+=("$name")
done < <(for p in "${packages[@]}"; do
  printf '%s %s\n' "$p" "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || echo absent)"
done)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
