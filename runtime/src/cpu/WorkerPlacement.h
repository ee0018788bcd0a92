// WorkerPlacement: the CPU each helper thread of a WorkerPool is bound to (PYK_CPU_BIND=spread),
// and which helper moves when the launching thread comes to run on a helper's CPU.
//
// Why: on a machine another program keeps busy, Linux put the launching thread and the helper on
// the same core (the free one) and left the busy program alone on the other, so two workers ran
// at one core's speed: the 16M-float block reduction took 2.5 ms under a busy loop on core 0 on
// the 2-core VM, 1 worker or 2 alike (1.3 ms quiet), where OpenMP's two threads took 1.2 ms. One
// CPU per helper, kept off the launching thread's, gave 1.45 ms: the helper shares the busy core,
// the launcher has the other, and stealing chunks (WorkerPool) evens out their speeds. The
// launching thread is the user's and is never bound: the pool follows it instead.
#pragma once

#include <optional>
#include <vector>

namespace pyk::cpu {

class WorkerPlacement {
public:
  // Places `helperCount` helpers on distinct CPUs of `cpus` (ascending), none on `callerCpu` (the
  // launching thread's CPU now; -1: unknown), when there are more CPUs than helpers; otherwise
  // (more workers than CPUs, or no helper) it places none and the helpers run free.
  WorkerPlacement(std::vector<int> cpus, unsigned helperCount, int callerCpu);

  bool active() const { return !helperCpu_.empty(); }
  // The CPU of helper `helper` (0-based: worker helper + 1); -1 when not active.
  int cpuOf(unsigned helper) const;

  struct Move {
    unsigned helper;
    int cpu;
  };
  // The launching thread runs on `callerCpu` now: when a helper is bound there, it moves to a
  // CPU no helper has (the one the caller was last seen on first); that move is returned for the
  // pool to carry out. Nothing for a CPU outside the set or with no helper on it.
  std::optional<Move> makeRoomFor(int callerCpu);

private:
  std::vector<int> cpus_;
  std::vector<int> helperCpu_; // by helper; empty: not active
  int lastCallerCpu_ = -1;

  bool held(int cpu) const;
};

} // namespace pyk::cpu
