// engine_abi.h: what a generated CPU object and the runtime's engine share: Block, Thread, the
// warp exchange areas and BlockOps (the engine's barriers as function pointers), versioned by
// kAbiVersion, and the export macro of a unit's entry points.
#pragma once

#include "../common/scalar_types.h"

#include <cstddef>

// The entry points of a generated unit: the only symbols its shared object exports (units are
// compiled with -fvisibility=hidden).
#define PYK_CPU_EXPORT __attribute__((visibility("default")))

namespace pyk::cpu {

// The layout of Block, Thread, WarpExchange and BlockOps is an interface between a compiled shared
// object and the runtime that loads it: any change to them bumps this number, so that a cached
// object built against another layout can be told apart (and rebuilt).
inline constexpr uint32 kAbiVersion = 5;

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
struct DeferredAtomics; // deferred_atomics.h

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
  // cuda.activemask() at call site `site`: the lanes of the warp that reach this site together, as
  // a GPU's converged lanes do. The caller waits until no thread of the block can run on; the
  // lanes then waiting at `site` are the mask (lanes in another branch wait elsewhere, or have
  // exited).
  uint32 (*activeMask)(Thread& thread, uint64 site);
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
  // Loop and split modes: the worker's gathered atomics (deferred_atomics.h), which the runtime
  // flushes after each chunk of blocks; null for fibers.
  DeferredAtomics* deferred;
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

} // namespace pyk::cpu
