// CpuSettings: how the CPU engine is sized: from the runtime's settings (PYK_CPU_THREADS,
// PYK_CPU_FIBER_STACK) or given by a caller (tests, benchmarks).
#pragma once

#include <cstddef>

#include "pyk/settings.hpp"

namespace pyk::cpu {

struct CpuSettings {
  static constexpr std::size_t kDefaultFiberStackBytes = RuntimeSettings::kDefaultFiberStackBytes;

  unsigned workerCount = 1; // threads running blocks, the caller's included
  std::size_t fiberStackBytes = kDefaultFiberStackBytes; // per fiber, without its guard page

  // The runtime's cpu_threads (0: the hardware's concurrency) and cpu_fiber_stack_bytes.
  static CpuSettings of(const RuntimeSettings& settings);
};

} // namespace pyk::cpu
