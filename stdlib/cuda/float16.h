// float16.h: numba's float16 on the device: the type (2 bytes, as numba's i16 data model), numba
// 0.56's casts to and from it and numba.cuda.fp16's functions, each the PTX instruction numba's
// lowering emits (cudaimpl.py: cvt.rn.f16.*, cvt.rni.*.f16, add.f16, fma.rn.f16, setp.*.f16, ...).
// Inline PTX rather than cuda_fp16.h: NVRTC has no include path for the toolkit's headers, and
// these are the instructions numba's results come from. Device code only: empty on the host, where
// the CPU backend's float16 is cpu/float16.h's (the same names, the same results).
#pragma once

#include "../common/scalar_types.h"

#if PYK_CUDA

namespace pyk {

// An IEEE 754 binary16 value, kept as its bits (numba lowers float16 as an i16).
struct float16 {
  unsigned short bits_;
  static constexpr float16 from_bits(unsigned short bits) { return float16{bits}; }
  constexpr unsigned short bits() const { return bits_; }
};
static_assert(sizeof(float16) == 2 && alignof(float16) == 2, "float16 is 2 bytes");

namespace detail {
#define PYK_TO_HALF(NAME, T, PTX, CONSTRAINT)                                                      \
  __device__ inline float16 NAME(T x) {                                                            \
    unsigned short r;                                                                              \
    asm("cvt.rn.f16." PTX " %0, %1;" : "=h"(r) : CONSTRAINT(x));                                   \
    return float16{r};                                                                             \
  }
PYK_TO_HALF(halfFromS16, short, "s16", "h")
PYK_TO_HALF(halfFromU16, unsigned short, "u16", "h")
PYK_TO_HALF(halfFromS32, int, "s32", "r")
PYK_TO_HALF(halfFromU32, unsigned int, "u32", "r")
PYK_TO_HALF(halfFromS64, long long, "s64", "l")
PYK_TO_HALF(halfFromU64, unsigned long long, "u64", "l")
PYK_TO_HALF(halfFromF32, float, "f32", "f")
PYK_TO_HALF(halfFromF64, double, "f64", "d")
#undef PYK_TO_HALF
} // namespace detail

// numba's cast of a number to float16: round to nearest even, from the value's own type (one
// rounding, cvt.rn.f16.f64 straight from a double). 8-bit integers and booleans widen to 16 bits
// first (exact), as NVRTC's inline PTX has no 8-bit operand.
template <typename T>
__device__ inline float16 to_float16(T x) {
  if constexpr (detail::isBool<T>) {
    return detail::halfFromS16(static_cast<short>(x));
  } else if constexpr (detail::isInteger<T>) {
    constexpr int bits = detail::IntTraits<T>::bits;
    if constexpr (detail::IntTraits<T>::isSigned)
      return bits <= 16   ? detail::halfFromS16(static_cast<short>(x))
             : bits <= 32 ? detail::halfFromS32(static_cast<int>(x))
                          : detail::halfFromS64(static_cast<long long>(x));
    else
      return bits <= 16   ? detail::halfFromU16(static_cast<unsigned short>(x))
             : bits <= 32 ? detail::halfFromU32(static_cast<unsigned int>(x))
                          : detail::halfFromU64(static_cast<unsigned long long>(x));
  } else if constexpr (sizeof(T) == 4) {
    return detail::halfFromF32(x);
  } else {
    return detail::halfFromF64(x);
  }
}
__device__ inline float16 to_float16(float16 x) {
  return x;
}

namespace detail {
// cvt.rni.<int>.f16: to the nearest integer, ties to even, saturated to the type, NaN giving 0
// (0x8000000000000000 for s64 and u64: seen on an H200, 2026-11-26).
#define PYK_HALF_TO_INT(NAME, T, PTX, CONSTRAINT)                                                  \
  __device__ inline T NAME(float16 h) {                                                            \
    T r;                                                                                           \
    asm("cvt.rni." PTX ".f16 %0, %1;" : "=" CONSTRAINT(r) : "h"(h.bits_));                         \
    return r;                                                                                      \
  }
PYK_HALF_TO_INT(halfToS8, short, "s8", "h")
PYK_HALF_TO_INT(halfToU8, unsigned short, "u8", "h")
PYK_HALF_TO_INT(halfToS16, short, "s16", "h")
PYK_HALF_TO_INT(halfToU16, unsigned short, "u16", "h")
PYK_HALF_TO_INT(halfToS32, int, "s32", "r")
PYK_HALF_TO_INT(halfToU32, unsigned int, "u32", "r")
PYK_HALF_TO_INT(halfToS64, long long, "s64", "l")
PYK_HALF_TO_INT(halfToU64, unsigned long long, "u64", "l")
#undef PYK_HALF_TO_INT
} // namespace detail

// numba 0.56's cast of a float16 to T: exact to float32 and float64 (cvt.f32.f16, cvt.f64.f16); to
// an integer, cvt.rni: rounded to the nearest integer (not truncated, as Python and later numba
// do), saturated, NaN giving 0 (0x8000000000000000 for 64 bits); to boolean, whether it is
// non-zero.
template <typename T>
__device__ inline T from_float16(float16 h) {
  if constexpr (detail::isBool<T>) {
    return from_float16<float>(h) != 0.0f;
  } else if constexpr (detail::isInteger<T>) {
    constexpr int bits = detail::IntTraits<T>::bits;
    if constexpr (detail::IntTraits<T>::isSigned)
      return static_cast<T>(bits == 8    ? detail::halfToS8(h)
                            : bits == 16 ? detail::halfToS16(h)
                            : bits == 32 ? detail::halfToS32(h)
                                         : detail::halfToS64(h));
    else
      return static_cast<T>(bits == 8    ? detail::halfToU8(h)
                            : bits == 16 ? detail::halfToU16(h)
                            : bits == 32 ? detail::halfToU32(h)
                                         : detail::halfToU64(h));
  } else if constexpr (sizeof(T) == 4) {
    float r;
    asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h.bits_));
    return r;
  } else {
    double r;
    asm("cvt.f64.f16 %0, %1;" : "=d"(r) : "h"(h.bits_));
    return r;
  }
}

// numba.cuda.fp16: the PTX of numba 0.56's lowering, operand for operand.
#define PYK_HALF_BINARY(NAME, PTX)                                                                 \
  __device__ inline float16 NAME(float16 a, float16 b) {                                           \
    unsigned short r;                                                                              \
    asm(PTX " %0, %1, %2;" : "=h"(r) : "h"(a.bits_), "h"(b.bits_));                                \
    return float16{r};                                                                             \
  }
PYK_HALF_BINARY(hadd, "add.f16")
PYK_HALF_BINARY(hsub, "sub.f16")
PYK_HALF_BINARY(hmul, "mul.f16")
#undef PYK_HALF_BINARY

__device__ inline float16 hfma(float16 a, float16 b, float16 c) {
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.bits_), "h"(b.bits_), "h"(c.bits_));
  return float16{r};
}
__device__ inline float16 hneg(float16 a) {
  unsigned short r;
  asm("neg.f16 %0, %1;" : "=h"(r) : "h"(a.bits_));
  return float16{r};
}
__device__ inline float16 habs(float16 a) {
  unsigned short r;
  asm("abs.f16 %0, %1;" : "=h"(r) : "h"(a.bits_));
  return float16{r};
}

// numba-cuda's cuda.fp16 math (cuda_fp16.h's hsin ... htrunc, hdiv): the float32 function of the
// value, rounded to float16 once (cuda_fp16.h computes most of them so; its approximations of a few
// may differ in the last place).
#define PYK_HALF_MATH(NAME, EXPR)                                                                  \
  __device__ inline float16 NAME(float16 h) {                                                      \
    const float x = from_float16<float>(h);                                                        \
    return detail::halfFromF32(EXPR);                                                              \
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
PYK_HALF_MATH(hrsqrt, rsqrtf(x))
PYK_HALF_MATH(hfloor, floorf(x))
PYK_HALF_MATH(hceil, ceilf(x))
PYK_HALF_MATH(hrcp, 1.0f / x)
PYK_HALF_MATH(hrint, rintf(x))
PYK_HALF_MATH(htrunc, truncf(x))
#undef PYK_HALF_MATH
// a / b in float32 rounded to float16: correctly rounded (float32's 24 bits hold a quotient of two
// 11-bit values closely enough that the second rounding is innocuous).
__device__ inline float16 hdiv(float16 a, float16 b) {
  return detail::halfFromF32(from_float16<float>(a) / from_float16<float>(b));
}

// setp.<op>.f16, the ordered comparisons: false when either side is NaN, hne included.
#define PYK_HALF_COMPARE(NAME, OP)                                                                 \
  __device__ inline bool NAME(float16 a, float16 b) {                                              \
    unsigned short r;                                                                              \
    asm("{ .reg .pred p; setp." OP ".f16 p, %1, %2; selp.u16 %0, 1, 0, p; }"                       \
        : "=h"(r)                                                                                  \
        : "h"(a.bits_), "h"(b.bits_));                                                             \
    return r != 0;                                                                                 \
  }
PYK_HALF_COMPARE(heq, "eq")
PYK_HALF_COMPARE(hne, "ne")
PYK_HALF_COMPARE(hgt, "gt")
PYK_HALF_COMPARE(hge, "ge")
PYK_HALF_COMPARE(hlt, "lt")
PYK_HALF_COMPARE(hle, "le")
#undef PYK_HALF_COMPARE

// hmax, hmin: numba selects a when a > b (a < b), else b; with a NaN, b.
__device__ inline float16 hmax(float16 a, float16 b) {
  return hgt(a, b) ? a : b;
}
__device__ inline float16 hmin(float16 a, float16 b) {
  return hlt(a, b) ? a : b;
}

} // namespace pyk

#endif
