// Device: the backend choice and the CUDA devices the driver reports. Kernels launch on the CPU
// backend only so far (the CUDA launch path is issue 5, in progress), so `auto` is the CPU and
// asking for CUDA is a clear error rather than a silent fallback; gpus() and select_device()
// already work through the Driver API (CudaDriver).
#include <cstdlib>
#include <map>
#include <mutex>

#include "cuda/CudaDriver.h"
#include "pyk/device.hpp"
#include "pyk/error.hpp"

namespace pyk {

namespace {

// The devices' primary contexts pyk retained, kept until the process ends.
std::mutex contextsMutex;
std::map<int, cuda::CUcontext> retainedContexts;

std::string noDeviceReason() {
  std::string whyNot;
  const cuda::CudaDriver* driver = cuda::CudaDriver::shared(&whyNot);
  if (driver == nullptr)
    return whyNot;
  int count = 0;
  driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount", "counting devices");
  return count == 0 ? "the CUDA driver reports no device" : "";
}

} // namespace

Backend currentBackend() {
  const char* env = std::getenv("PYK_BACKEND");
  const std::string choice = env != nullptr ? env : "";
  if (choice.empty() || choice == "auto" || choice == "cpu")
    return Backend::Cpu;
  if (choice == "cuda") {
    const std::string why = noDeviceReason();
    throw Error(ErrorKind::Device,
                "PYK_BACKEND=cuda: " +
                    (why.empty() ? std::string("this pyk cannot launch kernels on CUDA devices yet")
                                 : why) +
                    "; unset PYK_BACKEND or set it to cpu");
  }
  throw Error(ErrorKind::InvalidArgument,
              "PYK_BACKEND=" + choice + " is not a backend (cuda, cpu or auto)");
}

const char* backendName(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
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
  std::string whyNot;
  const cuda::CudaDriver* driver = cuda::CudaDriver::shared(&whyNot);
  if (driver == nullptr)
    throw Error(ErrorKind::Device, "select_device(" + std::to_string(id) + "): " + whyNot);
  int count = 0;
  driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount", "counting devices");
  if (count == 0)
    throw Error(ErrorKind::Device,
                "select_device(" + std::to_string(id) + "): the CUDA driver reports no device");
  if (id < 0 || id >= count)
    throw Error(ErrorKind::Device, "select_device(" + std::to_string(id) + "): there are " +
                                       std::to_string(count) + " CUDA devices (ids 0 to " +
                                       std::to_string(count - 1) + ")");
  const std::string what = "device " + std::to_string(id);
  std::lock_guard lock(contextsMutex);
  auto it = retainedContexts.find(id);
  if (it == retainedContexts.end()) {
    cuda::CUdevice device = 0;
    driver->check(driver->cuDeviceGet(&device, id), "cuDeviceGet", what);
    cuda::CUcontext context = nullptr;
    driver->check(driver->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain",
                  what);
    it = retainedContexts.emplace(id, context).first;
  }
  driver->check(driver->cuCtxSetCurrent(it->second), "cuCtxSetCurrent", what);
}

} // namespace pyk
