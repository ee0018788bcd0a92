// FiberScheduler: the fibers of one block, their barriers and their round-robin switching.
#include "cpu/FiberScheduler.h"

#include "pyk/error.hpp"

#include <algorithm>
#include <bit>
#include <string>

// Under AddressSanitizer every switch is announced, so that it knows which stack is live (else
// it reports the fibers' stacks as overflows of the worker's).
#if defined(__SANITIZE_ADDRESS__)
#define PYK_ANNOUNCE_FIBER_SWITCHES 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PYK_ANNOUNCE_FIBER_SWITCHES 1
#endif
#endif
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

// Under ThreadSanitizer each fiber is one of its fibers and every jump is announced (else it
// takes the fibers' stacks for the worker's and reports races between a block's threads).
#if defined(__SANITIZE_THREAD__)
#define PYK_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PYK_TSAN_FIBERS 1
#endif
#endif
#ifdef PYK_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace pyk::cpu {

namespace fcontext = boost::context::detail;

namespace {
// Tells ThreadSanitizer that the jump to `to` follows (a no-op in other builds).
inline void announceJumpTo([[maybe_unused]] void* tsanFiber) {
#ifdef PYK_TSAN_FIBERS
  __tsan_switch_to_fiber(tsanFiber, 0);
#endif
}
} // namespace

const BlockOps FiberScheduler::kOps = {&FiberScheduler::syncBlockOp, &FiberScheduler::syncWarpOp,
                                       &FiberScheduler::syncGridOp, &FiberScheduler::activeMaskOp};

FiberScheduler::FiberScheduler(std::size_t stackBytes)
    : stacks_(stackBytes), warps_(kMaxWarpsPerBlock), warpBarriers_(kMaxWarpsPerBlock) {
  main_.owner = this;
}

FiberScheduler::~FiberScheduler() {
#ifdef PYK_TSAN_FIBERS
  for (Fiber& fiber : fibers_)
    if (fiber.tsanFiber != nullptr)
      __tsan_destroy_fiber(fiber.tsanFiber);
#endif
}

void FiberScheduler::prepareThreads(Block& block) {
  const Dim3 dim = block.blockDim;
  if (preparedBlock_ == &block && preparedBlockDim_.x == dim.x && preparedBlockDim_.y == dim.y &&
      preparedBlockDim_.z == dim.z)
    return;
  threadCount_ = static_cast<uint32_t>(volumeOf(dim));
  stacks_.reserve(threadCount_);
  fibers_.resize(threadCount_);
  threads_.resize(threadCount_);
  ready_.resize(threadCount_);
  blockWaiters_.reserve(threadCount_);
  uint32_t linear = 0;
  for (uint32_t z = 0; z < dim.z; ++z)
    for (uint32_t y = 0; y < dim.y; ++y)
      for (uint32_t x = 0; x < dim.x; ++x, ++linear) {
        threads_[linear] =
            Thread{Dim3{x, y, z}, &block, linear, linear % kWarpSize, linear / kWarpSize};
        fibers_[linear].owner = this;
        fibers_[linear].index = linear;
#ifdef PYK_TSAN_FIBERS
        if (fibers_[linear].tsanFiber == nullptr)
          fibers_[linear].tsanFiber = __tsan_create_fiber(0);
#endif
      }
  preparedBlock_ = &block;
  preparedBlockDim_ = dim;
}

void FiberScheduler::runBlock(Block& block, void (*entry)(Thread&, void**), void** args,
                              const char* kernelName, GridBarrier* grid) {
  prepareThreads(block);
  grid_ = grid;
  gridArrived_ = 0;
  gridWaiters_.clear();
  gridWaiters_.reserve(threadCount_);
  block.ops = &kOps;
  block.scheduler = this;
  block.warps = warps_.data();
  block_ = &block;
  entry_ = entry;
  args_ = args;
  kernelName_ = kernelName;
  failure_ = nullptr;
  live_ = threadCount_;
  blockArrived_ = 0;
  blockPredicates_ = 0;
  blockWaiters_.clear();
  readyHead_ = 0;
  readyCount_ = 0;
  const uint32_t warpCount = (threadCount_ + kWarpSize - 1) / kWarpSize;
  for (uint32_t warp = 0; warp < warpCount; ++warp) {
    const uint32_t lanes = std::min<uint32_t>(kWarpSize, threadCount_ - warp * kWarpSize);
    warps_[warp].liveLanes = lanes == kWarpSize ? kFullWarpMask : (1u << lanes) - 1u;
    warpBarriers_[warp].arrived = 0;
    warpBarriers_[warp].atActivemask = 0;
  }
  for (uint32_t i = 0; i < threadCount_; ++i) {
    fibers_[i].context = fcontext::make_fcontext(stacks_.top(i), stacks_.stackBytes(), &fiberStart);
    fibers_[i].stackBottom = static_cast<const char*>(stacks_.top(i)) - stacks_.stackBytes();
    fibers_[i].stackSize = stacks_.stackBytes();
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
    // A stack reused from an earlier launch keeps the red zones of frames that never returned
    // (a finished fiber is left, not unwound): clean before it runs again.
    ASAN_UNPOISON_MEMORY_REGION(fibers_[i].stackBottom, fibers_[i].stackSize);
#endif
    fibers_[i].state = FiberState::Ready;
    pushReady(i);
  }

  main_.state = FiberState::Running;
#ifdef PYK_TSAN_FIBERS
  main_.tsanFiber = __tsan_get_current_fiber();
#endif
  for (;;) {
    if (failure_) {
      std::exception_ptr failure = failure_;
      failure_ = nullptr;
      std::rethrow_exception(failure);
    }
    Fiber* next = popReady();
    if (next == nullptr) {
      if (live_ == 0) {
        if (grid_ != nullptr)
          grid_->leave();
        return;
      }
      // Nothing runs, yet threads wait: a warp whose lanes asked for different masks may still
      // have a complete group; otherwise the block is stuck.
      bool released = false;
      for (uint32_t warp = 0; warp < warpCount; ++warp)
        released = releaseCompleteWarpGroups(warp) || released;
      // Then the lanes waiting at cuda.activemask(): no other lane of their warps can reach
      // their site now, so those there are the converged ones.
      if (!released)
        released = releaseActivemasks();
      if (!released)
        throwDeadlock();
      continue;
    }
    switchTo(main_, *next);
  }
}

// ---- switching --------------------------------------------------------------------------------

// Every jump passes the Fiber it leaves; whoever resumes stores the context it came back with.
void FiberScheduler::switchTo(Fiber& from, Fiber& to) {
  current_ = &to;
  to.state = FiberState::Running;
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
  __sanitizer_start_switch_fiber(&from.fakeStack, to.stackBottom, to.stackSize);
#endif
  announceJumpTo(to.tsanFiber);
  const fcontext::transfer_t back = fcontext::jump_fcontext(to.context, &from);
  auto* previous = static_cast<Fiber*>(back.data);
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
  __sanitizer_finish_switch_fiber(from.fakeStack, &previous->stackBottom, &previous->stackSize);
#endif
  previous->context = back.fctx;
}

void FiberScheduler::fiberStart(fcontext::transfer_t from) {
  auto* previous = static_cast<Fiber*>(from.data);
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
  __sanitizer_finish_switch_fiber(nullptr, &previous->stackBottom, &previous->stackSize);
#endif
  previous->context = from.fctx;
  previous->owner->runCurrentFiber();
}

void FiberScheduler::runCurrentFiber() {
  Fiber& self = *current_;
  try {
    entry_(threads_[self.index], args_);
  } catch (...) {
    if (!failure_)
      failure_ = std::current_exception();
  }
  finishCurrentFiber();
}

// The current fiber has set its waiting state; run the next ready one, or the worker's own
// context when none is (all done, or stuck).
void FiberScheduler::suspendCurrent() {
  Fiber& self = *current_;
  Fiber* next = popReady();
  switchTo(self, next != nullptr ? *next : main_);
}

void FiberScheduler::finishCurrentFiber() {
  Fiber& self = *current_;
  self.state = FiberState::Done;
  --live_;
  const Thread& thread = threads_[self.index];
  warps_[thread.warpId].liveLanes &= ~(1u << thread.laneId);
  Fiber* next = nullptr;
  if (!failure_) {
    // An exited thread counts as arrived at the barriers others wait at.
    if (blockArrived_ > 0 && blockArrived_ == live_)
      releaseBlockBarrier();
    if (gridArrived_ > 0 && gridArrived_ == live_) {
      try {
        completeGridBarrier();
      } catch (...) {
        failure_ = std::current_exception();
      }
    }
    releaseCompleteWarpGroups(thread.warpId);
    next = popReady();
  }
  current_ = next != nullptr ? next : &main_;
  current_->state = FiberState::Running;
#ifdef PYK_ANNOUNCE_FIBER_SWITCHES
  __sanitizer_start_switch_fiber(nullptr, current_->stackBottom, current_->stackSize);
#endif
  announceJumpTo(current_->tsanFiber);
  fcontext::jump_fcontext(current_->context, &self); // never comes back
  __builtin_unreachable();
}

void FiberScheduler::pushReady(uint32_t fiber) {
  uint32_t slot = readyHead_ + readyCount_;
  if (slot >= threadCount_)
    slot -= threadCount_;
  ready_[slot] = fiber;
  ++readyCount_;
}

FiberScheduler::Fiber* FiberScheduler::popReady() {
  if (readyCount_ == 0)
    return nullptr;
  Fiber* fiber = &fibers_[ready_[readyHead_]];
  if (++readyHead_ == threadCount_)
    readyHead_ = 0;
  --readyCount_;
  return fiber;
}

// ---- block barrier ----------------------------------------------------------------------------

BarrierResult FiberScheduler::syncBlockOp(Thread& thread, int32 predicate) {
  return static_cast<FiberScheduler*>(thread.block->scheduler)
      ->arriveAtBlockBarrier(thread, predicate != 0);
}

BarrierResult FiberScheduler::arriveAtBlockBarrier(Thread& thread, bool predicate) {
  ++blockArrived_;
  blockPredicates_ += predicate ? 1 : 0;
  if (blockArrived_ == live_) {
    releaseBlockBarrier();
    return lastBarrier_;
  }
  fibers_[thread.linearIndex].state = FiberState::AtBlockBarrier;
  blockWaiters_.push_back(thread.linearIndex);
  suspendCurrent();
  // The next release cannot happen before this thread arrives again, so lastBarrier_ still holds.
  return lastBarrier_;
}

void FiberScheduler::releaseBlockBarrier() {
  lastBarrier_ =
      BarrierResult{static_cast<int32>(blockArrived_), static_cast<int32>(blockPredicates_)};
  blockArrived_ = 0;
  blockPredicates_ = 0;
  for (uint32_t fiber : blockWaiters_) {
    fibers_[fiber].state = FiberState::Ready;
    pushReady(fiber);
  }
  blockWaiters_.clear();
}

// ---- grid barrier -----------------------------------------------------------------------------

void FiberScheduler::syncGridOp(Thread& thread) {
  static_cast<FiberScheduler*>(thread.block->scheduler)->arriveAtGridBarrier(thread);
}

void FiberScheduler::arriveAtGridBarrier(Thread& thread) {
  if (grid_ == nullptr)
    throw Error(ErrorKind::Internal, "kernel `" + std::string(kernelName_) +
                                         "`: `this_grid().sync()` outside a cooperative launch");
  ++gridArrived_;
  if (gridArrived_ == live_) {
    completeGridBarrier();
    return;
  }
  fibers_[thread.linearIndex].state = FiberState::AtGridBarrier;
  gridWaiters_.push_back(thread.linearIndex);
  suspendCurrent();
}

void FiberScheduler::completeGridBarrier() {
  gridArrived_ = 0;
  grid_->arriveAndWait(); // blocks this worker until the other blocks arrive (or one fails)
  for (uint32_t fiber : gridWaiters_) {
    fibers_[fiber].state = FiberState::Ready;
    pushReady(fiber);
  }
  gridWaiters_.clear();
}

// ---- warp barriers ----------------------------------------------------------------------------

void FiberScheduler::syncWarpOp(Thread& thread, uint32 mask) {
  static_cast<FiberScheduler*>(thread.block->scheduler)->arriveAtWarpBarrier(thread, mask);
}

void FiberScheduler::arriveAtWarpBarrier(Thread& thread, uint32 mask) {
  WarpBarrier& barrier = warpBarriers_[thread.warpId];
  const uint32_t lane = thread.laneId;
  barrier.arrived |= 1u << lane;
  barrier.requested[lane] = mask | (1u << lane);
  if (releaseWarpGroupIfComplete(thread.warpId, lane, lane))
    return;
  fibers_[thread.linearIndex].state = FiberState::AtWarpBarrier;
  suspendCurrent();
}

bool FiberScheduler::releaseWarpGroupIfComplete(uint32_t warp, uint32_t lane, uint32_t running) {
  WarpBarrier& barrier = warpBarriers_[warp];
  const uint32_t group = barrier.requested[lane] & warps_[warp].liveLanes;
  if ((barrier.arrived & group) != group)
    return false;
  combineWarpExchange(warps_[warp], group);
  barrier.arrived &= ~group;
  for (uint32_t waiting = group; waiting != 0; waiting &= waiting - 1) {
    const uint32_t other = static_cast<uint32_t>(std::countr_zero(waiting));
    if (other == running)
      continue;
    const uint32_t fiber = warp * kWarpSize + other;
    fibers_[fiber].state = FiberState::Ready;
    pushReady(fiber);
  }
  return true;
}

bool FiberScheduler::releaseCompleteWarpGroups(uint32_t warp) {
  bool released = false;
  for (uint32_t waiting = warpBarriers_[warp].arrived; waiting != 0; waiting &= waiting - 1) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(waiting));
    if ((warpBarriers_[warp].arrived >> lane & 1u) &&
        releaseWarpGroupIfComplete(warp, lane, kWarpSize))
      released = true;
  }
  return released;
}

// ---- cuda.activemask() ------------------------------------------------------------------------

uint32 FiberScheduler::activeMaskOp(Thread& thread, uint64 site) {
  return static_cast<FiberScheduler*>(thread.block->scheduler)->arriveAtActivemask(thread, site);
}

uint32 FiberScheduler::arriveAtActivemask(Thread& thread, uint64 site) {
  WarpBarrier& barrier = warpBarriers_[thread.warpId];
  const uint32_t lane = thread.laneId;
  barrier.atActivemask |= 1u << lane;
  barrier.activemaskSite[lane] = site;
  fibers_[thread.linearIndex].state = FiberState::AtActivemask;
  suspendCurrent();
  return barrier.activemaskResult[lane];
}

bool FiberScheduler::releaseActivemasks() {
  bool released = false;
  const uint32_t warpCount = (threadCount_ + kWarpSize - 1) / kWarpSize;
  for (uint32_t warp = 0; warp < warpCount; ++warp) {
    WarpBarrier& barrier = warpBarriers_[warp];
    while (barrier.atActivemask != 0) {
      const uint32_t first = static_cast<uint32_t>(std::countr_zero(barrier.atActivemask));
      const uint64_t site = barrier.activemaskSite[first];
      uint32_t group = 0;
      for (uint32_t waiting = barrier.atActivemask; waiting != 0; waiting &= waiting - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(waiting));
        if (barrier.activemaskSite[lane] == site)
          group |= 1u << lane;
      }
      barrier.atActivemask &= ~group;
      for (uint32_t waiting = group; waiting != 0; waiting &= waiting - 1) {
        const uint32_t lane = static_cast<uint32_t>(std::countr_zero(waiting));
        barrier.activemaskResult[lane] = group;
        const uint32_t fiber = warp * kWarpSize + lane;
        fibers_[fiber].state = FiberState::Ready;
        pushReady(fiber);
      }
      released = true;
    }
  }
  return released;
}

void FiberScheduler::throwDeadlock() const {
  uint32_t atWarpBarriers = 0;
  for (uint32_t warp = 0; warp * kWarpSize < threadCount_; ++warp)
    atWarpBarriers += static_cast<uint32_t>(std::popcount(warpBarriers_[warp].arrived));
  const Dim3 at = block_->blockIdx;
  throw Error(ErrorKind::Kernel,
              "kernel `" + std::string(kernelName_) + "` deadlocked in block (" +
                  std::to_string(at.x) + ", " + std::to_string(at.y) + ", " + std::to_string(at.z) +
                  "): " + std::to_string(blockWaiters_.size()) +
                  " threads wait at `syncthreads`, " + std::to_string(gridWaiters_.size()) +
                  " at `this_grid().sync()` and " + std::to_string(atWarpBarriers) +
                  " at warp-level operations whose other lanes never arrive");
}

} // namespace pyk::cpu
