// pyk_cpu_support.h: the CPU execution model every unit the CPU backend generates includes.
//
// The generated shared object includes this header and nothing of the runtime: it is given a
// Block (and, in fiber mode, one Thread per CUDA thread) whose BlockOps table of function pointers
// leads back into the runtime's scheduler. Two entry points per kernel:
//   - loop mode:  void blockEntry(pyk::cpu::Block&, void** args) loops over the block's threads
//                 itself (kernels without barriers or warp primitives, or split at each barrier);
//   - fiber mode: void threadEntry(pyk::cpu::Thread&, void** args) is one CUDA thread; the runtime
//                 runs one fiber per thread and switches at barriers and warp exchanges.
// Warp-level operations follow CUDA's semantics for warps of 32 lanes (PTX's shfl.sync, vote.sync,
// match.sync); what CUDA leaves undefined is pinned down here and said so where it is done.
// Atomics are std::atomic_ref, with the names and semantics of pyk_support.h's device versions.
#pragma once

#include "../cuda/pyk_support.h"

#if PYK_CUDA
#error "pyk_cpu_support.h is host code; device code gets the same names from pyk_support.h"
#endif

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

// The entry points of a generated unit: the only symbols its shared object exports (units are
// compiled with -fvisibility=hidden).
#define PYK_CPU_EXPORT __attribute__((visibility("default")))

namespace pyk::cpu {

// The layout of Block, Thread, WarpExchange and BlockOps is an interface between a compiled shared
// object and the runtime that loads it: any change to them bumps this number, so that a cached
// object built against another layout can be told apart (and rebuilt).
inline constexpr uint32 kAbiVersion = 3;

inline constexpr uint32 kWarpSize = 32;
inline constexpr uint32 kFullWarpMask = 0xFFFFFFFFu;
inline constexpr uint32 kMaxThreadsPerBlock = 1024;
inline constexpr uint32 kMaxWarpsPerBlock = kMaxThreadsPerBlock / kWarpSize;
// Dynamic shared memory starts at the static part's size rounded up to this alignment.
inline constexpr std::size_t kDynamicSharedAlignment = 16;

// CUDA's dim3: unset components are 1, so Dim3{256} is a one-dimensional extent.
struct Dim3 {
  uint32 x = 1;
  uint32 y = 1;
  uint32 z = 1;
};

inline uint64 volumeOf(Dim3 extent) {
  return static_cast<uint64>(extent.x) * extent.y * extent.z;
}

struct Block;
struct Thread;

// What a block barrier reports: how many threads took part (live threads; exited ones count as
// arrived) and how many of them passed a non-zero predicate.
struct BarrierResult {
  int32 participants;
  int32 predicateCount;
};

// One lane's slot in a warp exchange. The lane fills the inputs, arrives at the warp barrier, and
// reads its outputs after it; the engine runs combineWarpExchange once, when the last lane of the
// group arrives, while every lane of the group is suspended.
enum class WarpExchangeKind : uint8 { Sync, Vote, Shuffle, Match };
struct WarpLane {
  // inputs
  uint64 value;      // the lane's value (shuffle, match), zero-extended bits
  uint32 sourceLane; // shuffle: the lane to read (the lane itself when out of its segment)
  WarpExchangeKind kind;
  bool predicate; // vote
  // outputs
  uint64 result;    // shuffle: the source lane's value
  uint32 groupMask; // the lanes that took part: the mask's lanes that have not exited
  uint32 ballot;    // vote: the group's lanes whose predicate was true
  uint32 matchMask; // match: the group's lanes whose value equals this lane's
};

// The exchange area of one warp.
struct WarpExchange {
  uint32 liveLanes; // kept by the engine: the warp's lanes that exist and have not exited
  WarpLane lanes[kWarpSize];
};

// The engine's side of the barriers (function pointers filled by the runtime, so the generated
// shared object needs no symbol from it). Both suspend the calling thread until its group arrives.
struct BlockOps {
  // A block barrier: every live thread of the block arrives; exited threads count as arrived.
  BarrierResult (*syncBlock)(Thread& thread, int32 predicate);
  // A warp barrier over `mask` (the caller's lane is always included; lanes that have exited
  // count as arrived), then combineWarpExchange over the group.
  void (*syncWarp)(Thread& thread, uint32 mask);
  // A grid barrier (`this_grid().sync()`, cooperative launches): every live thread of every
  // block arrives; exited threads, and blocks whose threads have all exited, count as arrived.
  void (*syncGrid)(Thread& thread);
};

// The state of the block a worker is running. One per worker, reused from block to block.
struct Block {
  Dim3 blockIdx;
  Dim3 blockDim;
  Dim3 gridDim;
  // Shared memory: static arrays at byte offsets the compiler computes from 0, dynamic shared
  // memory at dynamicSharedOffset. 64-byte aligned; not zeroed (CUDA does not zero it either).
  unsigned char* sharedMemory;
  std::size_t sharedBytes;
  std::size_t dynamicSharedOffset;
  std::size_t dynamicSharedBytes;
  // Fiber mode only: the engine's operations, its scheduler, one exchange area per warp.
  const BlockOps* ops;
  void* scheduler;
  WarpExchange* warps;
  uint32 workerIndex; // which worker runs the block (diagnostics, tests)
  // Set by generated code when a thread of the block stopped (a failed debug assertion, an
  // out-of-range index under bounds checking), with the first such thread's message.
  uint32 trapped;
  char trapMessage[512];
};

// One CUDA thread of a block in fiber mode.
struct Thread {
  Dim3 threadIdx;
  Block* block;
  uint32 linearIndex; // x + y * blockDim.x + z * blockDim.x * blockDim.y
  uint32 laneId;      // linearIndex % 32
  uint32 warpId;      // linearIndex / 32
};

// ---- shared memory --------------------------------------------------------------------------

// A shared array placed at `byteOffset` in the block's shared memory.
template <typename T>
T* shared_pointer(Block& block, std::size_t byteOffset) {
  return reinterpret_cast<T*>(block.sharedMemory + byteOffset);
}

// `cuda.shared.array(0, T)`: the dynamic part, as long as the launch's dynamic size allows.
template <typename T>
Array<T, 1, Layout::C> dynamic_shared_array(Block& block) {
  return {shared_pointer<T>(block, block.dynamicSharedOffset),
          {static_cast<int64>(block.dynamicSharedBytes / sizeof(T))},
          {static_cast<int64>(sizeof(T))}};
}

// ---- the thread context of generated code ---------------------------------------------------

// What device code sees of its thread: the hidden first parameter of every generated function.
// Loop and split mode keep one Context per block and move threadIdx from thread to thread;
// fiber mode has one per fiber, with the fiber's Thread for barriers and warp operations.
struct Context {
  Dim3 threadIdx;
  Dim3 blockIdx;
  Dim3 blockDim;
  Dim3 gridDim;
  Block* block;
  Thread* thread; // fiber mode only
};

inline Context blockContext(Block& block) {
  return {Dim3{0, 0, 0}, block.blockIdx, block.blockDim, block.gridDim, &block, nullptr};
}
inline Context threadContext(Thread& thread) {
  Block& b = *thread.block;
  return {thread.threadIdx, b.blockIdx, b.blockDim, b.gridDim, &b, &thread};
}

inline constexpr uint32 kNoThread = 0xFFFFFFFFu;

inline uint32 linearIndexOf(const Context& c) {
  return c.threadIdx.x + c.blockDim.x * (c.threadIdx.y + c.blockDim.y * c.threadIdx.z);
}
inline Dim3 threadIndexOf(const Context& c, uint32 linear) {
  return Dim3{linear % c.blockDim.x, linear / c.blockDim.x % c.blockDim.y,
              linear / (c.blockDim.x * c.blockDim.y)};
}
// The first thread that has not exited (`exited` null: none has), or kNoThread.
inline uint32 firstLiveThread(const Context& c, const uint8* exited) {
  const uint32 n = static_cast<uint32>(volumeOf(c.blockDim));
  for (uint32 t = 0; t < n; ++t)
    if (exited == nullptr || exited[t] == 0)
      return t;
  return kNoThread;
}

// A failed debug assertion (numba's debug=True assert/raise): the thread stops; the launch fails.
struct KernelTrap {};
[[noreturn]] inline void trap(Context& c) {
  c.block->trapped = 1;
  throw KernelTrap{};
}
// The same with a message for the launch's error (the first of the block's is kept).
[[noreturn]] inline void trapWith(Context& c, const char* message) {
  if (c.block->trapped == 0) {
    std::strncpy(c.block->trapMessage, message, sizeof c.block->trapMessage - 1);
    c.block->trapMessage[sizeof c.block->trapMessage - 1] = '\0';
  }
  trap(c);
}

// ---- bounds checking (PYK_BOUNDSCHECK=1) ----------------------------------------------------

// An array access that checks each index (after Python's wrap of negative signed ones) against
// the extent, and stops the kernel with a message naming the array, the index and the thread.
template <typename T, int N, Layout L>
struct CheckedArray {
  const Array<T, N, L>& array;
  Context& context;
  const char* name;
  const char* where;

  template <typename... I>
  T& operator()(I... indices) const {
    const int64 index[N] = {static_cast<int64>(indices)...};
    const bool isSigned[N] = {detail::IntTraits<I>::isSigned...};
    for (int d = 0; d < N; ++d) {
      const int64 wrapped = isSigned[d] && index[d] < 0 ? index[d] + array.shape[d] : index[d];
      const bool negative = !isSigned[d] ? false : wrapped < 0;
      if (negative || static_cast<uint64>(wrapped) >= static_cast<uint64>(array.shape[d])) {
        char message[400];
        const Context& c = context;
        std::snprintf(message, sizeof message,
                      "%s: index %lld is out of bounds for axis %d of `%s` with size %lld "
                      "(thread (%u, %u, %u) of block (%u, %u, %u))",
                      where, static_cast<long long>(index[d]), d, name,
                      static_cast<long long>(array.shape[d]), c.threadIdx.x, c.threadIdx.y,
                      c.threadIdx.z, c.blockIdx.x, c.blockIdx.y, c.blockIdx.z);
        trapWith(context, message);
      }
    }
    return array(indices...);
  }
};
template <typename T, int N, Layout L>
CheckedArray<T, N, L> checked(Context& c, const char* name, const char* where,
                              const Array<T, N, L>& array) {
  return {array, c, name, where};
}

// ---- loop mode ------------------------------------------------------------------------------

// A box of thread indices, [lo, hi) on each axis: the threads a split region runs when its
// statements are `if`s whose tests bound the thread index (`if tid < stride:`, `if tx == 0:`).
struct ThreadBox {
  int32 lo[3];
  int32 hi[3];

  // Every thread of the block.
  static ThreadBox whole(const Context& c) {
    return {{0, 0, 0},
            {static_cast<int32>(c.blockDim.x), static_cast<int32>(c.blockDim.y),
             static_cast<int32>(c.blockDim.z)}};
  }
  // No thread.
  static ThreadBox none() { return {{0, 0, 0}, {0, 0, 0}}; }

  // Keeps the threads whose index on `axis` satisfies `index OP bound`; op is one of '<', 'l'
  // (<=), '>', 'g' (>=), '=' (==). The bound is any int64: the box never leaves the block.
  void narrow(int axis, char op, int64 bound) {
    int32& l = lo[axis];
    int32& h = hi[axis];
    const bool lowBound = op == '>' || op == 'g' || op == '=';
    const bool highBound = op == '<' || op == 'l' || op == '=';
    if (highBound) {
      // index < bound, index <= bound (index < bound + 1), index == bound (index < bound + 1)
      const int64 limit = op == '<' ? bound : (bound < h ? bound + 1 : h);
      if (limit < h)
        h = limit < l ? l : static_cast<int32>(limit);
    }
    if (lowBound) {
      const int64 first = op == '>' ? (bound < h ? bound + 1 : h) : bound;
      if (first > l)
        l = first > h ? h : static_cast<int32>(first);
    }
  }
  // The same for the grid index on `axis` (threadIdx + blockIdx * blockDim, `cuda.grid`'s).
  void narrowGlobal(const Context& c, int axis, char op, int64 bound) {
    const Dim3 b = c.blockIdx, d = c.blockDim;
    const int64 offset = static_cast<int64>(axis == 0   ? b.x
                                            : axis == 1 ? b.y
                                                        : b.z) *
                         static_cast<int64>(axis == 0   ? d.x
                                            : axis == 1 ? d.y
                                                        : d.z);
    // bound - offset, kept from overflowing (any value below -1 means the same here)
    narrow(axis, op, bound < offset - 0x4000000000000000LL ? int64(-2) : bound - offset);
  }
  // Grows this box to hold `other` too (the hull of both).
  void include(const ThreadBox& other) {
    if (other.empty())
      return;
    if (empty()) {
      *this = other;
      return;
    }
    for (int d = 0; d < 3; ++d) {
      lo[d] = other.lo[d] < lo[d] ? other.lo[d] : lo[d];
      hi[d] = other.hi[d] > hi[d] ? other.hi[d] : hi[d];
    }
  }
  bool empty() const { return lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]; }
};

// Runs body(context, linearIndex) for every thread of `box` that has not exited (`exited`
// indexed by linear index; null: none has), x fastest (the linear thread order); `context` is
// `c` with the thread's threadIdx. X, Y, Z non-zero: the unit was compiled for that block shape
// (the launch's), so the optimiser knows the trip counts and blockDim.
template <uint32 X = 0, uint32 Y = 0, uint32 Z = 0, typename Body>
inline void forEachThreadIn(Context& c, const uint8* exited, const ThreadBox& box, Body&& body) {
  // CUDA's limits, told to the optimiser: indices then fit int32 and are never negative, so
  // Python's wrap of negative indices folds away and accesses are affine in threadIdx.x (the
  // loop vectorises). The engine rejects launches outside them.
  if (c.blockDim.x > kMaxThreadsPerBlock || c.blockDim.y > kMaxThreadsPerBlock ||
      c.blockDim.z > 64 || c.blockIdx.x > 0x7FFFFFFEu || c.blockIdx.y > 65534 ||
      c.blockIdx.z > 65534 || c.gridDim.x > 0x7FFFFFFFu || c.gridDim.y > 65535 ||
      c.gridDim.z > 65535)
    __builtin_unreachable();
  // int32 counters (generated code reads threadIdx as numba's int32) and a linear index computed
  // from them: every index stays an affine function of the innermost counter, so GCC vectorises
  // split-mode regions as well as whole loop-mode kernels.
  const int32 nx = X != 0 ? static_cast<int32>(X) : static_cast<int32>(c.blockDim.x);
  const int32 ny = X != 0 ? static_cast<int32>(Y) : static_cast<int32>(c.blockDim.y);
  // The linear index is an induction variable of its own: computed from x in the loop, GCC folds
  // it into unsigned arithmetic with the unsigned threadIdx and loses its affinity.
  for (int32 z = box.lo[2]; z < box.hi[2]; ++z)
    for (int32 y = box.lo[1]; y < box.hi[1]; ++y) {
      int32 linear = box.lo[0] + nx * (y + ny * z) - 1;
      for (int32 x = box.lo[0]; x < box.hi[0]; ++x) {
        ++linear;
        if (exited != nullptr && exited[linear] != 0)
          continue;
        // A context per thread, local to the iteration: the optimiser keeps it in registers.
        Context thread = c;
        if constexpr (X != 0)
          thread.blockDim = Dim3{X, Y, Z};
        thread.threadIdx =
            Dim3{static_cast<uint32>(x), static_cast<uint32>(y), static_cast<uint32>(z)};
        body(thread, linear);
      }
    }
}

// The same over every thread of the block.
template <uint32 X = 0, uint32 Y = 0, uint32 Z = 0, typename Body>
inline void forEachThread(Context& c, const uint8* exited, Body&& body) {
  if constexpr (X != 0) {
    const ThreadBox all{{0, 0, 0},
                        {static_cast<int32>(X), static_cast<int32>(Y), static_cast<int32>(Z)}};
    forEachThreadIn<X, Y, Z>(c, exited, all, static_cast<Body&&>(body));
  } else {
    forEachThreadIn(c, exited, ThreadBox::whole(c), static_cast<Body&&>(body));
  }
}

// Whether the launch's block shape is the one a unit was compiled for.
inline void expectBlockShape(Context& c, uint32 x, uint32 y, uint32 z) {
  if (c.blockDim.x != x || c.blockDim.y != y || c.blockDim.z != z)
    trapWith(c, "internal error: a kernel compiled for one block shape was launched with another");
}

// Calls body(threadIdx) for every thread of the block, x fastest (the linear thread order).
template <typename Body>
void forEachThread(const Block& block, Body&& body) {
  for (uint32 z = 0; z < block.blockDim.z; ++z)
    for (uint32 y = 0; y < block.blockDim.y; ++y)
      for (uint32 x = 0; x < block.blockDim.x; ++x)
        body(Dim3{x, y, z});
}

// ---- block barriers (fiber mode) ------------------------------------------------------------

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

// ---- warp-level operations (fiber mode) -----------------------------------------------------

// Runs one exchange over `group` (the lanes of the requesting mask that have not exited). Called
// by the engine with every lane of the group suspended at the warp barrier. A shuffle whose source
// lane is outside the group reads the caller's own value (CUDA: undefined).
inline void combineWarpExchange(WarpExchange& warp, uint32 group) {
  uint32 ballot = 0;
  for (uint32 lane = 0; lane < kWarpSize; ++lane)
    if ((group >> lane & 1u) && warp.lanes[lane].predicate)
      ballot |= 1u << lane;
  for (uint32 lane = 0; lane < kWarpSize; ++lane) {
    if (!(group >> lane & 1u))
      continue;
    WarpLane& slot = warp.lanes[lane];
    slot.groupMask = group;
    slot.ballot = ballot;
    switch (slot.kind) {
    case WarpExchangeKind::Shuffle: {
      const uint32 source = slot.sourceLane;
      slot.result =
          source < kWarpSize && (group >> source & 1u) ? warp.lanes[source].value : slot.value;
      break;
    }
    case WarpExchangeKind::Match: {
      uint32 same = 0;
      for (uint32 other = 0; other < kWarpSize; ++other)
        if ((group >> other & 1u) && warp.lanes[other].value == slot.value)
          same |= 1u << other;
      slot.matchMask = same;
      break;
    }
    case WarpExchangeKind::Sync:
    case WarpExchangeKind::Vote:
      break;
    }
  }
}

namespace detail {

inline WarpLane& laneSlot(Thread& thread) {
  return thread.block->warps[thread.warpId].lanes[thread.laneId];
}

template <typename T>
uint64 bitsOf(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp exchanges carry values of at most 8 bytes");
  uint64 bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
T valueOf(uint64 bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Arrives at the warp barrier with the lane's slot filled in; returns the slot with the results.
inline WarpLane& exchange(Thread& thread, uint32 mask, WarpExchangeKind kind, uint64 value,
                          uint32 sourceLane, bool predicate) {
  WarpLane& slot = laneSlot(thread);
  slot.kind = kind;
  slot.value = value;
  slot.sourceLane = sourceLane;
  slot.predicate = predicate;
  thread.block->ops->syncWarp(thread, mask);
  return slot;
}

// PTX shfl.sync's source lane (CUDA passes c = ((32 - width) << 8) | clamp): the segment mask
// is c[12:8]; the lane operand counts only its low 5 bits; out of range, the lane reads itself.
inline uint32 segmentMaskOf(int32 width) {
  return static_cast<uint32>(32 - width) & 31u;
}
inline uint32 shuffleIndexSource(uint32 lane, int32 sourceLane, int32 width) {
  const uint32 segment = segmentMaskOf(width);
  return (lane & segment) | (static_cast<uint32>(sourceLane) & 31u & ~segment);
}
inline uint32 shuffleUpSource(uint32 lane, uint32 delta, int32 width) {
  const int32 first = static_cast<int32>(lane & segmentMaskOf(width));
  const int32 source = static_cast<int32>(lane) - static_cast<int32>(delta & 31u);
  return source >= first ? static_cast<uint32>(source) : lane;
}
inline uint32 shuffleDownSource(uint32 lane, uint32 delta, int32 width) {
  const uint32 segment = segmentMaskOf(width);
  const uint32 last = (lane & segment) | (31u & ~segment);
  const uint32 source = lane + (delta & 31u);
  return source <= last ? source : lane;
}
inline uint32 shuffleXorSource(uint32 lane, int32 laneMask, int32 width) {
  const uint32 segment = segmentMaskOf(width);
  const uint32 last = (lane & segment) | (31u & ~segment);
  const uint32 source = lane ^ (static_cast<uint32>(laneMask) & 31u);
  return source <= last ? source : lane;
}

} // namespace detail

inline int32 laneid(const Thread& thread) {
  return static_cast<int32>(thread.laneId);
}
inline uint32 lanemask_lt(const Thread& thread) {
  return (1u << thread.laneId) - 1u;
}
// The lanes of the warp that have not exited. (On a GPU, a subset of them inside divergent code;
// fibers do not track convergence.)
inline uint32 activemask(const Thread& thread) {
  return thread.block->warps[thread.warpId].liveLanes;
}

inline void syncwarp(Thread& thread, uint32 mask = kFullWarpMask) {
  detail::exchange(thread, mask, WarpExchangeKind::Sync, 0, 0, false);
}

// Votes over the mask's lanes that have not exited.
inline int32 all_sync(Thread& thread, uint32 mask, int32 predicate) {
  const WarpLane& slot =
      detail::exchange(thread, mask, WarpExchangeKind::Vote, 0, 0, predicate != 0);
  return slot.ballot == slot.groupMask ? 1 : 0;
}
inline int32 any_sync(Thread& thread, uint32 mask, int32 predicate) {
  return detail::exchange(thread, mask, WarpExchangeKind::Vote, 0, 0, predicate != 0).ballot != 0
             ? 1
             : 0;
}
// vote.uni (CUDA's __uni_sync, numba's eq_sync): the predicate is the same on every lane.
inline int32 eq_sync(Thread& thread, uint32 mask, int32 predicate) {
  const WarpLane& slot =
      detail::exchange(thread, mask, WarpExchangeKind::Vote, 0, 0, predicate != 0);
  return slot.ballot == 0 || slot.ballot == slot.groupMask ? 1 : 0;
}
inline uint32 ballot_sync(Thread& thread, uint32 mask, int32 predicate) {
  return detail::exchange(thread, mask, WarpExchangeKind::Vote, 0, 0, predicate != 0).ballot;
}

namespace detail {
// One shuffle: every lane of the group publishes `value` and reads lane `source`'s.
template <typename T>
T shuffle(Thread& thread, uint32 mask, T value, uint32 source) {
  return valueOf<T>(
      exchange(thread, mask, WarpExchangeKind::Shuffle, bitsOf(value), source, false).result);
}
} // namespace detail

// Shuffles of values of 4 or 8 bytes. `width` (a power of two up to 32) splits the warp into
// segments; a source outside the caller's segment reads the caller's own value.
template <typename T>
T shfl_sync(Thread& thread, uint32 mask, T value, int32 sourceLane, int32 width = kWarpSize) {
  return detail::shuffle(thread, mask, value,
                         detail::shuffleIndexSource(thread.laneId, sourceLane, width));
}
template <typename T>
T shfl_up_sync(Thread& thread, uint32 mask, T value, uint32 delta, int32 width = kWarpSize) {
  return detail::shuffle(thread, mask, value, detail::shuffleUpSource(thread.laneId, delta, width));
}
template <typename T>
T shfl_down_sync(Thread& thread, uint32 mask, T value, uint32 delta, int32 width = kWarpSize) {
  return detail::shuffle(thread, mask, value,
                         detail::shuffleDownSource(thread.laneId, delta, width));
}
template <typename T>
T shfl_xor_sync(Thread& thread, uint32 mask, T value, int32 laneMask, int32 width = kWarpSize) {
  return detail::shuffle(thread, mask, value,
                         detail::shuffleXorSource(thread.laneId, laneMask, width));
}

// match.sync: values compare by their bits (as the GPU compares b32/b64).
template <typename T>
uint32 match_any_sync(Thread& thread, uint32 mask, T value) {
  return detail::exchange(thread, mask, WarpExchangeKind::Match, detail::bitsOf(value), 0, false)
      .matchMask;
}
// The group's mask when every lane of it holds the same value (*predicate = 1), else 0.
template <typename T>
uint32 match_all_sync(Thread& thread, uint32 mask, T value, int32* predicate) {
  const WarpLane& slot =
      detail::exchange(thread, mask, WarpExchangeKind::Match, detail::bitsOf(value), 0, false);
  const bool same = slot.matchMask == slot.groupMask;
  *predicate = same ? 1 : 0;
  return same ? slot.groupMask : 0;
}

// ---- the same operations through a Context (what generated code calls) ---------------------

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
// Lane numbers come from the linear index, so they need no fiber.
inline int32 laneid(const Context& c) {
  return static_cast<int32>(linearIndexOf(c) % kWarpSize);
}
inline uint32 lanemask_lt(const Context& c) {
  return (1u << (linearIndexOf(c) % kWarpSize)) - 1u;
}
inline uint32 activemask(Context& c) {
  return activemask(*c.thread);
}
inline void syncwarp(Context& c, uint32 mask = kFullWarpMask) {
  syncwarp(*c.thread, mask);
}
inline int32 all_sync(Context& c, uint32 mask, int32 predicate) {
  return all_sync(*c.thread, mask, predicate);
}
inline int32 any_sync(Context& c, uint32 mask, int32 predicate) {
  return any_sync(*c.thread, mask, predicate);
}
inline int32 eq_sync(Context& c, uint32 mask, int32 predicate) {
  return eq_sync(*c.thread, mask, predicate);
}
inline uint32 ballot_sync(Context& c, uint32 mask, int32 predicate) {
  return ballot_sync(*c.thread, mask, predicate);
}
template <typename T>
T shfl_sync(Context& c, uint32 mask, T value, int32 sourceLane, int32 width = kWarpSize) {
  return shfl_sync(*c.thread, mask, value, sourceLane, width);
}
template <typename T>
T shfl_up_sync(Context& c, uint32 mask, T value, int32 delta, int32 width = kWarpSize) {
  return shfl_up_sync(*c.thread, mask, value, static_cast<uint32>(delta), width);
}
template <typename T>
T shfl_down_sync(Context& c, uint32 mask, T value, int32 delta, int32 width = kWarpSize) {
  return shfl_down_sync(*c.thread, mask, value, static_cast<uint32>(delta), width);
}
template <typename T>
T shfl_xor_sync(Context& c, uint32 mask, T value, int32 laneMask, int32 width = kWarpSize) {
  return shfl_xor_sync(*c.thread, mask, value, laneMask, width);
}
template <typename T>
uint32 match_any_sync(Context& c, uint32 mask, T value) {
  return match_any_sync(*c.thread, mask, value);
}
template <typename T>
uint32 match_all_sync(Context& c, uint32 mask, T value, int32* predicate) {
  return match_all_sync(*c.thread, mask, value, predicate);
}

// ---- integer intrinsics (CUDA's __popc, __clz, __ffs, __brev and their ll forms) ------------

inline int32 popc32(uint32 x) {
  return __builtin_popcount(x);
}
inline int32 popc64(uint64 x) {
  return __builtin_popcountll(x);
}
inline int32 clz32(uint32 x) {
  return x == 0 ? 32 : __builtin_clz(x);
}
inline int32 clz64(uint64 x) {
  return x == 0 ? 64 : __builtin_clzll(x);
}
inline int32 ffs32(uint32 x) {
  return __builtin_ffs(static_cast<int>(x));
}
inline int32 ffs64(uint64 x) {
  return __builtin_ffsll(static_cast<long long>(x));
}
inline uint32 brev32(uint32 x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(x);
}
inline uint64 brev64(uint64 x) {
  return (static_cast<uint64>(brev32(static_cast<uint32>(x))) << 32) |
         brev32(static_cast<uint32>(x >> 32));
}
template <typename T>
int32 popc32(T x) {
  return popc32(static_cast<uint32>(x));
}
template <typename T>
int32 popc64(T x) {
  return popc64(static_cast<uint64>(x));
}
template <typename T>
int32 clz32(T x) {
  return clz32(static_cast<uint32>(x));
}
template <typename T>
int32 clz64(T x) {
  return clz64(static_cast<uint64>(x));
}
template <typename T>
int32 ffs32(T x) {
  return ffs32(static_cast<uint32>(x));
}
template <typename T>
int32 ffs64(T x) {
  return ffs64(static_cast<uint64>(x));
}
template <typename T>
uint32 brev32(T x) {
  return brev32(static_cast<uint32>(x));
}
template <typename T>
uint64 brev64(T x) {
  return brev64(static_cast<uint64>(x));
}

} // namespace pyk::cpu

// ---- atomics: pyk_support.h's device atomics, on the host ----------------------------------

namespace pyk {

namespace detail {
template <typename T>
inline constexpr bool
    isAtomicOperand = (isInteger<T> && (sizeof(T) == 4 || sizeof(T) == 8)) || isFloat<T>;

// Replaces *p with update(*p) atomically (a compare-and-swap loop); returns the old value.
// compare_exchange compares bits, so a NaN in memory is handled like any other value.
template <typename T, typename Update>
T atomicUpdate(T* p, Update update) {
  std::atomic_ref<T> word(*p);
  T old = word.load(std::memory_order_relaxed);
  for (;;) {
    const T next = update(old);
    if (std::memcmp(&next, &old, sizeof(T)) == 0)
      return old;
    if (word.compare_exchange_weak(old, next, std::memory_order_seq_cst, std::memory_order_relaxed))
      return old;
  }
}
} // namespace detail

// cuda.atomic.*: each returns the old value, in numba's element type. Integers wrap.
template <typename T>
T atomic_add(T* p, T v) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return std::atomic_ref<T>(*p).fetch_add(v);
}
template <typename T>
T atomic_sub(T* p, T v) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return std::atomic_ref<T>(*p).fetch_sub(v);
}
template <typename T>
T atomic_and(T* p, T v) {
  static_assert(detail::isInteger<T>, "atomic and takes integers");
  return std::atomic_ref<T>(*p).fetch_and(v);
}
template <typename T>
T atomic_or(T* p, T v) {
  static_assert(detail::isInteger<T>, "atomic or takes integers");
  return std::atomic_ref<T>(*p).fetch_or(v);
}
template <typename T>
T atomic_xor(T* p, T v) {
  static_assert(detail::isInteger<T>, "atomic xor takes integers");
  return std::atomic_ref<T>(*p).fetch_xor(v);
}
template <typename T>
T atomic_exch(T* p, T v) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return std::atomic_ref<T>(*p).exchange(v);
}
// Returns the old value; stores `desired` only if it equals `expected` (bitwise for floats).
template <typename T>
T atomic_cas(T* p, T expected, T desired) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected;
}

// Float max/min with numba's NaN rules (pyk_support.h's CAS loops): max/min keep a NaN in memory
// and ignore a NaN operand (a comparison with NaN is false); nanmax/nanmin treat NaN as missing on
// either side.
template <typename T>
T atomic_fmax(T* p, T v) {
  static_assert(detail::isFloat<T>, "atomic fmax takes floats");
  return detail::atomicUpdate(p, [v](T current) { return current < v ? v : current; });
}
template <typename T>
T atomic_fmin(T* p, T v) {
  static_assert(detail::isFloat<T>, "atomic fmin takes floats");
  return detail::atomicUpdate(p, [v](T current) { return v < current ? v : current; });
}
template <typename T>
T atomic_nanmax(T* p, T v) {
  static_assert(detail::isFloat<T>, "atomic nanmax takes floats");
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || current < v ? (v != v ? current : v) : current;
  });
}
template <typename T>
T atomic_nanmin(T* p, T v) {
  static_assert(detail::isFloat<T>, "atomic nanmin takes floats");
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || v < current ? (v != v ? current : v) : current;
  });
}
// Integer max/min (a float operand takes the fmax/fmin rules, as numba's max/min do).
template <typename T>
T atomic_max(T* p, T v) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  if constexpr (detail::isFloat<T>)
    return atomic_fmax(p, v);
  else
    return detail::atomicUpdate(p, [v](T current) { return current < v ? v : current; });
}
template <typename T>
T atomic_min(T* p, T v) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  if constexpr (detail::isFloat<T>)
    return atomic_fmin(p, v);
  else
    return detail::atomicUpdate(p, [v](T current) { return v < current ? v : current; });
}

// inc/dec with CUDA's wrap: inc gives 0 once the old value reaches `limit`, dec gives `limit` at 0
// or above it (uint32 and uint64, as on the device).
inline uint32 atomic_inc(uint32* p, uint32 limit) {
  return detail::atomicUpdate(
      p, [limit](uint32 current) { return current >= limit ? 0u : current + 1u; });
}
inline uint32 atomic_dec(uint32* p, uint32 limit) {
  return detail::atomicUpdate(p, [limit](uint32 current) {
    return current == 0 || current > limit ? limit : current - 1u;
  });
}
inline uint64 atomic_inc(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current >= limit ? 0ULL : current + 1; });
}
inline uint64 atomic_dec(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current == 0 || current > limit ? limit : current - 1; });
}

} // namespace pyk
