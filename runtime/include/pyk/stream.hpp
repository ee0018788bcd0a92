// stream: streams and events, as numba.cuda's. On the CPU backend every launch and copy completes
// before it returns, so streams order nothing further and events time the host.
#pragma once

#include <chrono>
#include <memory>

namespace pyk {

class Stream {
public:
  Stream() = default;
  // Waits for the stream's work (none is pending on the CPU backend).
  void synchronize() const {}
};

class Event {
public:
  Event() = default;
  // Marks the point in `stream` reached now.
  void record(const Stream& stream = Stream()) {
    (void)stream;
    time_ = std::chrono::steady_clock::now();
    recorded_ = true;
  }
  void synchronize() const {}
  bool recorded() const { return recorded_; }
  // Milliseconds from this event to `end`, as numba's event_elapsed_time.
  float elapsed_time(const Event& end) const {
    return std::chrono::duration<float, std::milli>(end.time_ - time_).count();
  }

private:
  std::chrono::steady_clock::time_point time_{};
  bool recorded_ = false;
};

inline Stream stream() {
  return Stream();
}
inline Event event() {
  return Event();
}
// Waits for every launch and copy (they are complete on the CPU backend).
inline void synchronize() {}

} // namespace pyk
