// CpuSettings: the engine's size from the runtime's settings.
#include "cpu/CpuSettings.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace pyk::cpu {

unsigned CpuSettings::usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    if (const int count = CPU_COUNT(&set); count > 0)
      return static_cast<unsigned>(count);
  return std::max(1u, std::thread::hardware_concurrency());
}

CpuSettings CpuSettings::of(const RuntimeSettings& settings) {
  CpuSettings out;
  out.workerCount = settings.cpu_threads != 0 ? settings.cpu_threads : usableCpus();
  out.fiberStackBytes = settings.cpu_fiber_stack_bytes;
  return out;
}

} // namespace pyk::cpu
