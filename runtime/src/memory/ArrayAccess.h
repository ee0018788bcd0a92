// ArrayAccess: what the runtime itself may do with an AnyDeviceArray beyond the public API: wrap
// memory on a given backend and device (DLPack import), and reach the buffer an array views.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pyk/device_array.hpp"

namespace pyk::detail {

struct ArrayAccess {
  // An array over memory pyk did not allocate, on `backend` (device `deviceId` on CUDA, where the
  // pointer is checked with the driver). `caller` starts error messages.
  static AnyDeviceArray wrap(Backend backend, int deviceId, void* data, Dtype dtype,
                             std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                             std::shared_ptr<void> owner, const char* caller);
  static const DeviceBuffer* buffer(const AnyDeviceArray& a);
  // Something that keeps the array's memory alive.
  static std::shared_ptr<void> keepAlive(const AnyDeviceArray& a);
};

} // namespace pyk::detail
