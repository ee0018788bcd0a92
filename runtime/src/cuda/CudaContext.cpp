// CudaContext: primary contexts retained per device, the current device per thread.
#include "cuda/CudaContext.h"

#include <map>
#include <memory>
#include <mutex>

#include "pyk/error.hpp"

namespace pyk::cuda {

namespace {

std::mutex devicesMutex;
// Kept until the process ends (and never destroyed: arrays freed after main() use them).
std::map<int, std::unique_ptr<DeviceContext>>& devices() {
  static auto* map = new std::map<int, std::unique_ptr<DeviceContext>>;
  return *map;
}

thread_local const DeviceContext* threadDevice = nullptr;

const DeviceContext& retain(const CudaDriver& driver, int id, const std::string& forWhat) {
  std::lock_guard lock(devicesMutex);
  auto& known = devices();
  if (auto it = known.find(id); it != known.end())
    return *it->second;
  int count = 0;
  driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount", "counting devices");
  if (count == 0)
    throw Error(ErrorKind::Device, forWhat + ": the CUDA driver reports no device");
  if (id < 0 || id >= count)
    throw Error(ErrorKind::Device, forWhat + ": there are " + std::to_string(count) +
                                       " CUDA devices (ids 0 to " + std::to_string(count - 1) +
                                       ")");
  const std::string what = "device " + std::to_string(id);
  auto d = std::make_unique<DeviceContext>();
  d->id = id;
  driver.check(driver.cuDeviceGet(&d->device, id), "cuDeviceGet", what);
  char name[256] = {};
  driver.check(driver.cuDeviceGetName(name, sizeof name - 1, d->device), "cuDeviceGetName", what);
  d->name = name;
  auto attribute = [&](int which, int& into) {
    driver.check(driver.cuDeviceGetAttribute(&into, which, d->device), "cuDeviceGetAttribute",
                 what);
  };
  attribute(kAttributeComputeCapabilityMajor, d->compute_capability_major);
  attribute(kAttributeComputeCapabilityMinor, d->compute_capability_minor);
  attribute(kAttributeMultiprocessorCount, d->multiprocessors);
  attribute(kAttributeMaxThreadsPerBlock, d->maxThreadsPerBlock);
  attribute(kAttributeMaxSharedMemoryPerBlock, d->maxSharedBytesPerBlock);
  attribute(kAttributeMaxSharedMemoryPerBlockOptin, d->maxSharedBytesPerBlockOptin);
  int cooperative = 0;
  attribute(kAttributeCooperativeLaunch, cooperative);
  d->cooperativeLaunch = cooperative != 0;
  driver.check(driver.cuDevicePrimaryCtxRetain(&d->context, d->device), "cuDevicePrimaryCtxRetain",
               what);
  return *known.emplace(id, std::move(d)).first->second;
}

} // namespace

const CudaDriver& requireDriver(const std::string& forWhat) {
  std::string whyNot;
  const CudaDriver* driver = CudaDriver::shared(&whyNot);
  if (driver == nullptr)
    throw Error(ErrorKind::Device, forWhat + ": " + whyNot);
  return *driver;
}

const DeviceContext& deviceContext(int id) {
  const std::string forWhat = "device " + std::to_string(id);
  return retain(requireDriver(forWhat), id, forWhat);
}

ScopedContext::ScopedContext(const CudaDriver& driver, CUcontext context) noexcept
    : driver_(driver) {
  if (driver.cuCtxGetCurrent(&previous_) != kCudaSuccess)
    return;
  if (previous_ == context) {
    ok_ = true;
    return;
  }
  switched_ = ok_ = driver.cuCtxSetCurrent(context) == kCudaSuccess;
}

ScopedContext::~ScopedContext() {
  if (switched_)
    (void)driver_.cuCtxSetCurrent(previous_);
}

const DeviceContext& selectDevice(int id) {
  const std::string forWhat = "select_device(" + std::to_string(id) + ")";
  const CudaDriver& driver = requireDriver(forWhat);
  const DeviceContext& device = retain(driver, id, forWhat);
  driver.check(driver.cuCtxSetCurrent(device.context), "cuCtxSetCurrent", forWhat);
  threadDevice = &device;
  return device;
}

const DeviceContext& currentDevice() {
  if (threadDevice == nullptr)
    return selectDevice(0);
  // Another library (the CUDA runtime's cudaSetDevice, say) may have made another context
  // current on this thread since: pyk's device's comes back (a thread-local read when not).
  const CudaDriver& driver = *CudaDriver::shared();
  CUcontext current = nullptr;
  if (driver.cuCtxGetCurrent(&current) != kCudaSuccess || current != threadDevice->context)
    driver.check(driver.cuCtxSetCurrent(threadDevice->context), "cuCtxSetCurrent",
                 "device " + std::to_string(threadDevice->id));
  return *threadDevice;
}

} // namespace pyk::cuda
