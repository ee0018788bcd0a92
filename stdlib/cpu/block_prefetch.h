// block_prefetch.h: a block entry's hint for the block its worker runs a few blocks later: the
// elements of an array that block's threads read at their grid index, a one-dimensional array's
// or a two-dimensional one's rows (codegen/cpu/BlockPrefetch.h). Workers run consecutive blocks,
// and a block that computes much per element (a tree reduction, a stencil's tile) leaves the
// memory idle while it does: the hint keeps a few KiB in flight. A prefetch never faults,
// whatever the address. Each function is always inlined: GCC found a call of one to have no
// effect (a prefetch is none to its analysis of pure functions) and dropped it, so until
// 2026-11-30 the block entries prefetched nothing (tests/lit/cpu-passes/block_prefetch.pyk reads
// the instructions).
#pragma once

#include "../common/arrays.h"
#include "thread_context.h"

namespace pyk::cpu {

// How far ahead, in bytes of the array (8 KiB: the best of 2 to 32 KiB for the block reduction
// on one core of the AMD VM).
inline constexpr int64 kPrefetchAheadBytes = 8192;

// For a two-dimensional array, in bytes of the blocks ahead (4 KiB: the best of 1 to 8 blocks of
// 32x8 floats for the shared-memory diffusion on one core of the AMD VM; 8 was slower).
inline constexpr int64 kPrefetchAheadBytes2d = 4096;

// The cache lines of the `bytes` bytes at `p`.
[[gnu::always_inline]] inline void prefetch_lines(const char* p, int64 bytes) {
  for (int64 offset = 0; offset < bytes; offset += 64)
    __builtin_prefetch(p + offset);
}

// a[first], ..., a[first + count - 1] of a contiguous 1-D array, those inside it.
template <typename A>
[[gnu::always_inline]] inline void prefetch_elements(const A& a, int64 first, int64 count) {
  static_assert(A::ndim == 1 && A::layout != pyk::Layout::A, "a contiguous one-dimensional array");
  const int64 size = a.shape[0];
  if (first < 0 || first >= size)
    return;
  const int64 inside = first + count <= size ? count : size - first;
  prefetch_lines(reinterpret_cast<const char*>(a.data + first),
                 inside * static_cast<int64>(sizeof(typename A::value_type)));
}

// a[y, x] for the rows of the block kPrefetchAheadBytes2d later on x (its worker's next blocks
// run along x); nothing past the end of a row.
template <typename A>
[[gnu::always_inline]] inline void prefetch_rows_ahead(const Context& ctx, const A& a) {
  static_assert(A::ndim == 2 && A::layout == pyk::Layout::C, "a C-contiguous 2-D array");
  using T = typename A::value_type;
  const int64 width = ctx.blockDim.x, height = ctx.blockDim.y;
  const int64 blockBytes = width * height * static_cast<int64>(sizeof(T));
  if (blockBytes <= 0)
    return;
  const int64 ahead = (kPrefetchAheadBytes2d + blockBytes - 1) / blockBytes;
  const int64 first = (static_cast<int64>(ctx.blockIdx.x) + ahead) * width;
  const int64 top = static_cast<int64>(ctx.blockIdx.y) * height;
  const int64 columns = a.shape[1], rows = a.shape[0];
  if (first >= columns || top >= rows)
    return;
  const int64 bytes = (first + width <= columns ? width : columns - first) * sizeof(T);
  const int64 last = top + height <= rows ? top + height : rows;
  const char* p = reinterpret_cast<const char*>(a.data) + top * a.strides[0] + first * sizeof(T);
  for (int64 row = top; row < last; ++row, p += a.strides[0])
    prefetch_lines(p, bytes);
}

// a[x] for the block kPrefetchAheadBytes later.
template <typename A>
[[gnu::always_inline]] inline void prefetch_elements_ahead(const Context& ctx, const A& a) {
  const int64 threads = ctx.blockDim.x;
  const int64 blockBytes = threads * static_cast<int64>(sizeof(typename A::value_type));
  if (blockBytes <= 0)
    return;
  const int64 ahead = (kPrefetchAheadBytes + blockBytes - 1) / blockBytes;
  prefetch_elements(a, (static_cast<int64>(ctx.blockIdx.x) + ahead) * threads, threads);
}

// How many rounds of a grid-stride loop ahead a round asks for (8: the best of 2 to 16 for the
// histogram's order on 2 threads of the AMD VM, bench/cpu/analysis/grid_stride_order.cpp).
inline constexpr int64 kPrefetchRoundsAhead = 8;

// a[base + k * step + t] for the block's threads t (a[i] in a grid-stride loop on x whose round
// starts at `base`), k = kPrefetchRoundsAhead; nothing past the array's end.
template <typename A, typename I>
[[gnu::always_inline]] inline void prefetch_round_ahead(const Context& ctx, const A& a, I base,
                                                        I step) {
  int64 ahead = 0, first = 0;
  if (__builtin_mul_overflow(static_cast<int64>(step), kPrefetchRoundsAhead, &ahead) ||
      __builtin_add_overflow(static_cast<int64>(base), ahead, &first))
    return;
  prefetch_elements(a, first, ctx.blockDim.x);
}

// What the block entry calls for each array BlockPrefetch found.
template <typename A>
[[gnu::always_inline]] inline void prefetch_ahead(const Context& ctx, const A& a) {
  if constexpr (A::ndim == 2)
    prefetch_rows_ahead(ctx, a);
  else
    prefetch_elements_ahead(ctx, a);
}

} // namespace pyk::cpu
