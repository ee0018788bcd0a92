// GridBarrier: the barrier of a cooperative launch (`this_grid().sync()`) between the blocks of
// a grid, each block run by a thread of its own. A block arrives once all of its live threads
// have; a block whose threads have all exited leaves (it counts as arrived from then on). When a
// block fails, the barrier is abandoned: blocks waiting at it, and those arriving later, get an
// error instead of waiting for a block that will never come.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace pyk::cpu {

class GridBarrier {
public:
  // The message of the error a block gets from an abandoned barrier (not the launch's cause).
  static constexpr const char* kAbandonedMessage =
      "grid synchronisation abandoned: another block of the launch failed";

  explicit GridBarrier(uint64_t blocks) : expected_(blocks) {}
  GridBarrier(const GridBarrier&) = delete;
  GridBarrier& operator=(const GridBarrier&) = delete;

  // Waits until every block still running has arrived. Throws pyk::Error (Kernel) when the
  // barrier was abandoned.
  void arriveAndWait();
  // The calling block has finished: the others no longer wait for it.
  void leave();
  // A block failed: releases every waiting block with an error.
  void abandon();

private:
  void releaseIfComplete();

  std::mutex mutex_;
  std::condition_variable released_;
  uint64_t expected_; // blocks still running
  uint64_t arrived_ = 0;
  uint64_t generation_ = 0;
  bool abandoned_ = false;
};

} // namespace pyk::cpu
