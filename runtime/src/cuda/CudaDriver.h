// CudaDriver: the CUDA Driver API, loaded at run time with dlopen("libcuda.so.1") (or
// $PYK_LIBCUDA), never linked, so one pyk binary runs with or without an NVIDIA driver. Holds the
// entry points pyk calls, and turns a failing call into a pyk::Error naming the call, what it was
// for and CUDA's own error name and string. The types are the Driver API's C ABI, declared here so
// the runtime builds without the CUDA toolkit.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace pyk::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
inline constexpr CUresult kCudaSuccess = 0;
// CUdevice_attribute values pyk reads.
inline constexpr int kAttributeMultiprocessorCount = 16;
inline constexpr int kAttributeComputeCapabilityMajor = 75;
inline constexpr int kAttributeComputeCapabilityMinor = 76;

class CudaDriver {
public:
  // Loads the driver library at `path` (a file name is searched as dlopen searches) and resolves
  // its entry points. Returns null and sets `whyNot` when the library is missing or lacks one.
  static std::unique_ptr<CudaDriver> load(const std::string& path, std::string& whyNot);
  // The process's driver, loaded once from $PYK_LIBCUDA or libcuda.so.1 and initialised
  // (cuInit); null, with the reason, when there is none or it does not initialise.
  static const CudaDriver* shared(std::string* whyNot = nullptr);

  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  // Throws pyk::Error (Device): "<call> failed for <what>: CUDA_ERROR_...: <CUDA's string>".
  void check(CUresult result, const char* call, const std::string& what) const;
  // CUDA's name and description of `result` ("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is
  // detected"), or the number when the driver does not know it.
  std::string describe(CUresult result) const;

  // The entry points, as the Driver API declares them.
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuGetErrorName)(CUresult result, const char** name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult result, const char** text) = nullptr;

private:
  CudaDriver() = default;
  void* library_ = nullptr;
};

} // namespace pyk::cuda
