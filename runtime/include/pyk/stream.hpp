// stream: streams and events, as numba.cuda's. On CUDA a Stream is a CUstream (the default one
// is the legacy default stream, numba's cuda.default_stream()) and an Event a CUevent. On the CPU
// backend every launch and copy completes before it returns, so streams order nothing further and
// events read the host's clock.
#pragma once

#include <memory>

namespace pyk {

namespace detail {
struct StreamState;
struct EventState;
struct StreamAccess;
} // namespace detail

class Stream {
public:
  // The default stream.
  Stream() = default;
  // Waits until the stream's launches and copies are done.
  void synchronize() const;
  // Whether they are done (CUDA's cuStreamQuery); always true on the CPU backend.
  bool query() const;
  bool is_default() const { return state_ == nullptr; }
  // The CUstream (null for the default stream and on the CPU backend): for handing to other CUDA
  // libraries.
  void* handle() const;

  // A stream pyk does not own, such as one from the CUDA runtime, cuBLAS or libtorch
  // (numba.cuda.external_stream). Launches and copies on it are ordered with that library's work;
  // pyk never destroys it.
  static Stream external(void* cuStream);

private:
  friend Stream stream();
  friend class Event;
  friend struct detail::StreamAccess;
  explicit Stream(std::shared_ptr<detail::StreamState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::StreamState> state_;
};

class Event {
public:
  // An event that records nothing yet; event() makes a usable one.
  Event() = default;
  // Marks the point `stream` has reached.
  void record(const Stream& stream = Stream());
  // Waits until that point is passed.
  void synchronize() const;
  // Whether it is passed (always, on the CPU backend).
  bool query() const;
  // Makes later work on `stream` wait for this event (numba's Event.wait).
  void wait(const Stream& stream = Stream()) const;
  bool recorded() const;
  // Milliseconds from this event to `end`, as numba's event_elapsed_time (waits for `end`).
  float elapsed_time(const Event& end) const;

private:
  friend Event event(bool timing);
  explicit Event(std::shared_ptr<detail::EventState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::EventState> state_;
};

// A new stream on the current backend (numba.cuda.stream()).
Stream stream();
// The default stream (numba.cuda.default_stream()).
inline Stream default_stream() {
  return Stream();
}
// A new event (numba.cuda.event(timing)); without timing it is cheaper and elapsed_time refuses.
Event event(bool timing = true);
// Waits for every launch and copy of this thread's device (numba.cuda.synchronize()).
void synchronize();

} // namespace pyk
