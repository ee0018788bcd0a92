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
  // A new C-contiguous array on `backend` (the calling thread's device on CUDA).
  // `record` is the record's layout for Dtype::Record (required then), null otherwise; `chars`
  // the characters of a Bytes or Unicode item (required then), 0 otherwise.
  static AnyDeviceArray allocate(Backend backend, Dtype dtype, std::vector<std::int64_t> shape,
                                 std::shared_ptr<const RecordDtype> record = nullptr,
                                 std::int64_t chars = 0);
  static std::int64_t chars(const AnyDeviceArray& a) { return a.chars_; }
  // The record layout `a` shares with its views (null for scalar dtypes).
  static std::shared_ptr<const RecordDtype> record(const AnyDeviceArray& a) { return a.record_; }
  static const DeviceBuffer* buffer(const AnyDeviceArray& a) { return a.buffer_.get(); }
  // A view of `a`'s first element with another shape and strides (bytes); the caller answers for
  // it staying inside `a`'s memory (broadcasting: strides of 0).
  static AnyDeviceArray restride(const AnyDeviceArray& a, std::vector<std::int64_t> shape,
                                 std::vector<std::int64_t> strides);
  // Something that keeps the array's memory alive.
  static std::shared_ptr<void> keepAlive(const AnyDeviceArray& a);
};

} // namespace pyk::detail
