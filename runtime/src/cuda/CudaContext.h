// CudaContext: the CUDA device each host thread works on (numba's current device): device 0 until
// select_device picks another, through its primary context, retained once and kept for the
// process. What pyk reads of each device is read once, here.
#pragma once

#include <string>

#include "cuda/CudaDriver.h"

namespace pyk::cuda {

struct DeviceContext {
  int id = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  int maxThreadsPerBlock = 0;
  int maxSharedBytesPerBlock = 0;      // without opting in
  int maxSharedBytesPerBlockOptin = 0; // with cuFuncSetAttribute
  bool cooperativeLaunch = false;
  std::string name;
};

// The driver, or pyk::Error (Device) saying why there is none (no library, cuInit failed).
const CudaDriver& requireDriver(const std::string& forWhat);

// The calling thread's device: the one it selected, else device 0; its primary context is made
// current on the thread if another is (another library may have switched it). Throws pyk::Error
// (Device) when there is no driver or no device.
const DeviceContext& currentDevice();

// Makes device `id` the calling thread's device (numba.cuda.select_device).
const DeviceContext& selectDevice(int id);

// Device `id`, its primary context retained, without changing the thread's device.
const DeviceContext& deviceContext(int id);

// Makes `context` current on the calling thread for the scope's life, then restores the one that
// was (a copy or free of another device's memory). Never throws: `ok()` says whether it took.
class ScopedContext {
public:
  ScopedContext(const CudaDriver& driver, CUcontext context) noexcept;
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;
  bool ok() const { return ok_; }

private:
  const CudaDriver& driver_;
  CUcontext previous_ = nullptr;
  bool switched_ = false;
  bool ok_ = false;
};

// For destructors: runs `release(driver)` with `context` current, then restores the thread's. Does
// nothing when the driver is gone or the context cannot be made current (at process exit, where a
// failing free can only leak); never throws.
template <typename Release>
void releaseInContext(CUcontext context, Release&& release) noexcept {
  const CudaDriver* driver = CudaDriver::shared();
  if (driver == nullptr)
    return;
  const ScopedContext scope(*driver, context);
  if (scope.ok())
    release(*driver);
}

} // namespace pyk::cuda
