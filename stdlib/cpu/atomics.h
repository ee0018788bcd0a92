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
// `update` of the old value on the block's memory; elsewhere `onDevice` of the word, one of
// std::atomic_ref's own read-modify-writes (a single instruction, no compare-and-swap loop).
template <typename T, typename M, typename Update, typename OnDevice>
T readModifyWrite(T* p, M m, Update update, OnDevice onDevice) {
  if constexpr (isBlockMemory<M>)
    return atomicUpdate(p, update, m);
  else
    return onDevice(std::atomic_ref<T>(*p));
}
} // namespace detail

// cuda.atomic.*: each returns the old value, in numba's element type. Integers wrap.
template <typename T, typename M = DeviceMemory>
T atomic_add(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite(
      p, m, [v](T c) { return detail::wrappingSum(c, v, false); },
      [v](std::atomic_ref<T> word) { return word.fetch_add(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_sub(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite(
      p, m, [v](T c) { return detail::wrappingSum(c, v, true); },
      [v](std::atomic_ref<T> word) { return word.fetch_sub(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_and(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic and takes integers");
  return detail::readModifyWrite(
      p, m, [v](T c) { return static_cast<T>(c & v); },
      [v](std::atomic_ref<T> word) { return word.fetch_and(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_or(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic or takes integers");
  return detail::readModifyWrite(
      p, m, [v](T c) { return static_cast<T>(c | v); },
      [v](std::atomic_ref<T> word) { return word.fetch_or(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_xor(T* p, T v, M m = {}) {
  static_assert(detail::isInteger<T>, "atomic xor takes integers");
  return detail::readModifyWrite(
      p, m, [v](T c) { return static_cast<T>(c ^ v); },
      [v](std::atomic_ref<T> word) { return word.fetch_xor(v); });
}
template <typename T, typename M = DeviceMemory>
T atomic_exch(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  return detail::readModifyWrite(
      p, m, [v](T) { return v; }, [v](std::atomic_ref<T> word) { return word.exchange(v); });
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

// Float max/min with numba's NaN rules (cuda/atomics.h's CAS loops): max/min keep a NaN in memory
// and ignore a NaN operand (a comparison with NaN is false); nanmax/nanmin treat NaN as missing on
// either side.
template <typename T, typename M = DeviceMemory>
T atomic_fmax(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic fmax takes floats");
  return detail::atomicUpdate(
      p, [v](T current) { return current < v ? v : current; }, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_fmin(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic fmin takes floats");
  return detail::atomicUpdate(
      p, [v](T current) { return v < current ? v : current; }, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_nanmax(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic nanmax takes floats");
  return detail::atomicUpdate(
      p,
      [v](T current) {
        return current != current || current < v ? (v != v ? current : v) : current;
      },
      m);
}
template <typename T, typename M = DeviceMemory>
T atomic_nanmin(T* p, T v, M m = {}) {
  static_assert(detail::isFloat<T>, "atomic nanmin takes floats");
  return detail::atomicUpdate(
      p,
      [v](T current) {
        return current != current || v < current ? (v != v ? current : v) : current;
      },
      m);
}
// Integer max/min (a float operand takes the fmax/fmin rules, as numba's max/min do).
template <typename T, typename M = DeviceMemory>
T atomic_max(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  if constexpr (detail::isFloat<T>)
    return atomic_fmax(p, v, m);
  else
    return detail::atomicUpdate(
        p, [v](T current) { return current < v ? v : current; }, m);
}
template <typename T, typename M = DeviceMemory>
T atomic_min(T* p, T v, M m = {}) {
  static_assert(detail::isAtomicOperand<T>, "atomics take 32- and 64-bit integers and floats");
  if constexpr (detail::isFloat<T>)
    return atomic_fmin(p, v, m);
  else
    return detail::atomicUpdate(
        p, [v](T current) { return v < current ? v : current; }, m);
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
