// CpuSettings: the engine's size from the runtime's settings.
#include "cpu/CpuSettings.h"

#include <algorithm>
#include <thread>

namespace pyk::cpu {

CpuSettings CpuSettings::of(const RuntimeSettings& settings) {
  CpuSettings out;
  out.workerCount = settings.cpu_threads != 0 ? settings.cpu_threads
                                              : std::max(1u, std::thread::hardware_concurrency());
  out.fiberStackBytes = settings.cpu_fiber_stack_bytes;
  return out;
}

} // namespace pyk::cpu
