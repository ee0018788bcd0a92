// CpuSettings: how the CPU engine is sized: from the runtime's settings (PYK_CPU_THREADS,
// PYK_CPU_FIBER_STACK, PYK_CPU_BIND) or given by a caller (tests, benchmarks).
#pragma once

#include <cstddef>
#include <vector>

#include "pyk/settings.hpp"

namespace pyk::cpu {

struct CpuSettings {
  static constexpr std::size_t kDefaultFiberStackBytes = RuntimeSettings::kDefaultFiberStackBytes;

  unsigned workerCount = 1; // threads running blocks, the caller's included
  std::size_t fiberStackBytes = kDefaultFiberStackBytes; // per fiber, without its guard page
  std::vector<int> cpus; // the CPUs the workers are bound to (a device of several); empty: none
  bool spreadWorkers = false; // each helper on a CPU of its own (WorkerPlacement)

  // The runtime's cpu_threads (0: usableCpus()), cpu_fiber_stack_bytes and cpu_bind.
  static CpuSettings of(const RuntimeSettings& settings);
  // The CPUs this process may run on (its affinity mask, as an MPI launcher or a batch system
  // binds each rank to its share of a node; numactl and taskset too), else the hardware's count.
  static unsigned usableCpus();
};

} // namespace pyk::cpu
