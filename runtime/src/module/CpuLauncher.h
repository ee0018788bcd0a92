// CpuLauncher: a launch on the CPU backend: the specialization found in the kernel's cache or
// compiled (CpuEmitter, the host compiler through the disk cache) and loaded (dlopen), the
// arguments laid out, and the CPU engine run over the grid.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "module/KernelState.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// The CPU instance of `k` for `args`. Every kernel is compiled once for any block shape; a
// split-mode kernel is compiled once more for each block shape `block` it is launched with twice
// (its trip counts become constants), in the background (module/BackgroundCompiles), and that
// instance is returned once it is ready, the generic one until then (PYK_CPU_SHAPES=now: the
// shape's at once; off: never). Without a shape (asking only for the mode), the generic one.
std::shared_ptr<CpuKernelInstance>
cpuInstanceFor(KernelState& k, std::span<const KernelArgument> args, const Dim3* block);

void launchOnCpu(KernelState& k, const LaunchShape& shape, std::size_t shared_bytes,
                 std::span<const KernelArgument> args);

} // namespace pyk::detail
