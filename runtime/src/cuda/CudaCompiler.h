// CudaCompiler: a CUDA C++ unit compiled by NVRTC for a device and loaded as a CUmodule, through
// the disk cache. The target is the device's own architecture as a CUBIN; when NVRTC does not know
// that architecture (a device newer than the toolkit), PTX for the newest one it knows below it,
// which the driver compiles when loading.
#pragma once

#include <string>

#include "cuda/CudaContext.h"

namespace pyk::cuda {

struct LoadedModule {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::string target;     // "cubin sm_90" or "ptx compute_90"
  bool fromCache = false; // the image came from the disk cache
};

// Compiles `source` (the entry point `entry`; `name` is the kernel's description, for messages)
// for `device`, or takes it from the disk cache, and loads it in the device's context. `fastMath`
// adds --use_fast_math. Throws pyk::Error: Compile when NVRTC is missing or rejects the unit
// (with its log), Device when the driver cannot load it.
LoadedModule compileAndLoad(const DeviceContext& device, const std::string& source,
                            const std::string& entry, const std::string& name, bool fastMath);

// What compileAndLoad targets on a device of compute capability major.minor.
std::string targetFor(int major, int minor);

} // namespace pyk::cuda
