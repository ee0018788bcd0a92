// CudaDriver: dlopen of the Driver API and its entry points by their exported (versioned) names.
#include "cuda/CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

namespace pyk::cuda {

namespace {

// Resolves `name` into `slot`; false, with the reason, when the library lacks it.
template <typename F>
bool resolve(void* library, const char* name, F& slot, std::string& whyNot) {
  slot = reinterpret_cast<F>(::dlsym(library, name));
  if (slot == nullptr)
    whyNot = std::string("the driver library has no `") + name + "`";
  return slot != nullptr;
}

} // namespace

std::unique_ptr<CudaDriver> CudaDriver::load(const std::string& path, std::string& whyNot) {
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = ::dlerror();
    whyNot = "cannot load the CUDA driver (" + (error != nullptr ? std::string(error) : path) + ")";
    return nullptr;
  }
  std::unique_ptr<CudaDriver> d(new CudaDriver);
  d->library_ = library;
  // The names libcuda exports for the current versions of these calls.
  const bool ok =
      resolve(library, "cuInit", d->cuInit, whyNot) &&
      resolve(library, "cuDriverGetVersion", d->cuDriverGetVersion, whyNot) &&
      resolve(library, "cuDeviceGetCount", d->cuDeviceGetCount, whyNot) &&
      resolve(library, "cuDeviceGet", d->cuDeviceGet, whyNot) &&
      resolve(library, "cuDeviceGetName", d->cuDeviceGetName, whyNot) &&
      resolve(library, "cuDeviceGetAttribute", d->cuDeviceGetAttribute, whyNot) &&
      resolve(library, "cuDeviceTotalMem_v2", d->cuDeviceTotalMem, whyNot) &&
      resolve(library, "cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain, whyNot) &&
      resolve(library, "cuDevicePrimaryCtxRelease_v2", d->cuDevicePrimaryCtxRelease, whyNot) &&
      resolve(library, "cuCtxSetCurrent", d->cuCtxSetCurrent, whyNot) &&
      resolve(library, "cuCtxGetCurrent", d->cuCtxGetCurrent, whyNot) &&
      resolve(library, "cuCtxSynchronize", d->cuCtxSynchronize, whyNot) &&
      resolve(library, "cuGetErrorName", d->cuGetErrorName, whyNot) &&
      resolve(library, "cuGetErrorString", d->cuGetErrorString, whyNot) &&
      resolve(library, "cuMemAlloc_v2", d->cuMemAlloc, whyNot) &&
      resolve(library, "cuMemAllocManaged", d->cuMemAllocManaged, whyNot) &&
      resolve(library, "cuMemAllocHost_v2", d->cuMemAllocHost, whyNot) &&
      resolve(library, "cuMemFree_v2", d->cuMemFree, whyNot) &&
      resolve(library, "cuMemFreeHost", d->cuMemFreeHost, whyNot) &&
      resolve(library, "cuMemcpyHtoD_v2", d->cuMemcpyHtoD, whyNot) &&
      resolve(library, "cuMemcpyDtoH_v2", d->cuMemcpyDtoH, whyNot) &&
      resolve(library, "cuMemcpyDtoD_v2", d->cuMemcpyDtoD, whyNot) &&
      resolve(library, "cuMemcpyHtoDAsync_v2", d->cuMemcpyHtoDAsync, whyNot) &&
      resolve(library, "cuMemcpyDtoHAsync_v2", d->cuMemcpyDtoHAsync, whyNot) &&
      resolve(library, "cuMemcpyDtoDAsync_v2", d->cuMemcpyDtoDAsync, whyNot) &&
      resolve(library, "cuPointerGetAttribute", d->cuPointerGetAttribute, whyNot) &&
      resolve(library, "cuMemcpyPeer", d->cuMemcpyPeer, whyNot) &&
      resolve(library, "cuMemcpyPeerAsync", d->cuMemcpyPeerAsync, whyNot) &&
      resolve(library, "cuDeviceCanAccessPeer", d->cuDeviceCanAccessPeer, whyNot) &&
      resolve(library, "cuStreamCreate", d->cuStreamCreate, whyNot) &&
      resolve(library, "cuStreamDestroy_v2", d->cuStreamDestroy, whyNot) &&
      resolve(library, "cuStreamSynchronize", d->cuStreamSynchronize, whyNot) &&
      resolve(library, "cuStreamQuery", d->cuStreamQuery, whyNot) &&
      resolve(library, "cuStreamWaitEvent", d->cuStreamWaitEvent, whyNot) &&
      resolve(library, "cuEventCreate", d->cuEventCreate, whyNot) &&
      resolve(library, "cuEventDestroy_v2", d->cuEventDestroy, whyNot) &&
      resolve(library, "cuEventRecord", d->cuEventRecord, whyNot) &&
      resolve(library, "cuEventSynchronize", d->cuEventSynchronize, whyNot) &&
      resolve(library, "cuEventQuery", d->cuEventQuery, whyNot) &&
      // CUDA 12.8 on exports a _v2 (the same signature, checked timing flags); older drivers
      // only the first.
      (resolve(library, "cuEventElapsedTime_v2", d->cuEventElapsedTime, whyNot) ||
       resolve(library, "cuEventElapsedTime", d->cuEventElapsedTime, whyNot)) &&
      resolve(library, "cuModuleLoadData", d->cuModuleLoadData, whyNot) &&
      resolve(library, "cuModuleUnload", d->cuModuleUnload, whyNot) &&
      resolve(library, "cuModuleGetFunction", d->cuModuleGetFunction, whyNot) &&
      resolve(library, "cuFuncGetAttribute", d->cuFuncGetAttribute, whyNot) &&
      resolve(library, "cuFuncSetAttribute", d->cuFuncSetAttribute, whyNot) &&
      resolve(library, "cuLaunchKernel", d->cuLaunchKernel, whyNot) &&
      resolve(library, "cuLaunchCooperativeKernel", d->cuLaunchCooperativeKernel, whyNot) &&
      resolve(library, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
              d->cuOccupancyMaxActiveBlocksPerMultiprocessor, whyNot);
  if (!ok) {
    whyNot = "the CUDA driver at `" + path + "` is unusable: " + whyNot;
    return nullptr;
  }
  // The versions of CUDA 11.3-11.4 on (the names every later driver still exports).
  std::string graphs;
  if (!(resolve(library, "cuStreamBeginCapture_v2", d->cuStreamBeginCapture, graphs) &&
        resolve(library, "cuStreamEndCapture", d->cuStreamEndCapture, graphs) &&
        resolve(library, "cuStreamGetCaptureInfo_v2", d->cuStreamGetCaptureInfo, graphs) &&
        resolve(library, "cuGraphInstantiateWithFlags", d->cuGraphInstantiate, graphs) &&
        resolve(library, "cuGraphLaunch", d->cuGraphLaunch, graphs) &&
        resolve(library, "cuGraphExecKernelNodeSetParams", d->cuGraphExecKernelNodeSetParams,
                graphs) &&
        resolve(library, "cuGraphExecDestroy", d->cuGraphExecDestroy, graphs) &&
        resolve(library, "cuGraphDestroy", d->cuGraphDestroy, graphs)))
    d->graphsMissing = graphs;
  return d;
}

CudaDriver::~CudaDriver() {
  if (library_ != nullptr)
    ::dlclose(library_);
}

const CudaDriver* CudaDriver::shared(std::string* whyNot) {
  // Never unloaded: arrays and modules that outlive main() still free through it.
  static std::once_flag once;
  static CudaDriver* driver = nullptr;
  static std::string* reason = new std::string;
  std::call_once(once, [] {
    const std::string path = pyk::detail::currentSettings()->libcuda;
    std::unique_ptr<CudaDriver> loaded = load(path.empty() ? "libcuda.so.1" : path, *reason);
    if (loaded == nullptr)
      return;
    if (const CUresult r = loaded->cuInit(0); r != kCudaSuccess) {
      *reason = "the CUDA driver does not initialise (cuInit: " + loaded->describe(r) + ")";
      return;
    }
    driver = loaded.release();
  });
  if (driver == nullptr && whyNot != nullptr)
    *whyNot = *reason;
  return driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(result, &name) != kCudaSuccess || name == nullptr)
    return "CUDA error " + std::to_string(result);
  std::string out = name;
  if (cuGetErrorString(result, &text) == kCudaSuccess && text != nullptr)
    out += std::string(": ") + text;
  return out;
}

namespace {
thread_local const std::string* lastKernel = nullptr;

// The errors a running kernel causes and a later call reports (CUDA's codes 700 to 719 that
// belong to a launch: illegal address, assert, misaligned address, illegal instruction, ...).
bool leftByAKernel(CUresult r) {
  return r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 719);
}
} // namespace

void CudaDriver::noteLaunch(const std::string* kernel) {
  lastKernel = kernel;
}

void CudaDriver::check(CUresult result, const char* call, const std::string& what) const {
  if (result == kCudaSuccess)
    return;
  std::string message = std::string(call) + " failed for " + what + ": " + describe(result);
  if (leftByAKernel(result) && lastKernel != nullptr && what.find(*lastKernel) == std::string::npos)
    message += " (the last kernel this thread launched: " + *lastKernel + ")";
  throw Error(ErrorKind::Device, message);
}

} // namespace pyk::cuda
