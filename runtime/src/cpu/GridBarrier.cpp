// GridBarrier: a generation-counting barrier over the running blocks of a cooperative launch.
#include "cpu/GridBarrier.h"

#include "pyk/error.hpp"

namespace pyk::cpu {

namespace {
[[noreturn]] void throwAbandoned() {
  throw Error(ErrorKind::Kernel, GridBarrier::kAbandonedMessage);
}
} // namespace

void GridBarrier::releaseIfComplete() {
  if (arrived_ == 0 || arrived_ < expected_)
    return;
  arrived_ = 0;
  ++generation_;
  released_.notify_all();
}

void GridBarrier::arriveAndWait() {
  std::unique_lock lock(mutex_);
  if (abandoned_)
    throwAbandoned();
  const uint64_t generation = generation_;
  ++arrived_;
  releaseIfComplete();
  released_.wait(lock, [&] { return generation_ != generation || abandoned_; });
  if (generation_ == generation)
    throwAbandoned();
}

void GridBarrier::leave() {
  std::lock_guard lock(mutex_);
  --expected_;
  releaseIfComplete();
}

void GridBarrier::abandon() {
  std::lock_guard lock(mutex_);
  abandoned_ = true;
  released_.notify_all();
}

} // namespace pyk::cpu
