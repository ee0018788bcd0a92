// Device: the backend choice and the CUDA devices the driver reports. `auto` is CUDA when the
// driver reports a device and NVRTC loads (kernels are compiled at run time), else the CPU;
// `cuda` without them is an error naming why, never a silent fallback.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "cuda/CudaContext.h"
#include "cuda/CudaDriver.h"
#include "driver/NvrtcCompiler.h"
#include "pyk/device.hpp"
#include "pyk/error.hpp"

namespace pyk {

namespace {

// Why CUDA cannot run kernels here; empty when it can. Asked once per process.
const std::string& cudaUnavailableReason() {
  static std::once_flag once;
  static std::string* reason = new std::string;
  std::call_once(once, [] {
    const cuda::CudaDriver* driver = cuda::CudaDriver::shared(reason);
    if (driver == nullptr)
      return;
    int count = 0;
    if (const cuda::CUresult r = driver->cuDeviceGetCount(&count); r != cuda::kCudaSuccess) {
      *reason = "cuDeviceGetCount failed: " + driver->describe(r);
      return;
    }
    if (count == 0) {
      *reason = "the CUDA driver reports no device";
      return;
    }
    std::string whyNot;
    if (!driver::haveNvrtc(&whyNot))
      *reason = whyNot;
  });
  return *reason;
}

Backend resolve(const char* choice) {
  if (choice == nullptr || *choice == '\0' || std::strcmp(choice, "auto") == 0)
    return cudaUnavailableReason().empty() ? Backend::Cuda : Backend::Cpu;
  if (std::strcmp(choice, "cpu") == 0)
    return Backend::Cpu;
  if (std::strcmp(choice, "cuda") == 0) {
    if (const std::string& why = cudaUnavailableReason(); !why.empty())
      throw Error(ErrorKind::Device,
                  "PYK_BACKEND=cuda: " + why + "; unset PYK_BACKEND or set it to cpu");
    return Backend::Cuda;
  }
  throw Error(ErrorKind::InvalidArgument,
              std::string("PYK_BACKEND=") + choice + " is not a backend (cuda, cpu or auto)");
}

} // namespace

Backend currentBackend() {
  // The variable is read at every call (a program may set it before its first allocation); the
  // last answer is kept per thread, so the common call is a getenv and a string compare.
  thread_local std::string lastChoice = "\x01";
  thread_local Backend lastBackend = Backend::Cpu;
  const char* choice = std::getenv("PYK_BACKEND");
  const char* text = choice != nullptr ? choice : "";
  if (lastChoice != text) {
    lastBackend = resolve(choice);
    lastChoice = text;
  }
  return lastBackend;
}

const char* backendName(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
}

std::string cudaUnavailable() {
  return cudaUnavailableReason();
}

std::vector<GpuInfo> gpus() {
  const cuda::CudaDriver* driver = cuda::CudaDriver::shared();
  if (driver == nullptr)
    return {};
  int count = 0;
  driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount", "counting devices");
  std::vector<GpuInfo> out;
  for (int i = 0; i < count; ++i) {
    const std::string what = "device " + std::to_string(i);
    cuda::CUdevice device = 0;
    driver->check(driver->cuDeviceGet(&device, i), "cuDeviceGet", what);
    char name[256] = {};
    driver->check(driver->cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName", what);
    GpuInfo info{i, name};
    driver->check(driver->cuDeviceGetAttribute(&info.computeCapabilityMajor,
                                               cuda::kAttributeComputeCapabilityMajor, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceGetAttribute(&info.computeCapabilityMinor,
                                               cuda::kAttributeComputeCapabilityMinor, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceGetAttribute(&info.multiprocessors,
                                               cuda::kAttributeMultiprocessorCount, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceTotalMem(&info.totalMemoryBytes, device), "cuDeviceTotalMem",
                  what);
    out.push_back(std::move(info));
  }
  return out;
}

void select_device(int id) {
  cuda::selectDevice(id);
}

} // namespace pyk
