// libdevice_rounding.h: numba.cuda.libdevice's arithmetic in a chosen IEEE rounding mode
// (dadd_rd, fmul_rz, fma_ru, fsqrt_rd, drcp_rn, ...) and its conversions between integers and
// floats (float2int_rn, ull2float_rd, double2float_ru, float2half_rn, ...) on the host, as
// libdevice computes them (the PTX add.rm, cvt.rpi.s32.f32, ... under libdevice.10.bc): the rounded
// operations in the host's own rounding modes (fesetround), float-to-integer conversions rounded
// first and then saturated as PTX cvt saturates (NaN gives 0).
#pragma once

#include <cfenv>
#include <cmath>
#include <cstring>

#include "../common/scalar_types.h"

namespace pyk::libdevice {

namespace detail {

// Keeps the compiler from moving arithmetic on `v` across a change of rounding mode, or from
// folding it: the value goes through memory an opaque statement may have changed.
template <typename T>
inline void opaque(T& v) {
  asm volatile("" : "+m"(v) : : "memory");
}

// op() computed in the IEEE rounding `mode` (FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO,
// FE_TONEAREST); op must read its operands through opaque() first.
template <typename Op>
inline auto inRounding(int mode, Op op) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  auto result = op();
  opaque(result);
  std::fesetround(saved);
  return result;
}

template <typename F>
inline F add(F a, F b, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    opaque(b);
    return F(a + b);
  });
}
template <typename F>
inline F sub(F a, F b, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    opaque(b);
    return F(a - b);
  });
}
template <typename F>
inline F mul(F a, F b, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    opaque(b);
    return F(a * b);
  });
}
template <typename F>
inline F div(F a, F b, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    opaque(b);
    return F(a / b);
  });
}
template <typename F>
inline F fma(F a, F b, F c, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    opaque(b);
    opaque(c);
    return F(std::fma(a, b, c));
  });
}
template <typename F>
inline F sqrt(F a, int mode) {
  return inRounding(mode, [&] {
    opaque(a);
    return F(std::sqrt(a));
  });
}
// A conversion of `value` to To in the rounding `mode` (integer to float, double to float).
template <typename To, typename From>
inline To convert(From value, int mode) {
  return inRounding(mode, [&] {
    opaque(value);
    return static_cast<To>(value);
  });
}

// x rounded to an integral value the way PTX's cvt.rni/rmi/rpi/rzi rounds (nearest even, down,
// up, toward zero).
template <typename F>
inline F integral(F x, int mode) {
  switch (mode) {
  case FE_DOWNWARD:
    return std::floor(x);
  case FE_UPWARD:
    return std::ceil(x);
  case FE_TOWARDZERO:
    return std::trunc(x);
  default:
    return std::nearbyint(x); // the default environment: to nearest, ties to even
  }
}
// float to integer: rounded in `mode`, then saturated (NaN gives 0), as PTX cvt converts.
template <typename T, typename F>
inline T toInteger(F x, int mode) {
  return pyk::detail::floatToIntSaturating<T>(integral(x, mode));
}

} // namespace detail

// ---- float64 arithmetic in a rounding mode (PTX add/mul/div/rcp/sqrt/fma.rn|rz|rm|rp.f64)
// --------
#define PYK_LIBDEVICE_ROUNDED(suffix, mode)                                                        \
  inline float64 dadd_##suffix(float64 x, float64 y) {                                             \
    return detail::add(x, y, mode);                                                                \
  }                                                                                                \
  inline float64 dmul_##suffix(float64 x, float64 y) {                                             \
    return detail::mul(x, y, mode);                                                                \
  }                                                                                                \
  inline float64 ddiv_##suffix(float64 x, float64 y) {                                             \
    return detail::div(x, y, mode);                                                                \
  }                                                                                                \
  inline float64 drcp_##suffix(float64 x) {                                                        \
    return detail::div(1.0, x, mode);                                                              \
  }                                                                                                \
  inline float64 dsqrt_##suffix(float64 x) {                                                       \
    return detail::sqrt(x, mode);                                                                  \
  }                                                                                                \
  inline float64 fma_##suffix(float64 x, float64 y, float64 z) {                                   \
    return detail::fma(x, y, z, mode);                                                             \
  }                                                                                                \
  inline float32 fadd_##suffix(float32 x, float32 y) {                                             \
    return detail::add(x, y, mode);                                                                \
  }                                                                                                \
  inline float32 fsub_##suffix(float32 x, float32 y) {                                             \
    return detail::sub(x, y, mode);                                                                \
  }                                                                                                \
  inline float32 fmul_##suffix(float32 x, float32 y) {                                             \
    return detail::mul(x, y, mode);                                                                \
  }                                                                                                \
  inline float32 fdiv_##suffix(float32 x, float32 y) {                                             \
    return detail::div(x, y, mode);                                                                \
  }                                                                                                \
  inline float32 frcp_##suffix(float32 x) {                                                        \
    return detail::div(1.0f, x, mode);                                                             \
  }                                                                                                \
  inline float32 fsqrt_##suffix(float32 x) {                                                       \
    return detail::sqrt(x, mode);                                                                  \
  }                                                                                                \
  inline float32 fmaf_##suffix(float32 x, float32 y, float32 z) {                                  \
    return detail::fma(x, y, z, mode);                                                             \
  }                                                                                                \
  /* float to integer, rounded in the mode, saturated */                                           \
  inline int32 float2int_##suffix(float32 x) {                                                     \
    return detail::toInteger<int32>(x, mode);                                                      \
  }                                                                                                \
  inline int32 float2uint_##suffix(float32 x) {                                                    \
    return static_cast<int32>(detail::toInteger<uint32>(x, mode));                                 \
  }                                                                                                \
  inline int64 float2ll_##suffix(float32 x) {                                                      \
    return detail::toInteger<int64>(x, mode);                                                      \
  }                                                                                                \
  inline int64 float2ull_##suffix(float32 x) {                                                     \
    return static_cast<int64>(detail::toInteger<uint64>(x, mode));                                 \
  }                                                                                                \
  inline int32 double2int_##suffix(float64 x) {                                                    \
    return detail::toInteger<int32>(x, mode);                                                      \
  }                                                                                                \
  inline int32 double2uint_##suffix(float64 x) {                                                   \
    return static_cast<int32>(detail::toInteger<uint32>(x, mode));                                 \
  }                                                                                                \
  inline int64 double2ll_##suffix(float64 x) {                                                     \
    return detail::toInteger<int64>(x, mode);                                                      \
  }                                                                                                \
  inline int64 double2ull_##suffix(float64 x) {                                                    \
    return static_cast<int64>(detail::toInteger<uint64>(x, mode));                                 \
  }                                                                                                \
  /* integer (unsigned ones as numba passes them, in signed types) and double to float */          \
  inline float32 double2float_##suffix(float64 x) {                                                \
    return detail::convert<float32>(x, mode);                                                      \
  }                                                                                                \
  inline float32 int2float_##suffix(int32 x) {                                                     \
    return detail::convert<float32>(x, mode);                                                      \
  }                                                                                                \
  inline float32 uint2float_##suffix(int32 x) {                                                    \
    return detail::convert<float32>(static_cast<uint32>(x), mode);                                 \
  }                                                                                                \
  inline float32 ll2float_##suffix(int64 x) {                                                      \
    return detail::convert<float32>(x, mode);                                                      \
  }                                                                                                \
  inline float32 ull2float_##suffix(int64 x) {                                                     \
    return detail::convert<float32>(static_cast<uint64>(x), mode);                                 \
  }                                                                                                \
  inline float64 ll2double_##suffix(int64 x) {                                                     \
    return detail::convert<float64>(x, mode);                                                      \
  }                                                                                                \
  inline float64 ull2double_##suffix(int64 x) {                                                    \
    return detail::convert<float64>(static_cast<uint64>(x), mode);                                 \
  }

PYK_LIBDEVICE_ROUNDED(rn, FE_TONEAREST)
PYK_LIBDEVICE_ROUNDED(rz, FE_TOWARDZERO)
PYK_LIBDEVICE_ROUNDED(rd, FE_DOWNWARD)
PYK_LIBDEVICE_ROUNDED(ru, FE_UPWARD)
#undef PYK_LIBDEVICE_ROUNDED

// The round-to-nearest forms libdevice names without a mode, and the exact conversions.
inline float64 fma(float64 x, float64 y, float64 z) {
  return std::fma(x, y, z);
}
inline float32 fmaf(float32 x, float32 y, float32 z) {
  return std::fma(x, y, z);
}
inline float64 int2double_rn(int32 x) {
  return static_cast<float64>(x);
}
inline float64 uint2double_rn(int32 x) {
  return static_cast<float64>(static_cast<uint32>(x));
}
// float and double to int64, rounded to nearest even / half away from zero (llrint, llround).
inline int64 llrint(float64 x) {
  return detail::toInteger<int64>(x, FE_TONEAREST);
}
inline int64 llrintf(float32 x) {
  return detail::toInteger<int64>(x, FE_TONEAREST);
}

// ---- float16 bits (numba's int16)
// ----------------------------------------------------------------

// float to IEEE binary16 bits, rounded to nearest even (PTX cvt.rn.f16.f32): overflow to
// infinity, subnormal halves, NaN to the canonical 0x7fff.
inline int16 float2half_rn(float32 x) {
  uint32 bits;
  std::memcpy(&bits, &x, sizeof bits);
  const uint32 sign = (bits >> 16) & 0x8000u;
  const uint32 magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u)
    return static_cast<int16>(0x7fff);
  if (magnitude >= 0x477ff000u) // rounds to 65520 or more: infinity
    return static_cast<int16>(sign | 0x7c00u);
  uint32 half;
  if (magnitude >= 0x38800000u) { // a normal half: rebias the exponent, round 13 bits away
    const uint32 shifted = magnitude - 0x38000000u;
    half = shifted >> 13;
    const uint32 rest = shifted & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
      ++half;
  } else if (magnitude >= 0x33000000u) { // a subnormal half (or the smallest one, rounded up)
    const uint32 exponent = magnitude >> 23;
    const uint32 mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    const uint32 shift = 126u - exponent; // 14 to 24: the value is mantissa * 2^-(24 + shift)
    half = mantissa >> shift;
    const uint32 rest = mantissa & ((1u << shift) - 1u);
    const uint32 halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half;
  } else {
    half = 0; // below half the smallest subnormal: zero
  }
  return static_cast<int16>(sign | half);
}

// IEEE binary16 bits to float, exactly.
inline float32 half2float(int16 h) {
  const uint32 bits = static_cast<uint16>(h);
  const uint32 sign = (bits & 0x8000u) << 16;
  const uint32 exponent = (bits >> 10) & 0x1fu;
  const uint32 mantissa = bits & 0x3ffu;
  uint32 out;
  if (exponent == 0x1fu) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    out = sign;
  } else { // subnormal: normalize
    uint32 m = mantissa;
    int32 e = -1;
    while ((m & 0x400u) == 0) {
      m <<= 1;
      ++e;
    }
    out = sign | (static_cast<uint32>(112 - e) << 23) | ((m & 0x3ffu) << 13);
  }
  float32 f;
  std::memcpy(&f, &out, sizeof f);
  return f;
}

} // namespace pyk::libdevice
