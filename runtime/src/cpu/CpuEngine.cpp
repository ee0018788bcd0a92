// CpuEngine: launch checks, per-worker block state, and the loop and fiber ways to run a block.
#include "cpu/CpuEngine.h"

#include "base/ArrayAlignment.h"

#include "cpu/CpuDevices.h"

#include "cpu/KernelFault.h"

#include "cpu/GridBarrier.h"

#include "cpu/FiberScheduler.h"
#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

#include <algorithm>
#include <exception>
#include <new>
#include <string>
#include <thread>

namespace pyk::cpu {

namespace {

// A block's shared memory is aligned to the largest alignment= a shared array may ask for.
constexpr std::size_t kSharedMemoryAlignment = types::kMaxArrayAlignment;
constexpr uint32 kMaxBlockDim[3] = {1024, 1024, 64};
constexpr uint32 kMaxGridDim[3] = {0x7FFFFFFFu, 65535, 65535};
// Shared memory a block may use without opting in (numba never opts in): 48 KiB.
constexpr std::size_t kMaxSharedBytes = 48 * 1024;

std::string describe(Dim3 extent) {
  return "(" + std::to_string(extent.x) + ", " + std::to_string(extent.y) + ", " +
         std::to_string(extent.z) + ")";
}

const char* nameOf(const KernelEntry& kernel) {
  return kernel.name != nullptr ? kernel.name : "?";
}

// CUDA's launch limits, as cudaErrorInvalidConfiguration reports them.
void checkLaunch(const KernelEntry& kernel, Dim3 grid, Dim3 block) {
  const std::string prefix = "kernel `" + std::string(nameOf(kernel)) + "`: ";
  const uint32 gridDims[3] = {grid.x, grid.y, grid.z};
  const uint32 blockDims[3] = {block.x, block.y, block.z};
  const char* axes = "xyz";
  for (int axis = 0; axis < 3; ++axis) {
    if (gridDims[axis] == 0 || gridDims[axis] > kMaxGridDim[axis])
      throw Error(ErrorKind::InvalidLaunch, prefix + "grid " + describe(grid) + " has " +
                                                std::to_string(gridDims[axis]) + " blocks along " +
                                                axes[axis] + "; the range is 1 to " +
                                                std::to_string(kMaxGridDim[axis]));
    if (blockDims[axis] == 0 || blockDims[axis] > kMaxBlockDim[axis])
      throw Error(ErrorKind::InvalidLaunch,
                  prefix + "block " + describe(block) + " has " + std::to_string(blockDims[axis]) +
                      " threads along " + axes[axis] + "; the range is 1 to " +
                      std::to_string(kMaxBlockDim[axis]));
  }
  if (volumeOf(block) > kMaxThreadsPerBlock)
    throw Error(ErrorKind::InvalidLaunch,
                prefix + "block " + describe(block) + " of " + std::to_string(volumeOf(block)) +
                    " threads exceeds " + std::to_string(kMaxThreadsPerBlock));
  if (kernel.mode == ExecutionMode::Loop && kernel.block_entry == nullptr)
    throw Error(ErrorKind::InvalidArgument, prefix + "loop mode needs a block entry point");
  if (kernel.mode == ExecutionMode::Fiber && kernel.thread_entry == nullptr)
    throw Error(ErrorKind::InvalidArgument, prefix + "fiber mode needs a thread entry point");
}

} // namespace

void CpuEngine::SharedMemoryDeleter::operator()(unsigned char* memory) const {
  ::operator delete[](memory, std::align_val_t(kSharedMemoryAlignment));
}

CpuEngine::CpuEngine(const CpuSettings& settings)
    : settings_(settings), pool_(settings.workerCount, settings.cpus, settings.spreadWorkers),
      workers_(pool_.workerCount()) {}

CpuEngine::~CpuEngine() = default;

CpuEngine& CpuEngine::shared() {
  return cpuEngine(currentCpuDevice());
}

namespace {

// A launch's shared memory layout: the static part, the dynamic part after it (aligned), and the
// capacity a block's buffer needs (whole cache lines, never empty, so every block has a valid
// aligned pointer).
struct SharedLayout {
  std::size_t dynamicOffset;
  std::size_t bytes;
  std::size_t capacity;
};

SharedLayout sharedLayoutOf(const KernelEntry& kernel, std::size_t static_shared_bytes,
                            std::size_t dynamic_shared_bytes) {
  const std::size_t dynamicOffset = (static_shared_bytes + kDynamicSharedAlignment - 1) /
                                    kDynamicSharedAlignment * kDynamicSharedAlignment;
  if (dynamicOffset < static_shared_bytes || dynamicOffset + dynamic_shared_bytes < dynamicOffset)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel `" + std::string(nameOf(kernel)) + "`: shared memory size overflows");
  const std::size_t bytes = dynamicOffset + dynamic_shared_bytes;
  return {dynamicOffset, bytes,
          std::max<std::size_t>(kSharedMemoryAlignment, (bytes + kSharedMemoryAlignment - 1) /
                                                            kSharedMemoryAlignment *
                                                            kSharedMemoryAlignment)};
}

// A block's state before its first thread runs (blockIdx 0; the launch sets it per block).
void resetBlock(Block& b, Dim3 grid, Dim3 block, unsigned char* sharedMemory,
                const SharedLayout& shared, std::size_t dynamic_shared_bytes, unsigned worker) {
  b.blockIdx = Dim3{0, 0, 0};
  b.blockDim = block;
  b.gridDim = grid;
  b.sharedMemory = sharedMemory;
  b.sharedBytes = shared.bytes;
  b.dynamicSharedOffset = shared.dynamicOffset;
  b.dynamicSharedBytes = dynamic_shared_bytes;
  b.ops = nullptr; // the fiber scheduler sets its own
  b.scheduler = nullptr;
  b.warps = nullptr;
  b.workerIndex = worker;
  b.deferred = nullptr; // prepareWorkers gives loop and split launches their worker's
  b.trapped = 0;
  b.trapMessage[0] = '\0';
}

// The error a block that trapped (a failed debug assertion, an index out of range) reports.
Error trapErrorOf(const KernelEntry& kernel, const Block& block) {
  return Error(ErrorKind::Kernel,
               block.trapMessage[0] != '\0'
                   ? std::string(block.trapMessage)
                   : "kernel `" + std::string(nameOf(kernel)) +
                         "`: a thread failed a debug assertion (its message is printed above)");
}

// Runs one block's `body` behind a fault jump point (cpu/KernelFault): a memory fault in it
// becomes the launch's KernelFaultError, naming the kernel and the block.
template <typename Body>
void runBlockCatchingFaults(const KernelEntry& kernel, Dim3 blockIdx, Body&& body) {
  MemoryFault fault;
  if (!runCatchingFaults(body, fault))
    throw KernelFaultError(describeFault(nameOf(kernel), fault, blockIdx.x, blockIdx.y, blockIdx.z),
                           fault);
}

// The same for blocks `body` runs one after another in `block` (setting its blockIdx): a fault
// names the block running when it happened.
template <typename Body>
void runBlocksCatchingFaults(const KernelEntry& kernel, const Block& block, Body&& body) {
  MemoryFault fault;
  if (!runCatchingFaults(body, fault))
    throw KernelFaultError(
        describeFault(nameOf(kernel), fault, block.blockIdx.x, block.blockIdx.y, block.blockIdx.z),
        fault);
}

} // namespace

void CpuEngine::prepareWorkers(const KernelEntry& kernel, Dim3 grid, Dim3 block,
                               std::size_t static_shared_bytes, std::size_t dynamic_shared_bytes) {
  const SharedLayout shared = sharedLayoutOf(kernel, static_shared_bytes, dynamic_shared_bytes);
  for (unsigned worker = 0; worker < workers_.size(); ++worker) {
    WorkerState& state = workers_[worker];
    if (state.sharedCapacity < shared.capacity) {
      state.sharedMemory.reset();
      state.sharedCapacity = 0;
      state.sharedMemory.reset(static_cast<unsigned char*>(
          ::operator new[](shared.capacity, std::align_val_t(kSharedMemoryAlignment))));
      state.sharedCapacity = shared.capacity;
    }
    if (kernel.mode == ExecutionMode::Fiber && !state.fibers)
      state.fibers = std::make_unique<FiberScheduler>(settings_.fiberStackBytes);
    resetBlock(state.block, grid, block, state.sharedMemory.get(), shared, dynamic_shared_bytes,
               worker);
    if (kernel.mode == ExecutionMode::Loop) {
      if (!state.deferred)
        state.deferred = std::make_unique<DeferredAtomics>();
      state.deferred->begin_launch();
      state.block.deferred = state.deferred.get();
    }
  }
}

void CpuEngine::launchCooperative(const KernelEntry& kernel, Dim3 grid, Dim3 block,
                                  std::size_t static_shared_bytes, std::size_t dynamic_shared_bytes,
                                  void** args) {
  const uint64_t blocks = volumeOf(grid);
  if (blocks > kMaxCooperativeBlocks || blocks * volumeOf(block) > kMaxCooperativeThreads)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel `" + std::string(nameOf(kernel)) + "` synchronises the grid, so all " +
                    std::to_string(blocks) + " blocks of " + std::to_string(volumeOf(block)) +
                    " threads must run at once; the CPU backend runs at most " +
                    std::to_string(kMaxCooperativeBlocks) + " blocks and " +
                    std::to_string(kMaxCooperativeThreads) + " threads at once");
  const SharedLayout shared = sharedLayoutOf(kernel, static_shared_bytes, dynamic_shared_bytes);
  GridBarrier barrier(blocks);
  std::vector<std::exception_ptr> failures(blocks);
  std::vector<std::thread> threads;
  threads.reserve(blocks);
  for (uint64_t linear = 0; linear < blocks; ++linear)
    threads.emplace_back([&, linear] {
      try {
        std::unique_ptr<unsigned char, SharedMemoryDeleter> memory(static_cast<unsigned char*>(
            ::operator new[](shared.capacity, std::align_val_t(kSharedMemoryAlignment))));
        Block b{};
        resetBlock(b, grid, block, memory.get(), shared, dynamic_shared_bytes,
                   static_cast<unsigned>(linear));
        const uint64_t plane = uint64_t{grid.x} * grid.y;
        b.blockIdx =
            Dim3{static_cast<uint32>(linear % plane % grid.x),
                 static_cast<uint32>(linear % plane / grid.x), static_cast<uint32>(linear / plane)};
        FiberScheduler fibers(settings_.fiberStackBytes);
        runBlockCatchingFaults(kernel, b.blockIdx, [&] {
          fibers.runBlock(b, kernel.thread_entry, args, nameOf(kernel), &barrier);
        });
        if (b.trapped != 0)
          throw trapErrorOf(kernel, b);
      } catch (...) {
        failures[linear] = std::current_exception();
        barrier.abandon();
      }
    });
  for (std::thread& t : threads)
    t.join();
  // The first failure that is not another block's abandoned barrier.
  std::exception_ptr first;
  for (const std::exception_ptr& failure : failures) {
    if (!failure)
      continue;
    try {
      std::rethrow_exception(failure);
    } catch (const Error& e) {
      if (std::string(e.what()) == GridBarrier::kAbandonedMessage) {
        if (!first)
          first = failure;
        continue;
      }
      std::rethrow_exception(failure);
    }
  }
  if (first)
    std::rethrow_exception(first);
}

void CpuEngine::launch(const KernelEntry& kernel, Dim3 grid, Dim3 block,
                       std::size_t static_shared_bytes, std::size_t dynamic_shared_bytes,
                       void** args) {
  checkLaunch(kernel, grid, block);
  if (static_shared_bytes + dynamic_shared_bytes > kMaxSharedBytes ||
      dynamic_shared_bytes > kMaxSharedBytes)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel `" + std::string(nameOf(kernel)) +
                    "`: " + std::to_string(static_shared_bytes) + " bytes of static and " +
                    std::to_string(dynamic_shared_bytes) +
                    " bytes of dynamic shared memory exceed the 49152 bytes (48 KiB) a block "
                    "may use");
  if (WorkerPool::callerIsRunningJob())
    throw Error(ErrorKind::InvalidLaunch, "kernel `" + std::string(nameOf(kernel)) +
                                              "`: launched from inside a running kernel, which "
                                              "the CPU backend does not support");
  std::lock_guard lock(launchMutex_);
  if (kernel.cooperative) {
    if (kernel.mode != ExecutionMode::Fiber)
      throw Error(ErrorKind::InvalidArgument, "kernel `" + std::string(nameOf(kernel)) +
                                                  "`: a cooperative kernel runs as fibers");
    launchCooperative(kernel, grid, block, static_shared_bytes, dynamic_shared_bytes, args);
    return;
  }
  prepareWorkers(kernel, grid, block, static_shared_bytes, dynamic_shared_bytes);
  // Enough chunks per worker to even out uneven blocks, few enough to keep the counter cool.
  const uint64_t chunk =
      std::clamp<uint64_t>(volumeOf(grid) / (uint64_t{pool_.workerCount()} * 8), 1, 4096);
  if (kernel.mode == ExecutionMode::Loop) {
    // One jump point a chunk of blocks, not a block (10-20 ns each of the 39,063 blocks of the
    // 10M-element vector add); a fault names the block then running.
    pool_.parallelFor(volumeOf(grid), chunk, [&](unsigned worker, uint64_t begin, uint64_t end) {
      Block& b = workers_[worker].block;
      runBlocksCatchingFaults(kernel, b, [&] {
        WorkerPool::forEachBlockIn(grid, begin, end, [&](Dim3 blockIdx) {
          b.blockIdx = blockIdx;
          kernel.block_entry(b, args);
        });
        // The chunk's gathered atomics, applied before the next chunk (and before the launch
        // returns); a fault they cause names the chunk's last block.
        b.deferred->flush();
      });
    });
  } else {
    pool_.parallelForBlocks(grid, chunk, [&](unsigned worker, Dim3 blockIdx) {
      WorkerState& state = workers_[worker];
      state.block.blockIdx = blockIdx;
      try {
        runBlockCatchingFaults(kernel, blockIdx, [&] {
          state.fibers->runBlock(state.block, kernel.thread_entry, args, nameOf(kernel));
        });
      } catch (const KernelFaultError&) {
        state.fibers.reset(); // its fibers are left where the fault stopped them
        throw;
      }
    });
  }
  for (const WorkerState& state : workers_)
    if (state.block.trapped != 0)
      throw trapErrorOf(kernel, state.block);
}

void runKernel(const KernelEntry& kernel, Dim3 grid, Dim3 block, std::size_t static_shared_bytes,
               std::size_t dynamic_shared_bytes, void** args) {
  CpuEngine::shared().launch(kernel, grid, block, static_shared_bytes, dynamic_shared_bytes, args);
}

} // namespace pyk::cpu
