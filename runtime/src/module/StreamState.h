// StreamState, EventState: what pyk::Stream and pyk::Event hold, per backend.
#pragma once

#include <chrono>

#include "cuda/CudaDriver.h"
#include "pyk/device.hpp"

namespace pyk::cuda {
struct DeviceContext;
} // namespace pyk::cuda

namespace pyk::detail {

struct StreamState {
  StreamState() = default;
  StreamState(const StreamState&) = delete;
  StreamState& operator=(const StreamState&) = delete;
  ~StreamState(); // destroys the CUstream pyk created (never an external one)

  Backend backend = Backend::Cpu;
  cuda::CUstream stream = nullptr;
  const cuda::DeviceContext* device = nullptr;
  bool owned = false;
};

struct EventState {
  EventState() = default;
  EventState(const EventState&) = delete;
  EventState& operator=(const EventState&) = delete;
  ~EventState();

  Backend backend = Backend::Cpu;
  cuda::CUevent event = nullptr;
  const cuda::DeviceContext* device = nullptr;
  bool timing = true;
  bool recorded = false;
  std::chrono::steady_clock::time_point time{}; // CPU backend
};

} // namespace pyk::detail
