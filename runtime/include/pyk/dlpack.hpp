// dlpack: pyk arrays to and from DLPack, the tensor-exchange ABI of PyTorch, CuPy, JAX and numpy
// (Debian's libdlpack-dev provides <dlpack/dlpack.h>; include this header only where DLPack is
// wanted). Both directions share memory, never copy.
#pragma once

#include <dlpack/dlpack.h>

#include "pyk/device_array.hpp"

namespace pyk {

// An array viewing `tensor`'s memory; pyk owns the tensor from here on and calls its deleter when
// the last view of it is gone (also when this throws). CPU tensors (kDLCPU, kDLCUDAHost) become
// CPU-backend arrays; CUDA tensors (kDLCUDA, kDLCUDAManaged) CUDA arrays on their device. Throws
// pyk::Error (InvalidArgument) for another device type, a dtype pyk has no equivalent of (vector
// lanes, bfloat16, opaque handles), a misaligned byte offset or more than 8 dimensions; (Device)
// for a CUDA tensor where CUDA cannot run.
AnyDeviceArray from_dlpack(DLManagedTensor* tensor);

// A DLManagedTensor viewing `array` (strides in elements, as DLPack counts them), which keeps the
// array's memory alive until the consumer calls its deleter.
DLManagedTensor* to_dlpack(const AnyDeviceArray& array);

template <typename T, int N>
DLManagedTensor* to_dlpack(const DeviceArray<T, N>& array) {
  return to_dlpack(array.untyped());
}

} // namespace pyk
