// graph: a sequence of launches and copies captured once from a stream and replayed many times,
// as CUDA graphs do it (cuStreamBeginCapture, cuStreamEndCapture, cuGraphInstantiate,
// cuGraphLaunch), with a launch's arguments changed between replays without capturing again
// (cuGraphExecKernelNodeSetParams). numba-cuda has no graphs. On the CPU backend the same calls
// record the launches and copies and replay them in order.
//
//   pyk::Stream s = pyk::stream();
//   pyk::Graph step = pyk::capture(s, [&] {
//     diffuse.launch(grid, block, s)(u, v, k);
//     diffuse.launch(grid, block, s)(v, u, k);
//   });
//   for (int i = 0; i < 1000; ++i)
//     step.launch(s);
//   step.set_arguments(0, w, v, k); // launch 0 reads w from the next replay on
//
// While a stream is captured, the kernel launches and the copies queued on it are recorded and
// not run. Arrays a captured launch or copy uses are kept alive by the graph; host memory a copy
// reads or writes is read or written at each replay (as by a copy queued at that time), so it
// must stay valid. What cannot be captured fails as it would with CUDA: the default stream
// (capture needs a stream of pyk::stream()), waiting for the captured stream (Stream::synchronize,
// and so copies of strided views, which wait for their staging copy), and on CUDA any other
// operation CUDA refuses during capture, with CUDA's error (CUDA may refuse a copy from or to
// pageable host memory: pinned memory, pyk::pinned_array, is captured). Graphs replay what
// was captured on one device, one stream: a kernel launched for the first time inside a capture
// is compiled and loaded there.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "pyk/kernel.hpp"
#include "pyk/stream.hpp"

namespace pyk {

namespace detail {
struct GraphState;
} // namespace detail

class Graph {
public:
  // A graph with nothing captured; launch() refuses it.
  Graph() = default;

  // Runs the captured launches and copies, in the order of the capture: queued on `stream` on
  // CUDA (one cuGraphLaunch), at once on the CPU backend.
  void launch(const Stream& stream = Stream()) const;
  // How many kernel launches were captured (copies are not counted); set_arguments numbers
  // them from 0 in the order of the capture.
  std::size_t kernel_launches() const;

  // Replaces the arguments of captured kernel launch `index` for every later replay. They must
  // have the numba types the captured ones had (the same compiled specialization) and be on the
  // graph's backend and device; the launch's grid, block and shared memory stay. Throws
  // pyk::Error (InvalidArgument) naming what differs.
  template <typename... Args>
  void set_arguments(std::size_t index, const Args&... args) {
    const KernelArgument list[] = {KernelArgument::of(args)..., KernelArgument()};
    set_arguments_with(index, std::span(list, sizeof...(Args)));
  }
  void set_arguments_with(std::size_t index, std::span<const KernelArgument> args);

private:
  friend Graph end_capture(const Stream& stream);
  explicit Graph(std::shared_ptr<detail::GraphState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::GraphState> state_;
};

// Starts capturing `stream` (made by pyk::stream(), not the default stream): its launches and
// copies are recorded, not run, until end_capture. Throws pyk::Error (InvalidArgument) for the
// default stream or a stream already captured; (Device) when the CUDA driver refuses.
void begin_capture(const Stream& stream);
// Ends the capture and makes the graph of what was recorded. Throws pyk::Error (InvalidArgument)
// when `stream` is not being captured; (Device) when CUDA refuses the capture (an operation
// inside it that CUDA could not capture).
Graph end_capture(const Stream& stream);
// Ends a capture and drops what it recorded (the stream runs its work again); nothing when the
// stream is not being captured. Never throws.
void abandon_capture(const Stream& stream) noexcept;

// The launches and copies `record()` queues on `stream`, as a graph: begin_capture, record,
// end_capture; the capture is abandoned if `record` throws.
template <typename Record>
Graph capture(const Stream& stream, Record&& record) {
  begin_capture(stream);
  try {
    record();
  } catch (...) {
    abandon_capture(stream);
    throw;
  }
  return end_capture(stream);
}

} // namespace pyk
