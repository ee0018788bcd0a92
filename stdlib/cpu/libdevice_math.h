// libdevice_math.h: numba.cuda.libdevice's floating-point functions on the host: the C library's
// functions in the argument's precision (sinf, atan2, lgamma, jn, ...), and libdevice's own rules
// where the C library has none or differs (classification as int 0/1, ilogb of 0 and NaN,
// frexp and modf of infinities, fmax/fmin of NaNs, fdim, round via an add toward zero, powi by
// squaring). The transcendental functions agree with libdevice to its error bounds (a few units
// in the last place), not bit for bit; the fast_ approximations (PTX sin.approx, ex2.approx) are
// computed accurately. The functions the C library lacks (sinpi, erfinv, erfcx, normcdfinv, ...)
// are in libdevice_special.h.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstring>

#include "../common/scalar_types.h"
#include "libdevice_rounding.h"

namespace pyk::libdevice {

// ---- the C library's functions, as libdevice names them
// --------------------------------------------
#define PYK_LIBDEVICE_UNARY(name, function)                                                        \
  inline float64 name(float64 x) {                                                                 \
    return std::function(x);                                                                       \
  }                                                                                                \
  inline float32 name##f(float32 x) {                                                              \
    return std::function(x);                                                                       \
  }
PYK_LIBDEVICE_UNARY(acos, acos)
PYK_LIBDEVICE_UNARY(acosh, acosh)
PYK_LIBDEVICE_UNARY(asin, asin)
PYK_LIBDEVICE_UNARY(asinh, asinh)
PYK_LIBDEVICE_UNARY(atan, atan)
PYK_LIBDEVICE_UNARY(atanh, atanh)
PYK_LIBDEVICE_UNARY(cbrt, cbrt)
PYK_LIBDEVICE_UNARY(ceil, ceil)
PYK_LIBDEVICE_UNARY(cos, cos)
PYK_LIBDEVICE_UNARY(cosh, cosh)
PYK_LIBDEVICE_UNARY(erf, erf)
PYK_LIBDEVICE_UNARY(erfc, erfc)
PYK_LIBDEVICE_UNARY(exp, exp)
PYK_LIBDEVICE_UNARY(exp2, exp2)
PYK_LIBDEVICE_UNARY(expm1, expm1)
PYK_LIBDEVICE_UNARY(fabs, fabs)
PYK_LIBDEVICE_UNARY(floor, floor)
PYK_LIBDEVICE_UNARY(log, log)
PYK_LIBDEVICE_UNARY(log10, log10)
PYK_LIBDEVICE_UNARY(log1p, log1p)
PYK_LIBDEVICE_UNARY(log2, log2)
PYK_LIBDEVICE_UNARY(logb, logb)
PYK_LIBDEVICE_UNARY(nearbyint, nearbyint)
PYK_LIBDEVICE_UNARY(rint, rint)
PYK_LIBDEVICE_UNARY(sin, sin)
PYK_LIBDEVICE_UNARY(sinh, sinh)
PYK_LIBDEVICE_UNARY(sqrt, sqrt)
PYK_LIBDEVICE_UNARY(tan, tan)
PYK_LIBDEVICE_UNARY(tanh, tanh)
PYK_LIBDEVICE_UNARY(tgamma, tgamma)
PYK_LIBDEVICE_UNARY(trunc, trunc)
#undef PYK_LIBDEVICE_UNARY

#define PYK_LIBDEVICE_BINARY(name, function)                                                       \
  inline float64 name(float64 x, float64 y) {                                                      \
    return std::function(x, y);                                                                    \
  }                                                                                                \
  inline float32 name##f(float32 x, float32 y) {                                                   \
    return std::function(x, y);                                                                    \
  }
PYK_LIBDEVICE_BINARY(atan2, atan2)
PYK_LIBDEVICE_BINARY(copysign, copysign)
PYK_LIBDEVICE_BINARY(fmod, fmod)
PYK_LIBDEVICE_BINARY(hypot, hypot)
PYK_LIBDEVICE_BINARY(nextafter, nextafter)
PYK_LIBDEVICE_BINARY(pow, pow)
PYK_LIBDEVICE_BINARY(remainder, remainder)
#undef PYK_LIBDEVICE_BINARY

inline float64 exp10(float64 x) {
  return ::exp10(x);
}
inline float32 exp10f(float32 x) {
  return ::exp10f(x);
}
inline float64 ldexp(float64 x, int32 n) {
  return std::ldexp(x, n);
}
inline float32 ldexpf(float32 x, int32 n) {
  return std::ldexp(x, n);
}
inline float64 scalbn(float64 x, int32 n) {
  return std::scalbn(x, n);
}
inline float32 scalbnf(float32 x, int32 n) {
  return std::scalbn(x, n);
}
// lgamma without the C library's global sign (signgam) that threads would race on.
inline float64 lgamma(float64 x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}
inline float32 lgammaf(float32 x) {
  int sign = 0;
  return ::lgammaf_r(x, &sign);
}
// Bessel functions of the first and second kinds (jn, yn take the order first).
inline float64 j0(float64 x) {
  return ::j0(x);
}
inline float32 j0f(float32 x) {
  return ::j0f(x);
}
inline float64 j1(float64 x) {
  return ::j1(x);
}
inline float32 j1f(float32 x) {
  return ::j1f(x);
}
inline float64 jn(int32 n, float64 x) {
  return ::jn(n, x);
}
inline float32 jnf(int32 n, float32 x) {
  return ::jnf(n, x);
}
inline float64 y0(float64 x) {
  return ::y0(x);
}
inline float32 y0f(float32 x) {
  return ::y0f(x);
}
inline float64 y1(float64 x) {
  return ::y1(x);
}
inline float32 y1f(float32 x) {
  return ::y1f(x);
}
inline float64 yn(int32 n, float64 x) {
  return ::yn(n, x);
}
inline float32 ynf(int32 n, float32 x) {
  return ::ynf(n, x);
}

// ---- classification: int 1 or 0
// ---------------------------------------------------------------------
inline int32 isinfd(float64 x) {
  return std::isinf(x) ? 1 : 0;
}
inline int32 isinff(float32 x) {
  return std::isinf(x) ? 1 : 0;
}
inline int32 isnand(float64 x) {
  return std::isnan(x) ? 1 : 0;
}
inline int32 isnanf(float32 x) {
  return std::isnan(x) ? 1 : 0;
}
inline int32 isfinited(float64 x) {
  return std::isfinite(x) ? 1 : 0;
}
inline int32 finitef(float32 x) {
  return std::isfinite(x) ? 1 : 0;
}
inline int32 signbitd(float64 x) {
  return std::signbit(x) ? 1 : 0;
}
inline int32 signbitf(float32 x) {
  return std::signbit(x) ? 1 : 0;
}

// ---- libdevice's own rules
// ----------------------------------------------------------------------------

// ilogb: the unbiased exponent; INT_MIN for 0 and NaN, INT_MAX for infinities.
template <typename F>
inline int32 ilogbOf(F x) {
  if (std::isnan(x) || x == 0)
    return pyk::detail::signedMin<int32>();
  if (std::isinf(x))
    return 2147483647;
  return std::ilogb(x);
}
inline int32 ilogb(float64 x) {
  return ilogbOf(x);
}
inline int32 ilogbf(float32 x) {
  return ilogbOf(x);
}

// frexp: 0, infinities and NaN come back as they are (x + x) with exponent 0.
template <typename F>
inline F frexpOf(F x, int32* exponent) {
  if (x == 0 || !std::isfinite(x)) {
    *exponent = 0;
    return x + x;
  }
  int e = 0;
  const F m = std::frexp(x, &e);
  *exponent = e;
  return m;
}
inline float64 frexp(float64 x, int32* exponent) {
  return frexpOf(x, exponent);
}
inline float32 frexpf(float32 x, int32* exponent) {
  return frexpOf(x, exponent);
}

// modf: the integral part through the pointer; the fraction, a zero of x's sign when x is
// integral (infinities included).
template <typename F>
inline F modfOf(F x, F* integral) {
  const F whole = std::trunc(x);
  *integral = whole;
  return x == whole ? std::copysign(F(0), x) : x - whole;
}
inline float64 modf(float64 x, float64* integral) {
  return modfOf(x, integral);
}
inline float32 modff(float32 x, float32* integral) {
  return modfOf(x, integral);
}

// remquo: the remainder, and the low three bits of the quotient with its sign (the C library
// may give a quotient congruent to them modulo 8, such as 8 for 0).
inline int32 lowQuotientBits(int q) {
  return q < 0 ? -((-q) & 7) : (q & 7);
}
inline float64 remquo(float64 x, float64 y, int32* quotient) {
  int q = 0;
  const float64 r = std::remquo(x, y, &q);
  *quotient = lowQuotientBits(q);
  return r;
}
inline float32 remquof(float32 x, float32 y, int32* quotient) {
  int q = 0;
  const float32 r = std::remquo(x, y, &q);
  *quotient = lowQuotientBits(q);
  return r;
}

// sincos: both through pointers.
inline void sincos(float64 x, float64* s, float64* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline void sincosf(float32 x, float32* s, float32* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}

// fmax, fmin (PTX max/min): a NaN operand gives the other one; +0 is above -0.
template <typename F>
inline F fmaxOf(F x, F y) {
  if (std::isnan(x))
    return y;
  if (std::isnan(y))
    return x;
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
template <typename F>
inline F fminOf(F x, F y) {
  if (std::isnan(x))
    return y;
  if (std::isnan(y))
    return x;
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
inline float64 fmax(float64 x, float64 y) {
  return fmaxOf(x, y);
}
inline float32 fmaxf(float32 x, float32 y) {
  return fmaxOf(x, y);
}
inline float64 fmin(float64 x, float64 y) {
  return fminOf(x, y);
}
inline float32 fminf(float32 x, float32 y) {
  return fminOf(x, y);
}

// fdim: x - y, or +0 where x <= y (a NaN gives the difference, NaN).
inline float64 fdim(float64 x, float64 y) {
  return x <= y ? 0.0 : x - y;
}
inline float32 fdimf(float32 x, float32 y) {
  return x <= y ? 0.0f : x - y;
}

// round, llround: half away from zero as libdevice computes it, trunc(x + copysign(0.5, x)) with
// the addition rounded toward zero; llround saturates as the GPU's conversion does.
inline float64 round(float64 x) {
  return std::trunc(detail::add(x, std::copysign(0.5, x), FE_TOWARDZERO));
}
inline float32 roundf(float32 x) {
  return std::trunc(detail::add(x, std::copysign(0.5f, x), FE_TOWARDZERO));
}
inline int64 llround(float64 x) {
  return pyk::detail::floatToIntSaturating<int64>(round(x));
}
inline int64 llroundf(float32 x) {
  return pyk::detail::floatToIntSaturating<int64>(roundf(x));
}

// saturatef: clamped to [0, 1], NaN to 0.
inline float32 saturatef(float32 x) {
  if (!(x > 0.0f))
    return 0.0f;
  return x < 1.0f ? x : 1.0f;
}

// powi: x to an int32 power by squaring, a negative power as the reciprocal of the positive one.
template <typename F>
inline F powiOf(F x, int32 n) {
  uint32 e = n >= 0 ? static_cast<uint32>(n) : 0u - static_cast<uint32>(n);
  F result = 1;
  F base = x;
  for (;;) {
    if (e & 1u)
      result *= base;
    e >>= 1;
    if (e == 0)
      break;
    base *= base;
  }
  return n < 0 ? F(1) / result : result;
}
inline float64 powi(float64 x, int32 n) {
  return powiOf(x, n);
}
inline float32 powif(float32 x, int32 n) {
  return powiOf(x, n);
}

// ---- the fast_ approximations, computed accurately
// ---------------------------------------------------
inline float32 fast_sinf(float32 x) {
  return std::sin(x);
}
inline float32 fast_cosf(float32 x) {
  return std::cos(x);
}
inline float32 fast_tanf(float32 x) {
  return std::tan(x);
}
inline void fast_sincosf(float32 x, float32* s, float32* c) {
  sincosf(x, s, c);
}
inline float32 fast_expf(float32 x) {
  return std::exp(x);
}
inline float32 fast_exp10f(float32 x) {
  return ::exp10f(x);
}
inline float32 fast_logf(float32 x) {
  return std::log(x);
}
inline float32 fast_log2f(float32 x) {
  return std::log2(x);
}
inline float32 fast_log10f(float32 x) {
  return std::log10(x);
}
inline float32 fast_powf(float32 x, float32 y) {
  return std::pow(x, y);
}
inline float32 fast_fdividef(float32 x, float32 y) {
  return x / y;
}

} // namespace pyk::libdevice
