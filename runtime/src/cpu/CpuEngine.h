// CpuEngine: the CPU backend's launches: checks a launch, spreads its blocks over the worker
// pool, and runs each block in the kernel's mode (a loop over threads, or one fiber per thread).
#pragma once

#include "cpu/CpuSettings.h"
#include "cpu/WorkerPool.h"
#include "cpu/pyk_cpu_support.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace pyk::cpu {

class FiberScheduler;

// How a kernel's generated code runs a block.
enum class ExecutionMode { Loop, Fiber };

// One kernel of a loaded shared object: its name (for messages) and its entry point.
struct KernelEntry {
  const char* name = "";
  ExecutionMode mode = ExecutionMode::Loop;
  void (*block_entry)(Block& block, void** args) = nullptr;    // Loop: runs every thread of a block
  void (*thread_entry)(Thread& thread, void** args) = nullptr; // Fiber: runs one thread
  // It synchronises the grid: a cooperative launch, every block at once (Fiber mode).
  bool cooperative = false;
};

// What a cooperative launch may hold at once: each block gets an OS thread and a fiber stack per
// thread (CUDA limits such launches to the blocks the device holds at once, too). Each stack's
// guard page splits its mapping in two, and Linux allows 65530 mappings a process by default.
inline constexpr uint64_t kMaxCooperativeBlocks = 256;
inline constexpr uint64_t kMaxCooperativeThreads = 16384;

class CpuEngine {
public:
  explicit CpuEngine(const CpuSettings& settings);
  ~CpuEngine();
  CpuEngine(const CpuEngine&) = delete;
  CpuEngine& operator=(const CpuEngine&) = delete;

  // The engine of the calling thread's CPU device (cpu/CpuDevices: one for the whole machine
  // unless PYK_CPU_DEVICES says more), sized from the runtime's settings on first use.
  static CpuEngine& shared();

  unsigned workerCount() const { return pool_.workerCount(); }

  // Runs the kernel over `grid` blocks of `block` threads and returns when every block is done.
  // `args` holds one pointer per kernel argument, to its value. Shared memory per block: the
  // static part at offset 0, the dynamic part from static_shared_bytes rounded up to 16. A launch
  // outside CUDA's limits is a pyk::Error (InvalidLaunch); what a block throws reaches the
  // caller unchanged once the other workers have stopped. Launches run one at a time.
  void launch(const KernelEntry& kernel, Dim3 grid, Dim3 block, std::size_t static_shared_bytes,
              std::size_t dynamic_shared_bytes, void** args);

private:
  struct SharedMemoryDeleter {
    void operator()(unsigned char* memory) const;
  };
  // What a worker owns: its block, that block's shared memory, its fibers.
  struct WorkerState {
    Block block{};
    std::unique_ptr<unsigned char, SharedMemoryDeleter> sharedMemory;
    std::size_t sharedCapacity = 0;
    std::unique_ptr<FiberScheduler> fibers;
    // The atomics this worker gathers in loop and split modes (deferred_atomics.h).
    std::unique_ptr<DeferredAtomics> deferred;
  };

  void prepareWorkers(const KernelEntry& kernel, Dim3 grid, Dim3 block,
                      std::size_t static_shared_bytes, std::size_t dynamic_shared_bytes);
  // Every block at once, each on a thread of its own with its fibers and shared memory.
  void launchCooperative(const KernelEntry& kernel, Dim3 grid, Dim3 block,
                         std::size_t static_shared_bytes, std::size_t dynamic_shared_bytes,
                         void** args);

  CpuSettings settings_;
  WorkerPool pool_;
  std::vector<WorkerState> workers_;
  std::mutex launchMutex_;
};

// Launches on CpuEngine::shared().
void runKernel(const KernelEntry& kernel, Dim3 grid, Dim3 block, std::size_t static_shared_bytes,
               std::size_t dynamic_shared_bytes, void** args);

} // namespace pyk::cpu
