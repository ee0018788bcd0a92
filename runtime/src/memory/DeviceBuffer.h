// DeviceBuffer: one allocation that arrays view, on the backend that made it: host memory (the
// CPU backend), CUDA device or managed memory, or memory another library owns. Copies between it
// and the host go through here, so each knows its backend.
#pragma once

#include <cstddef>
#include <memory>

#include "pyk/device.hpp"
#include "pyk/device_array.hpp"

namespace pyk::cuda {
struct DeviceContext;
} // namespace pyk::cuda

namespace pyk::detail {

struct DeviceBuffer {
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer(); // frees what pyk allocated; never throws

  // `bytes` of new memory of `kind` (Host, Device or Managed) on `backend`.
  static std::shared_ptr<DeviceBuffer> allocate(Backend backend, MemoryKind kind,
                                                std::size_t bytes);

  Backend backend = Backend::Cpu;
  MemoryKind kind = MemoryKind::Host;
  void* data = nullptr;
  std::size_t bytes = 0;
  std::size_t hostAlignment = 0; // Host: what it was allocated with
  void* mapping = nullptr;       // Host between guard pages: the whole mapping
  std::size_t mappingBytes = 0;
  const cuda::DeviceContext* device = nullptr; // CUDA: the device the memory belongs to
  int cpuDevice = 0;                           // CPU backend: the device it was made on
  std::shared_ptr<void> owner;                 // External: what keeps the memory alive
};

// Copies between host memory and `bytes` bytes at `at` inside `buffer`, on `stream` (CUDA) or at
// once (CPU backend). Throws pyk::Error (Device) naming the failing call.
void copyToBuffer(const DeviceBuffer& buffer, void* at, const void* from, std::size_t bytes,
                  const Stream& stream);
void copyFromBuffer(const DeviceBuffer& buffer, void* to, const void* at, std::size_t bytes,
                    const Stream& stream);
// Device to device, within or across buffers of one backend.
void copyBetweenBuffers(const DeviceBuffer& to, void* toAt, const DeviceBuffer& from,
                        const void* fromAt, std::size_t bytes, const Stream& stream);

} // namespace pyk::detail
