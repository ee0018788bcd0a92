// scalar_types.h: numba's scalar types (int8 ... uint64, float32, float64, boolean) and the
// integer rules the other parts build on: type traits, wrapping arithmetic, the GPU's saturating
// float-to-integer conversion.
#pragma once

#include "target_macros.h"

namespace pyk {

using int8 = signed char;
using int16 = short;
using int32 = int;
using int64 = long long;
using uint8 = unsigned char;
using uint16 = unsigned short;
using uint32 = unsigned int;
using uint64 = unsigned long long;
using intp = int64;
using uintp = uint64;
using float32 = float;
using float64 = double;
using boolean = bool;

static_assert(sizeof(int8) == 1 && sizeof(int16) == 2 && sizeof(int32) == 4 && sizeof(int64) == 8,
              "pyk needs 8/16/32/64-bit integers");
static_assert(sizeof(float32) == 4 && sizeof(float64) == 8, "pyk needs IEEE binary32/binary64");

// Python's float('nan') and float('inf') as constant expressions (NVRTC has no __builtin_nan,
// and no <limits> without include paths; both compilers have __builtin_bit_cast).
PYK_HD constexpr float64 nan64() {
  return __builtin_bit_cast(float64, 0x7ff8000000000000ULL);
}
PYK_HD constexpr float64 inf64() {
  return __builtin_bit_cast(float64, 0x7ff0000000000000ULL);
}

namespace detail {

// A few type traits, written out because NVRTC offers no <type_traits> without include paths.
template <typename T>
struct IntTraits {
  static constexpr bool isInteger = false;
};
#define PYK_INT_TRAITS(T, U, SIGNED, BITS)                                                         \
  template <>                                                                                      \
  struct IntTraits<T> {                                                                            \
    static constexpr bool isInteger = true;                                                        \
    static constexpr bool isSigned = SIGNED;                                                       \
    static constexpr int bits = BITS;                                                              \
    using Unsigned = U;                                                                            \
  };
PYK_INT_TRAITS(signed char, unsigned char, true, 8)
PYK_INT_TRAITS(short, unsigned short, true, 16)
PYK_INT_TRAITS(int, unsigned int, true, 32)
PYK_INT_TRAITS(long, unsigned long, true, 8 * sizeof(long))
PYK_INT_TRAITS(long long, unsigned long long, true, 64)
PYK_INT_TRAITS(unsigned char, unsigned char, false, 8)
PYK_INT_TRAITS(unsigned short, unsigned short, false, 16)
PYK_INT_TRAITS(unsigned int, unsigned int, false, 32)
PYK_INT_TRAITS(unsigned long, unsigned long, false, 8 * sizeof(long))
PYK_INT_TRAITS(unsigned long long, unsigned long long, false, 64)
#undef PYK_INT_TRAITS

template <typename T>
inline constexpr bool isInteger = IntTraits<T>::isInteger;
template <typename T>
inline constexpr bool isSignedInteger = IntTraits<T>::isInteger&& IntTraits<T>::isSigned;
template <typename T>
inline constexpr bool isFloat = false;
template <>
inline constexpr bool isFloat<float> = true;
template <>
inline constexpr bool isFloat<double> = true;
template <typename T>
inline constexpr bool isBool = false;
template <>
inline constexpr bool isBool<bool> = true;

// The smallest value of a signed integer type, -2**(bits-1).
template <typename T>
PYK_HD constexpr T signedMin() {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(U(1) << (IntTraits<T>::bits - 1)));
}

// Wrapping integer arithmetic (numba's add/sub/mul wrap; C++ signed overflow is undefined).
template <typename T>
PYK_HD constexpr T wrappingMul(T a, T b) {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <typename T>
PYK_HD constexpr T wrappingNeg(T a) {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a)));
}

template <typename F>
PYK_HD constexpr bool isInf(F x) {
  return x - x != x - x && x == x; // inf - inf is nan; nan itself is excluded
}

// Float to integer as the GPU converts (PTX cvt.rzi saturates, NaN gives 0). numba's fptosi /
// fptoui of an out-of-range value is undefined in LLVM; on the device it is this.
template <typename T, typename F>
PYK_HD constexpr T floatToIntSaturating(F x) {
  if (x != x)
    return 0;
  if constexpr (IntTraits<T>::isSigned) {
    const double lowest = -static_cast<double>(static_cast<typename IntTraits<T>::Unsigned>(1)
                                               << (IntTraits<T>::bits - 1));
    if (static_cast<double>(x) < lowest)
      return signedMin<T>();
    if (static_cast<double>(x) >= -lowest)
      return static_cast<T>(~static_cast<typename IntTraits<T>::Unsigned>(signedMin<T>()));
  } else {
    if (x <= F(0))
      return 0;
    const double limit = 2.0 * static_cast<double>(T(1) << (IntTraits<T>::bits - 1));
    if (static_cast<double>(x) >= limit)
      return static_cast<T>(~T(0));
  }
  return static_cast<T>(x);
}

} // namespace detail

} // namespace pyk
