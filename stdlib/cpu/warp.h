// warp.h: the warp-level operations in fiber mode with CUDA's semantics for warps of 32 lanes
// (PTX's shfl.sync, vote.sync, match.sync): lane numbers, syncwarp, votes, shuffles and matches,
// on a Thread (the engine's side) and on a Context (what generated code calls).
#pragma once

#include "thread_context.h"

#include <cstring>
#include <source_location>
#include <type_traits>

namespace pyk::cpu {

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
// The lanes of the warp that reach this call (`site`) together, as on a GPU: the engine lets every
// thread of the block run on until none can, then gives each lane waiting at the site the mask of
// those waiting there. Lanes in the other branch of divergent code wait at another site, at a
// barrier or have exited, so they are not in it (numba's warp-aggregated atomics count right).
inline uint32 activemask(Thread& thread, uint64 site = 0) {
  return thread.block->ops->activeMask(thread, site);
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

// The same through a Context (what generated code calls).
// Lane numbers come from the linear index, so they need no fiber.
inline int32 laneid(const Context& c) {
  return static_cast<int32>(linearIndexOf(c) % kWarpSize);
}
inline uint32 lanemask_lt(const Context& c) {
  return (1u << (linearIndexOf(c) % kWarpSize)) - 1u;
}
// The call site is where generated code calls it (its line and column, #line's .pyk line).
inline uint32 activemask(Context& c, std::source_location at = std::source_location::current()) {
  return activemask(*c.thread, (static_cast<uint64>(at.line()) << 32) | at.column());
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

} // namespace pyk::cpu
