// CpuSettings: how the CPU engine is sized, from the environment (PYK_CPU_THREADS,
// PYK_CPU_FIBER_STACK) or given by a caller.
#pragma once

#include <cstddef>

namespace pyk::cpu {

struct CpuSettings {
  static constexpr std::size_t kDefaultFiberStackBytes = 64 * 1024;
  static constexpr std::size_t kMinFiberStackBytes = 16 * 1024;

  unsigned workerCount = 1; // threads running blocks, the caller's included
  std::size_t fiberStackBytes = kDefaultFiberStackBytes; // per fiber, without its guard page

  // PYK_CPU_THREADS (a positive count; default: the hardware's concurrency) and
  // PYK_CPU_FIBER_STACK (bytes, or a count with a K or M suffix; default 64K). A malformed value is
  // a pyk::Error naming the variable.
  static CpuSettings fromEnvironment();
};

// The parsers fromEnvironment uses, for tests: `text` is the variable's value.
unsigned parseWorkerCount(const char* text);
std::size_t parseFiberStackBytes(const char* text);

} // namespace pyk::cpu
