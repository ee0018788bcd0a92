// GraphState: what pyk::Graph holds (pyk/graph.hpp): the kernel launches and copies recorded
// while a stream was captured, each launch with its own copy of its arguments (arrays kept alive)
// and, on CUDA, its node in the captured graph; the graph and its executable form on CUDA. The
// launch path (KernelLaunch.cpp) and the copies (memory/DeviceArray.cpp) record into it through
// the functions below while StreamState::capture is set.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "base/NumbaType.h"
#include "cuda/CudaDriver.h"
#include "pyk/graph.hpp"

namespace pyk::cuda {
struct DeviceContext;
} // namespace pyk::cuda

namespace pyk::detail {

// A launch's arguments owned: arrays (and arrays inside tuples) copied into `arrays`, whose
// elements stay where they are, and the arguments pointing at them.
struct OwnedArguments {
  std::deque<AnyDeviceArray> arrays;
  std::vector<KernelArgument> args;
  std::vector<types::NumbaType> types; // numba's types of `args`
  // `from`, whose numba types are `fromTypes`.
  void assign(std::span<const KernelArgument> from, std::vector<types::NumbaType> fromTypes);
};

struct CapturedLaunch {
  Kernel kernel;
  LaunchShape shape;
  std::size_t sharedBytes = 0;
  OwnedArguments arguments;
  cuda::CUfunction function = nullptr; // CUDA: the function launched
  cuda::CUgraphNode node = nullptr;    // CUDA: its node in the captured graph
};

// One step of a CPU-backend replay: launch `launch`, or (launch < 0) move `bytes` from `from` to
// `to`.
struct CapturedStep {
  int launch = -1;
  void* to = nullptr;
  const void* from = nullptr;
  std::size_t bytes = 0;
};

struct GraphState {
  GraphState() = default;
  GraphState(const GraphState&) = delete;
  GraphState& operator=(const GraphState&) = delete;
  ~GraphState(); // destroys the CUDA graph and its executable form

  Backend backend = Backend::Cpu;
  const cuda::DeviceContext* device = nullptr; // CUDA
  std::mutex mutex;                            // guards what follows while capturing
  std::vector<std::unique_ptr<CapturedLaunch>> launches;
  std::vector<CapturedStep> steps;  // CPU backend: the replay, in order
  std::deque<AnyDeviceArray> kept;  // arrays the captured copies use
  cuda::CUgraph graph = nullptr;    // CUDA, after end_capture
  cuda::CUgraphExec exec = nullptr; // CUDA, after end_capture
};

// A launch on a captured stream. On CUDA it was queued (and so captured by the driver) as
// `function`; on the CPU backend it is recorded only. Throws pyk::Error as a launch does.
void recordLaunch(GraphState& graph, const Stream& stream, const Kernel& kernel,
                  const LaunchShape& shape, std::size_t shared_bytes,
                  std::span<const KernelArgument> args, cuda::CUfunction function);
// A copy on a captured stream of `bytes` from `from` to `to` (`array` is the device array it
// reads or writes, `other` the second one of a device-to-device copy): on the CPU backend
// recorded, not done; on CUDA (already captured by the driver) only the arrays kept.
void recordCopy(GraphState& graph, void* to, const void* from, std::size_t bytes,
                const AnyDeviceArray& array, const AnyDeviceArray* other = nullptr);

} // namespace pyk::detail
