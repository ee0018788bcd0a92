// FiberScheduler: runs one block's CUDA threads as fibers on one worker, switching at block
// barriers and warp exchanges (the BlockOps that fiber-mode code calls).
//
// Fibers run round-robin in thread order. A thread that arrives at a barrier yields unless it is
// the last one the barrier waits for; that one releases the others and carries on. A block
// barrier waits for every live thread: a thread that has exited counts as arrived (CUDA leaves a
// barrier that some threads never reach undefined; current GPUs effectively release it once the
// threads still running have arrived, and so does this). A warp barrier waits for the lanes of its
// mask that have not exited. When nothing can run while threads still wait (some at the block
// barrier and others at warp barriers whose lanes never come), the launch fails with a pyk::Error
// of kind Kernel rather than hang. A thread's exception ends the block (the other fibers are
// abandoned where they wait, without unwinding) and reaches the launcher.
#pragma once

#include "cpu/FiberStacks.h"
#include "cpu/GridBarrier.h"
#include "cpu/pyk_cpu_support.h"

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

namespace pyk::cpu {

class FiberScheduler {
public:
  explicit FiberScheduler(std::size_t stackBytes);
  ~FiberScheduler();
  FiberScheduler(const FiberScheduler&) = delete;
  FiberScheduler& operator=(const FiberScheduler&) = delete;

  // Runs every thread of `block` (blockIdx, blockDim, gridDim and shared memory already set) to
  // completion: entry(thread, args) per thread. Sets the block's ops, scheduler and warps.
  // `grid`: the launch's grid barrier, for kernels that synchronise the grid (a cooperative
  // launch: every block runs at once, each on a thread of its own); the block leaves it when
  // its threads are done.
  void runBlock(Block& block, void (*entry)(Thread&, void**), void** args, const char* kernelName,
                GridBarrier* grid = nullptr);

private:
  enum class FiberState : uint8_t {
    Ready,
    Running,
    AtBlockBarrier,
    AtWarpBarrier,
    AtGridBarrier,
    AtActivemask,
    Done
  };
  struct Fiber {
    boost::context::detail::fcontext_t context = nullptr;
    FiberScheduler* owner = nullptr;
    uint32_t index = 0;
    FiberState state = FiberState::Done;
    // AddressSanitizer's view of the switch (PYK_SANITIZE builds): the fiber's stack (the
    // worker's own is learned at the first switch away from it) and its fake stack.
    const void* stackBottom = nullptr;
    std::size_t stackSize = 0;
    void* fakeStack = nullptr;
    // ThreadSanitizer's fiber (PYK_SANITIZE_THREAD builds): made once, switched to at each jump.
    void* tsanFiber = nullptr;
  };
  // One warp's barrier: the lanes waiting at it and the mask each asked for.
  struct WarpBarrier {
    uint32_t arrived = 0;
    uint32_t requested[kWarpSize] = {};
    // cuda.activemask(): the lanes waiting at one, the call site each waits at, and the mask
    // each gets when the block can run no further.
    uint32_t atActivemask = 0;
    uint64_t activemaskSite[kWarpSize] = {};
    uint32_t activemaskResult[kWarpSize] = {};
  };

  static BarrierResult syncBlockOp(Thread& thread, int32 predicate);
  static void syncWarpOp(Thread& thread, uint32 mask);
  static void syncGridOp(Thread& thread);
  static uint32 activeMaskOp(Thread& thread, uint64 site);
  static void fiberStart(boost::context::detail::transfer_t from);
  static const BlockOps kOps;

  void prepareThreads(Block& block);
  BarrierResult arriveAtBlockBarrier(Thread& thread, bool predicate);
  void arriveAtWarpBarrier(Thread& thread, uint32 mask);
  void arriveAtGridBarrier(Thread& thread);
  uint32 arriveAtActivemask(Thread& thread, uint64 site);
  // No thread of the block can run on: each lane waiting at a cuda.activemask() gets the mask of
  // the lanes of its warp waiting at the same site, and runs on. False when none waits.
  bool releaseActivemasks();
  // The block's live threads have all arrived at the grid barrier: waits for the other blocks,
  // then lets the block's threads go on.
  void completeGridBarrier();
  [[noreturn]] void runCurrentFiber();
  [[noreturn]] void finishCurrentFiber();
  void releaseBlockBarrier();
  // Releases the group of `lane`'s request when all its live lanes have arrived; `running` is the
  // arriving lane, which carries on by itself (kWarpSize: none).
  bool releaseWarpGroupIfComplete(uint32_t warp, uint32_t lane, uint32_t running);
  bool releaseCompleteWarpGroups(uint32_t warp);
  void pushReady(uint32_t fiber);
  Fiber* popReady();
  void suspendCurrent();
  void switchTo(Fiber& from, Fiber& to);
  [[noreturn]] void throwDeadlock() const;

  FiberStacks stacks_;
  std::vector<Fiber> fibers_;
  std::vector<Thread> threads_;
  std::vector<WarpExchange> warps_;
  std::vector<WarpBarrier> warpBarriers_;
  Dim3 preparedBlockDim_{0, 0, 0};
  Block* preparedBlock_ = nullptr;
  uint32_t threadCount_ = 0;

  // The block being run.
  Fiber main_; // the worker's own context
  Fiber* current_ = nullptr;
  void (*entry_)(Thread&, void**) = nullptr;
  void** args_ = nullptr;
  const char* kernelName_ = "";
  Block* block_ = nullptr;
  uint32_t live_ = 0;
  std::exception_ptr failure_;
  // The block barrier: how many live threads have arrived, how many passed a true predicate,
  // which fibers wait, and what the last release reported.
  uint32_t blockArrived_ = 0;
  uint32_t blockPredicates_ = 0;
  std::vector<uint32_t> blockWaiters_;
  BarrierResult lastBarrier_{0, 0};
  // The grid barrier: the launch's, and this block's threads waiting at it.
  GridBarrier* grid_ = nullptr;
  uint32_t gridArrived_ = 0;
  std::vector<uint32_t> gridWaiters_;
  // Fibers ready to run, a ring of capacity threadCount_.
  std::vector<uint32_t> ready_;
  uint32_t readyHead_ = 0;
  uint32_t readyCount_ = 0;
};

} // namespace pyk::cpu
