// FakeCudaDriver: a stand-in libcuda for the tests of the runtime's Driver API loading, on machines
// without an NVIDIA driver. It exports the entry points pyk resolves and reports two devices
// ("pyk fake H100" with compute capability 9.0, 132 multiprocessors and 80 GiB; "pyk fake A100",
// 8.0, 108, 40 GiB). With PYK_FAKE_CUDA_FAIL_INIT set, cuInit fails with CUDA_ERROR_NO_DEVICE.
// A test library built with the tests, never installed.
#include <cstddef>
#include <cstdlib>
#include <cstring>

extern "C" {

using CUresult = int;
using CUdevice = int;
struct CUctx_st {
  int device;
};
using CUcontext = CUctx_st*;

namespace {
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kNoDevice = 100;
constexpr CUresult kInvalidDevice = 101;
bool initialised = false;
CUctx_st contexts[2] = {{0}, {1}};
CUcontext current = nullptr;

struct FakeDevice {
  const char* name;
  int major, minor, multiprocessors;
  std::size_t memory;
};
constexpr FakeDevice kDevices[2] = {{"pyk fake H100", 9, 0, 132, std::size_t{80} << 30},
                                    {"pyk fake A100", 8, 0, 108, std::size_t{40} << 30}};
} // namespace

__attribute__((visibility("default"))) CUresult cuInit(unsigned) {
  if (std::getenv("PYK_FAKE_CUDA_FAIL_INIT") != nullptr)
    return kNoDevice;
  initialised = true;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetCount(int* count) {
  if (!initialised)
    return kNotInitialized;
  *count = 2;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal < 0 || ordinal > 1)
    return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetName(char* name, int length,
                                                                CUdevice device) {
  if (device < 0 || device > 1 || length <= 0)
    return kInvalidValue;
  std::strncpy(name, kDevices[device].name, static_cast<std::size_t>(length));
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetAttribute(int* value, int attribute,
                                                                     CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  switch (attribute) {
  case 16:
    *value = kDevices[device].multiprocessors;
    return kSuccess;
  case 75:
    *value = kDevices[device].major;
    return kSuccess;
  case 76:
    *value = kDevices[device].minor;
    return kSuccess;
  default:
    return kInvalidValue;
  }
}
__attribute__((visibility("default"))) CUresult cuDeviceTotalMem_v2(std::size_t* bytes,
                                                                    CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  *bytes = kDevices[device].memory;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRetain(CUcontext* context,
                                                                         CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  *context = &contexts[device];
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  return device < 0 || device > 1 ? kInvalidDevice : kSuccess;
}
__attribute__((visibility("default"))) CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return kSuccess;
}
// Not part of the Driver API: which device's context is current (for the tests).
__attribute__((visibility("default"))) int pykFakeCurrentDevice() {
  return current != nullptr ? current->device : -1;
}
namespace {
struct FakeError {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr FakeError kErrors[] = {
    {kNoDevice, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {kNotInitialized, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"}};
const FakeError* errorOf(CUresult result) {
  for (const FakeError& e : kErrors)
    if (e.code == result)
      return &e;
  return nullptr;
}
} // namespace

__attribute__((visibility("default"))) CUresult cuGetErrorName(CUresult result, const char** name) {
  const FakeError* e = errorOf(result);
  if (e == nullptr)
    return kInvalidValue;
  *name = e->name;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuGetErrorString(CUresult result,
                                                                 const char** text) {
  const FakeError* e = errorOf(result);
  if (e == nullptr)
    return kInvalidValue;
  *text = e->text;
  return kSuccess;
}

} // extern "C"
