// CpuSettings: the engine's size from the runtime's settings.
#include "cpu/CpuSettings.h"

#include "cpu/CpuTopology.h"

#include <algorithm>
#include <thread>

namespace pyk::cpu {

unsigned CpuSettings::usableCpus() {
  if (const std::size_t count = affinityCpus().size(); count > 0)
    return static_cast<unsigned>(count);
  return std::max(1u, std::thread::hardware_concurrency());
}

CpuSettings CpuSettings::of(const RuntimeSettings& settings) {
  CpuSettings out;
  out.workerCount = settings.cpu_threads != 0 ? settings.cpu_threads : usableCpus();
  out.fiberStackBytes = settings.cpu_fiber_stack_bytes;
  out.spreadWorkers = settings.cpu_bind == CpuBinding::Spread;
  return out;
}

} // namespace pyk::cpu
