// deferred_atomics.h: atomics on global memory that a worker gathers and applies later, in the
// order it ran them. Every block that adds into one accumulator (`cuda.atomic.add(total, 0, s)`)
// makes the workers take its cache line from each other on every atomic: on this VM the 16M-float
// block reduction ran no faster on two workers than on one (2.4 ms). A GPU combines such atomics
// in its L2 cache; here each worker keeps the operands it would have applied to an address and
// applies them at once, in its own order (one compare-and-swap for the lot, the values combined
// one after another with the atomic's own update, so the result is exactly that of running them
// back to back: one of the orders the GPU may pick, not a re-association).
//
// The compiler gathers an atomic only where nothing can tell (codegen/cpu/DeferredAtomics.h): the
// kernel touches the array only with read-modify-write atomics whose result it does not use, at
// an index the same for the whole grid, and has no memory fence; the block entry then checks that
// no other array argument overlaps it (decide_deferral). The runtime flushes a worker's atomics
// at the end of each chunk of blocks it ran, inside its fault handling (CpuEngine), so every
// gathered atomic is applied before the launch returns.
#pragma once

#include "../common/arrays.h"
#include "atomics.h"
#include "engine_abi.h"
#include "thread_context.h"

#include <cstring>
#include <initializer_list>

namespace pyk::cpu {

// Addresses one worker gathers atomics for at once, and operands it keeps for each.
inline constexpr uint32 kDeferredTargets = 4;
inline constexpr uint32 kDeferredOperands = 256;

// Applies `count` operands (their bits) to the element at `address`, in order; an instantiation of
// apply_in_order in the generated unit that gathered them.
using ApplyDeferred = void (*)(void* address, const uint64* operands, uint32 count);

struct DeferredTarget {
  void* address;
  ApplyDeferred apply;
  uint32 count;
  uint64 operands[kDeferredOperands];

  void flush() {
    if (count != 0)
      apply(address, operands, count);
    count = 0;
  }
};

// One worker's gathered atomics (Block::deferred; null where a launch runs fibers).
struct DeferredAtomics {
  // Whether this launch gathers: -1 undecided (the runtime's value at each launch), 0 no (an
  // array argument overlaps a gathered one), 1 yes.
  int32 enabled;
  uint32 used; // targets in use
  DeferredTarget targets[kDeferredTargets];

  void begin_launch() {
    enabled = -1;
    used = 0;
  }
  // Applies every gathered atomic.
  void flush() {
    for (uint32 t = 0; t < used; ++t)
      targets[t].flush();
    used = 0;
  }
};

template <typename Op, typename T>
void apply_in_order(void* address, const uint64* operands, uint32 count) {
  pyk::detail::atomicUpdate(static_cast<T*>(address), [&](T current) {
    for (uint32 i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, &operands[i], sizeof(T));
      current = Op::update(current, v);
    }
    return current;
  });
}

// The bytes an array argument's elements span, [begin, end); empty for an empty array.
struct ByteExtent {
  uintptr_t begin = 0;
  uintptr_t end = 0;
};
template <typename A>
ByteExtent extent_of(const A& a) {
  using T = typename A::value_type;
  if (a.size() == 0)
    return {};
  const auto base = reinterpret_cast<uintptr_t>(a.data);
  if constexpr (A::ndim == 0 || A::layout != pyk::Layout::A) {
    return {base, base + static_cast<uintptr_t>(a.size()) * sizeof(T)};
  } else {
    int64 low = 0, high = 0;
    for (int d = 0; d < A::ndim; ++d) {
      const int64 span = (a.shape[d] - 1) * a.strides[d];
      (span < 0 ? low : high) += span;
    }
    return {static_cast<uintptr_t>(static_cast<int64>(base) + low),
            static_cast<uintptr_t>(static_cast<int64>(base) + high) + sizeof(T)};
  }
}

// The block entry's first statement in a kernel with gathered atomics: on the worker's first
// block of the launch, gathering is on when no other array argument overlaps a gathered one
// (`gathered`: the arrays its atomics gather for, which must not overlap one another either;
// `others`: every other array argument).
inline void decide_deferral(Block& block, std::initializer_list<ByteExtent> gathered,
                            std::initializer_list<ByteExtent> others) {
  DeferredAtomics* d = block.deferred;
  if (d == nullptr || d->enabled >= 0)
    return;
  auto overlap = [](ByteExtent a, ByteExtent b) {
    return a.begin < a.end && b.begin < b.end && a.begin < b.end && b.begin < a.end;
  };
  bool apart = true;
  for (auto g = gathered.begin(); g != gathered.end(); ++g) {
    for (ByteExtent o : others)
      apart = apart && !overlap(*g, o);
    for (auto h = g + 1; h != gathered.end(); ++h)
      apart = apart && !overlap(*g, *h);
  }
  d->enabled = apart ? 1 : 0;
}

// A gathered atomic `Op` of `v` on `*p` (its result unused); `immediate(p, v)` where this launch
// does not gather (fibers, overlapping arguments).
template <typename Op, typename T, typename Immediate>
void deferred_atomic(const Context& ctx, T* p, T v, Immediate immediate) {
  DeferredAtomics* d = ctx.block->deferred;
  if (d == nullptr || d->enabled != 1) {
    immediate(p, v);
    return;
  }
  const ApplyDeferred apply = &apply_in_order<Op, T>;
  DeferredTarget* target = nullptr;
  for (uint32 t = 0; t < d->used; ++t)
    if (d->targets[t].address == p) {
      target = &d->targets[t];
      break;
    }
  if (target != nullptr && target->apply != apply) {
    target->flush(); // another operation on the same element: the earlier ones go first
    target->apply = apply;
  }
  if (target == nullptr) {
    if (d->used == kDeferredTargets)
      d->flush();
    target = &d->targets[d->used++];
    target->address = p;
    target->apply = apply;
    target->count = 0;
  }
  if (target->count == kDeferredOperands)
    target->flush();
  uint64 bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  target->operands[target->count++] = bits;
}

} // namespace pyk::cpu
