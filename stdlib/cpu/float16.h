// float16.h (CPU): numba's float16 on the host: the type (compiler/base/Float16.h, the C++ API's
// pyk::float16, so a host's float16 arrays and scalars are what generated code reads), numba
// 0.56's casts to and from
// it and numba.cuda.fp16's functions, with the results of the PTX numba emits for them
// (cuda/float16.h): IEEE binary16, round to nearest even.
//
// The arithmetic is done in double and rounded once to binary16: a sum, difference or product of
// two float16 values is exact in a double, and a*b + c is rounded once (the exact product plus c)
// before its rounding to binary16, which cannot double-round: c's last place, at least 2**-24, is
// above half a double's last place of any result below float16's overflow.
#pragma once

#include <cmath>

#include "../../compiler/base/Float16.h"
#include "../common/scalar_types.h"

namespace pyk {

// numba's cast of a number to float16 (cvt.rn.f16.*): round to nearest even. An integer goes
// through double, exactly up to 2**53; anything larger is inf in float16 either way.
template <typename T>
inline float16 to_float16(T x) {
  return float16(x);
}
inline float16 to_float16(float16 x) {
  return x;
}

// numba 0.56's cast of a float16 to T: exact to float32 and float64; to an integer, cvt.rni:
// rounded to the nearest integer, ties to even (not truncated, as Python and later numba do),
// saturated; NaN gives 0, but 0x8000000000000000 for a 64-bit integer, as cvt.rni.s64.f16 and
// cvt.rni.u64.f16 gave on an H200 (2026-11-26); to boolean, whether it is non-zero.
template <typename T>
inline T from_float16(float16 h) {
  const double v = static_cast<double>(h);
  if constexpr (detail::isBool<T>) {
    return v != 0.0;
  } else if constexpr (detail::isInteger<T>) {
    if constexpr (detail::IntTraits<T>::bits == 64)
      if (v != v)
        return static_cast<T>(uint64{1} << 63);
    return detail::floatToIntSaturating<T>(__builtin_nearbyint(v)); // the default mode: to even
  } else {
    return static_cast<T>(v);
  }
}

// numba.cuda.fp16.
inline float16 hadd(float16 a, float16 b) {
  return float16(static_cast<double>(a) + static_cast<double>(b));
}
inline float16 hsub(float16 a, float16 b) {
  return float16(static_cast<double>(a) - static_cast<double>(b));
}
inline float16 hmul(float16 a, float16 b) {
  return float16(static_cast<double>(a) * static_cast<double>(b));
}
inline float16 hfma(float16 a, float16 b, float16 c) {
  return float16(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c));
}
// neg.f16 and abs.f16 change the sign bit alone.
inline float16 hneg(float16 a) {
  return float16::from_bits(static_cast<uint16>(a.bits() ^ 0x8000u));
}
inline float16 habs(float16 a) {
  return float16::from_bits(static_cast<uint16>(a.bits() & 0x7FFFu));
}
// setp.<op>.f16, the ordered comparisons: false when either side is NaN, hne included.
inline bool heq(float16 a, float16 b) {
  return static_cast<double>(a) == static_cast<double>(b);
}
inline bool hne(float16 a, float16 b) {
  return !a.is_nan() && !b.is_nan() && static_cast<double>(a) != static_cast<double>(b);
}
inline bool hgt(float16 a, float16 b) {
  return static_cast<double>(a) > static_cast<double>(b);
}
inline bool hge(float16 a, float16 b) {
  return static_cast<double>(a) >= static_cast<double>(b);
}
inline bool hlt(float16 a, float16 b) {
  return static_cast<double>(a) < static_cast<double>(b);
}
inline bool hle(float16 a, float16 b) {
  return static_cast<double>(a) <= static_cast<double>(b);
}
// numba-cuda's cuda.fp16 math, as cuda/float16.h computes it: the float32 function of the value,
// rounded to float16 once; hdiv the float32 quotient rounded to float16.
#define PYK_HALF_MATH(NAME, EXPR)                                                                  \
  inline float16 NAME(float16 h) {                                                                 \
    const float x = static_cast<float>(h);                                                         \
    return float16(static_cast<double>(EXPR));                                                     \
  }
PYK_HALF_MATH(hsin, sinf(x))
PYK_HALF_MATH(hcos, cosf(x))
PYK_HALF_MATH(hlog, logf(x))
PYK_HALF_MATH(hlog10, log10f(x))
PYK_HALF_MATH(hlog2, log2f(x))
PYK_HALF_MATH(hexp, expf(x))
PYK_HALF_MATH(hexp10, exp10f(x))
PYK_HALF_MATH(hexp2, exp2f(x))
PYK_HALF_MATH(hsqrt, sqrtf(x))
PYK_HALF_MATH(hrsqrt, 1.0f / sqrtf(x))
PYK_HALF_MATH(hfloor, floorf(x))
PYK_HALF_MATH(hceil, ceilf(x))
PYK_HALF_MATH(hrcp, 1.0f / x)
PYK_HALF_MATH(hrint, rintf(x))
PYK_HALF_MATH(htrunc, truncf(x))
#undef PYK_HALF_MATH
inline float16 hdiv(float16 a, float16 b) {
  return float16(static_cast<double>(static_cast<float>(a) / static_cast<float>(b)));
}
// hmax, hmin: numba selects a when a > b (a < b), else b; with a NaN, b.
inline float16 hmax(float16 a, float16 b) {
  return hgt(a, b) ? a : b;
}
inline float16 hmin(float16 a, float16 b) {
  return hlt(a, b) ? a : b;
}

} // namespace pyk
