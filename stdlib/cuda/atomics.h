// atomics.h: cuda.atomic.* on the device, in numba's element types and with its NaN rules.
// Device code only: empty on the host, where the CPU backend's are cpu/atomics.h's.
#pragma once

#include "../common/scalar_types.h"

#if PYK_CUDA

namespace pyk {

namespace detail {
// CUDA's 64-bit integer atomics take unsigned long long; numba's element type is kept outside.
template <typename T>
__device__ auto* atomicWord(T* p) {
  if constexpr (sizeof(T) == 8 && isInteger<T>)
    return reinterpret_cast<unsigned long long*>(p);
  else
    return p;
}
template <typename T>
__device__ auto atomicValue(T v) {
  if constexpr (sizeof(T) == 8 && isInteger<T>)
    return static_cast<unsigned long long>(v);
  else
    return v;
}
} // namespace detail

// cuda.atomic.*: each returns the old value, in numba's element type.
template <typename T>
__device__ T atomic_add(T* p, T v) {
  return static_cast<T>(atomicAdd(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_sub(T* p, T v) {
  if constexpr (detail::isFloat<T> || sizeof(T) == 8)
    return static_cast<T>(
        atomicAdd(detail::atomicWord(p), detail::atomicValue(static_cast<T>(-v))));
  else
    return static_cast<T>(atomicSub(p, v));
}
template <typename T>
__device__ T atomic_max(T* p, T v) {
  if constexpr (sizeof(T) == 8 && detail::isSignedInteger<T>)
    return static_cast<T>(atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
  else
    return static_cast<T>(atomicMax(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_min(T* p, T v) {
  if constexpr (sizeof(T) == 8 && detail::isSignedInteger<T>)
    return static_cast<T>(atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
  else
    return static_cast<T>(atomicMin(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_and(T* p, T v) {
  return static_cast<T>(atomicAnd(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_or(T* p, T v) {
  return static_cast<T>(atomicOr(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_xor(T* p, T v) {
  return static_cast<T>(atomicXor(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_exch(T* p, T v) {
  return static_cast<T>(atomicExch(detail::atomicWord(p), detail::atomicValue(v)));
}
// inc/dec with CUDA's wrap: inc gives 0 once the old value reaches `limit`, dec gives `limit`
// at 0 or above it (uint32 only: CUDA has no 64-bit atomicInc/atomicDec).
__device__ inline uint32 atomic_inc(uint32* p, uint32 limit) {
  return atomicInc(p, limit);
}
__device__ inline uint32 atomic_dec(uint32* p, uint32 limit) {
  return atomicDec(p, limit);
}
// Float max/min and 64-bit inc/dec have no CUDA atomic: a compare-and-swap loop on the bits,
// with numba's NaN rules. max/min: NaN in memory stays, a NaN operand leaves memory unchanged
// (a comparison with NaN is false); nanmax/nanmin treat NaN as missing on either side.
namespace detail {
template <int Bytes>
struct AtomicBits;
template <>
struct AtomicBits<4> {
  using type = unsigned int;
};
template <>
struct AtomicBits<8> {
  using type = unsigned long long;
};
template <typename T, typename Update>
__device__ T atomicUpdate(T* p, Update update) {
  using Bits = typename AtomicBits<sizeof(T)>::type;
  Bits* word = reinterpret_cast<Bits*>(p);
  Bits old = *word, assumed;
  do {
    assumed = old;
    T current;
    memcpy(&current, &assumed, sizeof(T));
    T next = update(current);
    Bits nextBits;
    memcpy(&nextBits, &next, sizeof(T));
    if (nextBits == assumed)
      break;
    old = atomicCAS(word, assumed, nextBits);
  } while (old != assumed);
  T result;
  memcpy(&result, &old, sizeof(T));
  return result;
}
} // namespace detail
template <typename T>
__device__ T atomic_fmax(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) { return current < v ? v : current; });
}
template <typename T>
__device__ T atomic_fmin(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) { return v < current ? v : current; });
}
template <typename T>
__device__ T atomic_nanmax(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || current < v ? (v != v ? current : v) : current;
  });
}
template <typename T>
__device__ T atomic_nanmin(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || v < current ? (v != v ? current : v) : current;
  });
}
__device__ inline uint64 atomic_inc(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current >= limit ? 0ULL : current + 1; });
}
__device__ inline uint64 atomic_dec(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current == 0 || current > limit ? limit : current - 1; });
}

template <typename T>
__device__ T atomic_cas(T* p, T expected, T desired) {
  return static_cast<T>(atomicCAS(detail::atomicWord(p), detail::atomicValue(expected),
                                  detail::atomicValue(desired)));
}

} // namespace pyk

#endif
