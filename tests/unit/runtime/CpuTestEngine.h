// CpuTestEngine: the engine the CPU engine's tests launch on (four workers, whatever the machine
// has, so that blocks really run concurrently), and helpers for hand-written "generated" kernels.
#pragma once

#include "cpu/CpuEngine.h"
#include "cpu/pyk_cpu_support.h"

#include <vector>

namespace pyk::cpu::testing {

inline constexpr unsigned kTestWorkers = 4;

inline CpuEngine& cpuTestEngine() {
  static CpuEngine engine(CpuSettings{kTestWorkers, CpuSettings::kDefaultFiberStackBytes, {}});
  return engine;
}

// A C-contiguous one-dimensional view of a vector, as generated code receives array arguments.
template <typename T>
Array<T, 1, Layout::C> viewOf(std::vector<T>& values) {
  return {values.data(), {static_cast<int64>(values.size())}, {static_cast<int64>(sizeof(T))}};
}

template <typename T>
using Vector = Array<T, 1, Layout::C>;

// The kernel argument at `index`, as generated code unpacks it.
template <typename T>
T& argument(void** args, int index) {
  return *static_cast<T*>(args[index]);
}

inline KernelEntry fiberKernel(const char* name, void (*entry)(Thread&, void**)) {
  KernelEntry kernel;
  kernel.name = name;
  kernel.mode = ExecutionMode::Fiber;
  kernel.thread_entry = entry;
  return kernel;
}

inline KernelEntry loopKernel(const char* name, void (*entry)(Block&, void**)) {
  KernelEntry kernel;
  kernel.name = name;
  kernel.mode = ExecutionMode::Loop;
  kernel.block_entry = entry;
  return kernel;
}

// The global linear index of a thread: (block linear index) * threads per block + thread's.
inline uint64 globalLinearIndex(const Block& block, Dim3 threadIdx) {
  const uint64 blockLinear =
      block.blockIdx.x +
      static_cast<uint64>(block.gridDim.x) *
          (block.blockIdx.y + static_cast<uint64>(block.gridDim.y) * block.blockIdx.z);
  const uint64 threadLinear =
      threadIdx.x + static_cast<uint64>(block.blockDim.x) *
                        (threadIdx.y + static_cast<uint64>(block.blockDim.y) * threadIdx.z);
  return blockLinear * volumeOf(block.blockDim) + threadLinear;
}

} // namespace pyk::cpu::testing
