// CpuSettings: the engine's size from the runtime's settings.
#include "cpu/CpuSettings.h"

#include <algorithm>
#include <thread>

namespace pyk::cpu {

CpuSettings CpuSettings::of(const RuntimeSettings& settings) {
  CpuSettings out;
  out.workerCount = settings.cpuThreads != 0 ? settings.cpuThreads
                                             : std::max(1u, std::thread::hardware_concurrency());
  out.fiberStackBytes = settings.cpuFiberStackBytes;
  return out;
}

} // namespace pyk::cpu
