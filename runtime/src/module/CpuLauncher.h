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

// The CPU instance of `k` for `args`. `block`: the launch's block shape; a split-mode kernel is
// compiled once per block shape (its trip counts become constants), other kernels once for all.
// Without a shape (asking only for the mode), a split kernel is compiled for any shape.
std::shared_ptr<CpuKernelInstance>
cpuInstanceFor(KernelState& k, std::span<const KernelArgument> args, const Dim3* block);

void launchOnCpu(KernelState& k, const LaunchShape& shape, std::size_t shared_bytes,
                 std::span<const KernelArgument> args);

} // namespace pyk::detail
