// WorkerPlacement: helpers on distinct CPUs, off the launching thread's.
#include "cpu/WorkerPlacement.h"

#include <algorithm>

namespace pyk::cpu {

WorkerPlacement::WorkerPlacement(std::vector<int> cpus, unsigned helperCount, int callerCpu)
    : cpus_(std::move(cpus)), lastCallerCpu_(callerCpu) {
  std::sort(cpus_.begin(), cpus_.end());
  if (helperCount == 0 || cpus_.size() <= helperCount)
    return;
  for (int cpu : cpus_) {
    if (helperCpu_.size() == helperCount)
      break;
    if (cpu != callerCpu)
      helperCpu_.push_back(cpu);
  }
}

int WorkerPlacement::cpuOf(unsigned helper) const {
  return helper < helperCpu_.size() ? helperCpu_[helper] : -1;
}

bool WorkerPlacement::held(int cpu) const {
  return std::find(helperCpu_.begin(), helperCpu_.end(), cpu) != helperCpu_.end();
}

std::optional<WorkerPlacement::Move> WorkerPlacement::makeRoomFor(int callerCpu) {
  const int last = lastCallerCpu_;
  lastCallerCpu_ = callerCpu;
  const auto on = std::find(helperCpu_.begin(), helperCpu_.end(), callerCpu);
  if (callerCpu < 0 || on == helperCpu_.end())
    return std::nullopt;
  int to = -1;
  if (last != callerCpu && std::binary_search(cpus_.begin(), cpus_.end(), last) && !held(last))
    to = last;
  for (auto cpu = cpus_.begin(); to < 0 && cpu != cpus_.end(); ++cpu)
    if (*cpu != callerCpu && !held(*cpu))
      to = *cpu;
  if (to < 0) // (cannot happen: there are more CPUs than helpers)
    return std::nullopt;
  *on = to;
  return Move{static_cast<unsigned>(on - helperCpu_.begin()), to};
}

} // namespace pyk::cpu
