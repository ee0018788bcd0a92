// barriers.h: the block barrier (syncthreads and its count/and/or forms) and the grid barrier in
// fiber mode, and the memory fences; on a Thread (the engine's side) and on a Context (what
// generated code calls).
#pragma once

#include "thread_context.h"

#include <atomic>

namespace pyk::cpu {

inline void syncthreads(Thread& thread) {
  thread.block->ops->syncBlock(thread, 0);
}
// The number of live threads whose predicate is non-zero.
inline int32 syncthreads_count(Thread& thread, int32 predicate) {
  return thread.block->ops->syncBlock(thread, predicate != 0).predicateCount;
}
inline int32 syncthreads_and(Thread& thread, int32 predicate) {
  const BarrierResult result = thread.block->ops->syncBlock(thread, predicate != 0);
  return result.predicateCount == result.participants ? 1 : 0;
}
inline int32 syncthreads_or(Thread& thread, int32 predicate) {
  return thread.block->ops->syncBlock(thread, predicate != 0).predicateCount != 0 ? 1 : 0;
}

// Memory fences. All fibers of a block share one OS thread, so block scope needs no fence for them,
// but blocks of other workers may read the same global memory.
inline void threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void threadfence_system() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The same through a Context (what generated code calls).
inline void syncthreads(Context& c) {
  syncthreads(*c.thread);
}
inline int32 syncthreads_count(Context& c, int32 predicate) {
  return syncthreads_count(*c.thread, predicate);
}
inline int32 syncthreads_and(Context& c, int32 predicate) {
  return syncthreads_and(*c.thread, predicate);
}
inline int32 syncthreads_or(Context& c, int32 predicate) {
  return syncthreads_or(*c.thread, predicate);
}
// `cuda.cg.this_grid().sync()`: also a full memory fence, as on the GPU.
inline void grid_sync(Context& c) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  c.block->ops->syncGrid(*c.thread);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void threadfence_block(Context&) {
  threadfence_block();
}
inline void threadfence(Context&) {
  threadfence();
}
inline void threadfence_system(Context&) {
  threadfence_system();
}
// numba-cuda's nanosleep(ns): a hint the GPU may take; a block's threads here run in turn, and
// sleeping would only slow them.
inline void nanosleep(Context&, uint32) {}

} // namespace pyk::cpu
