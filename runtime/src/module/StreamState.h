// StreamState, EventState: what pyk::Stream and pyk::Event hold, per backend.
#pragma once

#include <chrono>
#include <memory>

#include "cuda/CudaDriver.h"
#include "pyk/device.hpp"
#include "pyk/stream.hpp"

namespace pyk::cuda {
struct DeviceContext;
} // namespace pyk::cuda

namespace pyk::detail {

struct GraphState;

struct StreamState {
  StreamState() = default;
  StreamState(const StreamState&) = delete;
  StreamState& operator=(const StreamState&) = delete;
  ~StreamState(); // destroys the CUstream pyk created (never an external one)

  Backend backend = Backend::Cpu;
  cuda::CUstream stream = nullptr;
  const cuda::DeviceContext* device = nullptr;
  bool owned = false;
  std::shared_ptr<GraphState> capture; // while begin_capture..end_capture: what is recorded
};

// The state behind a pyk::Stream (null for the default stream).
struct StreamAccess {
  static StreamState* state(const Stream& stream) { return stream.state_.get(); }
};

// The graph `stream` is being captured into, or null.
inline GraphState* capturingGraph(const Stream& stream) {
  const StreamState* state = StreamAccess::state(stream);
  return state != nullptr ? state->capture.get() : nullptr;
}

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
