// loop_mode.h: the threads of a block run as a plain loop (loop and split mode): the loops over
// every thread or over a ThreadBox, the box of thread indices a split region narrows to.
#pragma once

#include "thread_context.h"

namespace pyk::cpu {

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
  // Whether it still holds every thread of the block.
  bool coversBlock(const Context& c) const {
    return lo[0] == 0 && lo[1] == 0 && lo[2] == 0 && hi[0] == static_cast<int32>(c.blockDim.x) &&
           hi[1] == static_cast<int32>(c.blockDim.y) && hi[2] == static_cast<int32>(c.blockDim.z);
  }
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

} // namespace pyk::cpu
