// Device: the backend choice, the CUDA devices the driver reports, and the devices of the current
// backend a thread selects among (CUDA's, or the CPU backend's from cpu/CpuDevices). `auto` is
// CUDA when the driver reports a device and NVRTC loads (kernels are compiled at run time) or the
// program carries kernels built ahead for CUDA (pyk/aot.hpp), else the CPU; `cuda` without them
// is an error naming why, never a silent fallback.
#include <mutex>

#include "cpu/CpuDevices.h"
#include "cuda/CudaContext.h"
#include "cuda/CudaDriver.h"
#include "jit/NvrtcCompiler.h"
#include "pyk/aot.hpp"
#include "pyk/device.hpp"
#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

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
    // Kernels are compiled by NVRTC, or were built ahead of time into this program.
    std::string whyNot;
    if (jit::Nvrtc::load(detail::currentSettings()->libnvrtc, &whyNot) == nullptr &&
        !aot::has_cuda_images())
      *reason = whyNot;
  });
  return *reason;
}

Backend resolve(BackendChoice choice) {
  if (choice == BackendChoice::Auto)
    return cudaUnavailableReason().empty() ? Backend::Cuda : Backend::Cpu;
  if (choice == BackendChoice::Cpu)
    return Backend::Cpu;
  if (const std::string& why = cudaUnavailableReason(); !why.empty())
    throw Error(ErrorKind::Device,
                "PYK_BACKEND=cuda: " + why + "; unset PYK_BACKEND or set it to cpu");
  return Backend::Cuda;
}

} // namespace

Backend current_backend() {
  // The settings' choice, resolved once per thread for each change of the settings: the common
  // call is one atomic load and a compare.
  thread_local std::uint64_t resolvedGeneration = 0;
  thread_local Backend resolved = Backend::Cpu;
  const std::uint64_t generation = detail::settingsGeneration();
  if (generation != resolvedGeneration) {
    resolved = resolve(detail::currentSettings()->backend);
    resolvedGeneration = generation;
  }
  return resolved;
}

const char* backend_name(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
}

std::string cuda_unavailable() {
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
    driver->check(driver->cuDeviceGetAttribute(&info.compute_capability_major,
                                               cuda::kAttributeComputeCapabilityMajor, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceGetAttribute(&info.compute_capability_minor,
                                               cuda::kAttributeComputeCapabilityMinor, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceGetAttribute(&info.multiprocessors,
                                               cuda::kAttributeMultiprocessorCount, device),
                  "cuDeviceGetAttribute", what);
    driver->check(driver->cuDeviceTotalMem(&info.total_memory_bytes, device), "cuDeviceTotalMem",
                  what);
    out.push_back(std::move(info));
  }
  return out;
}

int device_count() {
  if (current_backend() == Backend::Cpu)
    return cpu::cpuDeviceCount();
  int count = 0;
  const cuda::CudaDriver& driver = cuda::requireDriver("device_count");
  driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount", "counting devices");
  return count;
}

int current_device() {
  return current_backend() == Backend::Cpu ? cpu::currentCpuDevice() : cuda::currentDevice().id;
}

void select_device(int id) {
  if (current_backend() == Backend::Cuda) {
    cuda::selectDevice(id);
    return;
  }
  // Device 0 always, and among several devices any (selectCpuDevice names them when `id` is not
  // one); with one, a refusal that says why CUDA's devices are not these.
  if (id == 0 || cpu::cpuDeviceCount() > 1) {
    cpu::selectCpuDevice(id);
    return;
  }
  const std::string& whyNotCuda = cudaUnavailableReason();
  throw Error(ErrorKind::Device,
              "select_device(" + std::to_string(id) + "): the CPU backend has one device, 0 (" +
                  (whyNotCuda.empty() ? std::string("PYK_BACKEND=cpu") : "no CUDA: " + whyNotCuda) +
                  ")");
}

DeviceScope::DeviceScope(int id) : previous_(current_device()) {
  select_device(id);
}

DeviceScope::~DeviceScope() {
  try {
    select_device(previous_);
  } catch (const Error&) {
    // The previous device was usable when the scope began; a driver failing since leaves the
    // thread on the scope's device, which its next call reports.
  }
}

bool can_access_peer(int device, int peer) {
  if (current_backend() == Backend::Cpu) {
    // One address space: every CPU device reaches every other's memory.
    const int count = cpu::cpuDeviceCount();
    return device != peer && device >= 0 && peer >= 0 && device < count && peer < count;
  }
  const cuda::DeviceContext& a = cuda::deviceContext(device);
  const cuda::DeviceContext& b = cuda::deviceContext(peer);
  if (a.id == b.id)
    return false;
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  int can = 0;
  driver.check(driver.cuDeviceCanAccessPeer(&can, a.device, b.device), "cuDeviceCanAccessPeer",
               "devices " + std::to_string(device) + " and " + std::to_string(peer));
  return can != 0;
}

} // namespace pyk
