// atomics.h: cuda.atomic.* on the host, on std::atomic_ref, with the names and semantics of
// cuda/atomics.h's device versions; and the same on a block's own memory, its shared arrays,
// which only the OS thread running the block touches (its threads run one after another, or as
// fibers that switch only at barriers and warp operations): there a read-modify-write is a plain
// load and store (the generated code passes `pyk::block_memory` where the array is one of them).
#pragma once

#include "../common/scalar_types.h"

#include <atomic>
#include <cstring>
#include <type_traits>

namespace pyk {

// Where an atomic's element lies: memory other blocks' threads may touch at once (global arrays;
// the default), or the block's own shared memory.
struct DeviceMemory {};
struct BlockMemory {};
inline constexpr BlockMemory block_memory{};

namespace detail {
template <typename T>
inline constexpr bool
    isAtomicOperand = (isInteger<T> && (sizeof(T) == 4 || sizeof(T) == 8)) || isFloat<T>;

template <typename M>
inline constexpr bool isBlockMemory = std::is_same_v<M, BlockMemory>;

// Replaces *p with update(*p) atomically (a compare-and-swap loop); returns the old value.
// compare_exchange compares bits, so a NaN in memory is handled like any other value.
template <typename T, typename Update>
T atomicUpdate(T* p, Update update, DeviceMemory = {}) {
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
// The same on the block's own memory: no other thread can come between the load and the store.
template <typename T, typename Update>
T atomicUpdate(T* p, Update update, BlockMemory) {
  const T old = *p;
  *p = update(old);
  return old;
}

// a + b and a - b as the atomics compute them: integers wrap (two's complement).
template <typename T>
T wrappingSum(T a, T b, bool subtract) {
  if constexpr (isInteger<T>) {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return static_cast<T>(subtract ? static_cast<U>(x - y) : static_cast<U>(x + y));
  } else {
    return subtract ? a - b : a + b;
  }
}
} // namespace detail

// What each read-modify-write atomic stores: `update(current, operand)`. One definition serves
// the atomic on global memory, on the block's own memory, and the gathered ones a worker applies
// later in the order it ran them (deferred_atomics.h). Float max/min with numba's NaN rules
// (cuda/atomics.h's CAS loops): max/min keep a NaN in memory and ignore a NaN operand (a
// comparison with NaN is false); nanmax/nanmin treat NaN as missing on either side. Integer
// max/min are plain.
namespace atomic_op {
struct Add {
  template <typename T>
  static T update(T c, T v) {
    return detail::wrappingSum(c, v, false);
  }
};
struct Sub {
  template <typename T>
  static T update(T c, T v) {
    return detail::wrappingSum(c, v, true);
  }
};
struct And {
  template <typename T>
  static T update(T c, T v) {
    return static_cast<T>(c & v);
  }
};
struct Or {
  template <typename T>
  static T update(T c, T v) {
    return static_cast<T>(c | v);
  }
};
struct Xor {
  template <typename T>
  static T update(T c, T v) {
    return static_cast<T>(c ^ v);
  }
};
struct Exch {
  template <typename T>
  static T update(T, T v) {
    return v;
  }
};
struct Max {
  template <typename T>
  static T update(T c, T v) {
    return c < v ? v : c;
  }
};
struct Min {
  template <typename T>
  static T update(T c, T v) {
    return v < c ? v : c;
  }
};
struct Nanmax {
  template <typename T>
  static T update(T c, T v) {
    return c != c || c < v ? (v != v ? c : v) : c;
  }
};
struct Nanmin {
  template <typename T>
  static T update(T c, T v) {
    return c != c || v < c ? (v != v ? c : v) : c;
  }
};
} // namespace atomic_op

namespace detail {
// `Op`'s update of the old value on the block's memory; elsewhere `onDevice` of the word, one of
// std::atomic_ref's own read-modify-writes (a single instruction, no compare-and-swap loop).
template <typename Op, typename T, typename M, typename OnDevice>
T readModifyWrite(T* p, T v, M m, OnDevice onDevice) {
  if constexpr (isBlockMemory<M>)
    return atomicUpdate(
        p, [v](T c) { return Op::update(c, v); }, m);
  else
    return onDevice(std::atomic_ref<T>(*p));
}
// `Op`'s update as a compare-and-swap loop, wherever the element lies.
template <typename Op, typename T, typename M>
T updateLoop(T* p, T v, M m) {
  return atomicUpdate(
      p, [v](T c) { return Op::update(c, v); }, m);
}
} // namespace detail

// cuda.atomic.*: each returns the old value, in numba's element type. Integers wrap.
template <typename T, typename M = DeviceMemory>
T atomic_add(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite<atomic_op::Add>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.fetch_add(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_sub(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite<atomic_op::Sub>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.fetch_sub(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_and(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic and takes integers");
  return detail::readModifyWrite<atomic_op::And>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.fetch_and(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_or(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic or takes integers");
  return detail::readModifyWrite<atomic_op::Or>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.fetch_or(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_xor(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic xor takes integers");
  return detail::readModifyWrite<atomic_op::Xor>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.fetch_xor(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_exch(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite<atomic_op::Exch>(
      p, v, m, [v](std::atomic_ref<T> word) { return word.exchange(v); });
}
// Returns the old value; stores `desired` only if it equals `expected` (bitwise for floats).
template <typename T, typename M = DeviceMemory>
T atomic_cas(T* p, T expected, T desired, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  if constexpr (detail::isBlockMemory<M>) {
    return detail::atomicUpdate(
        p, [&](T c) { return std::memcmp(&c, &expected, sizeof(T)) == 0 ? desired : c; }, m);
  } else {
    std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
    return expected;
  }
}

template <typename T, typename M = DeviceMemory>
T atomic_fmax(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic fmax takes floats");
  return detail::updateLoop<atomic_op::Max>(p, v, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_fmin(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic fmin takes floats");
  return detail::updateLoop<atomic_op::Min>(p, v, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_nanmax(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic nanmax takes floats");
  return detail::updateLoop<atomic_op::Nanmax>(p, v, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_nanmin(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic nanmin takes floats");
  return detail::updateLoop<atomic_op::Nanmin>(p, v, m);
}
// Integer max/min (a float operand takes the fmax/fmin rules, as numba's max/min do).
template <typename T, typename M = DeviceMemory>
T atomic_max(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::updateLoop<atomic_op::Max>(p, v, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_min(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::updateLoop<atomic_op::Min>(p, v, m);
}

// inc/dec with CUDA's wrap: inc gives 0 once the old value reaches `limit`, dec gives `limit` at 0
// or above it (uint32 and uint64, as on the device).
template <typename M = DeviceMemory>
uint32 atomic_inc(uint32* p, uint32 limit, M m = {}) {
  return detail::atomicUpdate(
      p, [limit](uint32 current) { return current >= limit ? 0u : current + 1u; }, m);
}
template <typename M = DeviceMemory>
uint32 atomic_dec(uint32* p, uint32 limit, M m = {}) {
  return detail::atomicUpdate(
      p, [limit](uint32 current) { return current == 0 || current > limit ? limit : current - 1u; },
      m);
}
template <typename M = DeviceMemory>
uint64 atomic_inc(uint64* p, uint64 limit, M m = {}) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current >= limit ? 0ULL : current + 1; }, m);
}
template <typename M = DeviceMemory>
uint64 atomic_dec(uint64* p, uint64 limit, M m = {}) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current == 0 || current > limit ? limit : current - 1; },
      m);
}

} // namespace pyk
