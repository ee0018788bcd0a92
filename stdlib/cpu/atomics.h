// atomics.h: cuda.atomic.* on the host, on std::atomic_ref, with the names and semantics of
// cuda/atomics.h's device versions.
#pragma once

#include "../common/scalar_types.h"

#include <atomic>
#include <cstring>

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

// Float max/min with numba's NaN rules (cuda/atomics.h's CAS loops): max/min keep a NaN in memory
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
