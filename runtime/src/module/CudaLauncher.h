// CudaLauncher: a launch on the CUDA backend: the specialization found in the kernel's cache (by
// packed signature, allocating nothing, once it is loaded) or compiled (CudaEmitter, NVRTC through
// the disk cache) and loaded (cuModuleLoadData), the launch checked against the function's and
// the device's limits, the arguments laid out, and cuLaunchKernel (cooperative when the kernel
// synchronizes its grid).
#pragma once

#include <cstddef>
#include <span>

#include "cuda/CudaContext.h"
#include "module/KernelState.h"
#include "pyk/kernel.hpp"
#include "pyk/stream.hpp"

namespace pyk::detail {

// The instance of `k` for `args` compiled and loaded on `device`: found by signature, else by its
// full key, else built.
CudaKernelInstance& cudaInstanceFor(KernelState& k, std::span<const KernelArgument> args,
                                    const cuda::DeviceContext& device);

void launchOnCuda(KernelState& k, const cuda::DeviceContext& device, const LaunchShape& shape,
                  std::size_t sharedBytes, std::span<const KernelArgument> args,
                  const Stream& stream);

} // namespace pyk::detail
