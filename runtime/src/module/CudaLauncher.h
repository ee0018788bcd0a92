// CudaLauncher: a launch on the CUDA backend: the specialization found in the kernel's cache (by
// packed signature, allocating nothing, once it is loaded) or compiled (CudaEmitter, NVRTC through
// the disk cache) and loaded (cuModuleLoadData), the launch checked against the function's and
// the device's limits, the arguments laid out, and cuLaunchKernel (cooperative when the kernel
// synchronizes its grid).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuda/CudaContext.h"
#include "module/KernelState.h"
#include "pyk/kernel.hpp"
#include "pyk/stream.hpp"

namespace pyk::detail {

// Whether the arrays of a launch allow the 32-bit index variant (PYK_INDEX32): each does
// (arrayFitsIndex32). O(dimensions of the arrays).
bool arraysFitIndex32(std::span<const KernelArgument> args);
// Whether each axis of the grid has fewer than 2**31 threads (the other half of the condition).
bool gridFitsIndex32(const LaunchShape& shape);

// The instance of `k` for `args` compiled and loaded on `device` (its 32-bit index variant when
// `index32`): found by signature, else by its full key, else built.
CudaKernelInstance& cudaInstanceFor(KernelState& k, std::span<const KernelArgument> args,
                                    const cuda::DeviceContext& device, bool index32);

// The same with `args` packed in `signature` (null: they cannot be), and for a packed signature
// how each argument is laid out (null otherwise). Both live as long as `k`.
struct CudaLaunchTarget {
  CudaKernelInstance* instance;
  const std::vector<ArgumentWrite>* writes;
};
CudaLaunchTarget cudaTargetFor(KernelState& k, std::span<const KernelArgument> args,
                               const cuda::DeviceContext& device, bool index32,
                               const ArgumentSignature* signature);

// The launch, its arguments scanned (scanArguments) and packed in `signature` when scan.packed;
// returns the instance launched.
CudaKernelInstance& launchOnCuda(KernelState& k, const cuda::DeviceContext& device,
                                 const LaunchShape& shape, std::size_t shared_bytes,
                                 std::span<const KernelArgument> args, const Stream& stream,
                                 const ArgumentScan& scan, const ArgumentSignature& signature);

} // namespace pyk::detail
