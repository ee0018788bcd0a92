// block_prefetch.h: a block entry's hint for the block its worker runs a few blocks later: the
// elements of a one-dimensional array that block's threads read at their grid index
// (codegen/cpu/BlockPrefetch.h). Workers run consecutive blocks, and a block that computes much
// per element (a tree reduction) leaves the memory idle while it does: the hint keeps about
// kPrefetchAheadBytes in flight. A prefetch never faults, whatever the address.
#pragma once

#include "../common/arrays.h"
#include "thread_context.h"

namespace pyk::cpu {

// How far ahead, in bytes of the array (8 KiB: the best of 2 to 32 KiB for the block reduction
// on one core of the AMD VM).
inline constexpr int64 kPrefetchAheadBytes = 8192;

template <typename A>
inline void prefetch_ahead(const Context& ctx, const A& a) {
  static_assert(A::ndim == 1 && A::layout != pyk::Layout::A, "a contiguous one-dimensional array");
  using T = typename A::value_type;
  const int64 threads = ctx.blockDim.x;
  const int64 blockBytes = threads * static_cast<int64>(sizeof(T));
  if (blockBytes <= 0)
    return;
  const int64 ahead = (kPrefetchAheadBytes + blockBytes - 1) / blockBytes;
  const int64 first = (static_cast<int64>(ctx.blockIdx.x) + ahead) * threads;
  const int64 size = a.shape[0];
  if (first >= size)
    return;
  const int64 bytes = (first + threads <= size ? threads : size - first) * sizeof(T);
  const char* p = reinterpret_cast<const char*>(a.data + first);
  for (int64 offset = 0; offset < bytes; offset += 64)
    __builtin_prefetch(p + offset);
}

} // namespace pyk::cpu
