// CudaDriver: dlopen of the Driver API and its entry points by their exported (versioned) names.
#include "cuda/CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "pyk/error.hpp"

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
      resolve(library, "cuGetErrorName", d->cuGetErrorName, whyNot) &&
      resolve(library, "cuGetErrorString", d->cuGetErrorString, whyNot);
  if (!ok) {
    whyNot = "the CUDA driver at `" + path + "` is unusable: " + whyNot;
    return nullptr;
  }
  return d;
}

CudaDriver::~CudaDriver() {
  if (library_ != nullptr)
    ::dlclose(library_);
}

const CudaDriver* CudaDriver::shared(std::string* whyNot) {
  static std::once_flag once;
  static std::unique_ptr<CudaDriver> driver;
  static std::string reason;
  std::call_once(once, [] {
    const char* path = std::getenv("PYK_LIBCUDA");
    driver = load(path != nullptr && *path != '\0' ? path : "libcuda.so.1", reason);
    if (driver == nullptr)
      return;
    if (const CUresult r = driver->cuInit(0); r != kCudaSuccess) {
      reason = "the CUDA driver does not initialise (cuInit: " + driver->describe(r) + ")";
      driver.reset();
    }
  });
  if (driver == nullptr && whyNot != nullptr)
    *whyNot = reason;
  return driver.get();
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

void CudaDriver::check(CUresult result, const char* call, const std::string& what) const {
  if (result != kCudaSuccess)
    throw Error(ErrorKind::Device,
                std::string(call) + " failed for " + what + ": " + describe(result));
}

} // namespace pyk::cuda
