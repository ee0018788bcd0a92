// libdevice_special.h: numba.cuda.libdevice's functions the C library does not have, on the host:
// sinpi, cospi, sincospi (exact at integers and half-integers), rsqrt, rcbrt, frsqrt_rn, erfcx,
// erfinv, erfcinv, normcdf, normcdfinv. Each is computed in float64 (float32 ones rounded once at
// the end) to within a few units in the last place of libdevice's results, not bit for bit.
#pragma once

#include <cmath>

#include "../common/scalar_types.h"

namespace pyk::libdevice {

namespace detail {

constexpr float64 kPi = 3.141592653589793238462643383279502884;
constexpr float64 kSqrtPi = 1.772453850905516027298167483341145183;
constexpr float64 kSqrt2 = 1.414213562373095048801688724209698079;

// sin(pi r) for r in [-1, 1], reduced to [-1/2, 1/2] by sin(pi (1 - r)) = sin(pi r).
inline float64 sinPiReduced(float64 r) {
  if (std::fabs(r) > 0.5)
    r = std::copysign(1.0, r) - r; // exact
  return std::sin(kPi * r);
}
// cos(pi r) for r in [0, 1]: cos near 0 and 1, sin(pi (1/2 - r)) around 1/2 (exact there).
inline float64 cosPiReduced(float64 r) {
  if (r <= 0.25)
    return std::cos(kPi * r);
  if (r < 0.75)
    return std::sin(kPi * (0.5 - r));
  return -std::cos(kPi * (1.0 - r));
}

inline float64 sinPi(float64 x) {
  if (!std::isfinite(x))
    return x - x; // NaN
  if (x == std::trunc(x))
    return std::copysign(0.0, x);
  float64 r = std::fmod(x, 2.0); // exact, in (-2, 2)
  if (r > 1.0)
    r -= 2.0;
  else if (r < -1.0)
    r += 2.0;
  return sinPiReduced(r);
}
inline float64 cosPi(float64 x) {
  if (!std::isfinite(x))
    return x - x;
  float64 r = std::fmod(std::fabs(x), 2.0); // exact, in [0, 2)
  if (r > 1.0)
    r = 2.0 - r;
  if (r == 0.5)
    return 0.0;
  return cosPiReduced(r);
}

// exp(x * x) with the rounding error of x * x carried (a fused multiply-add recovers it).
inline float64 expOfSquare(float64 x) {
  const float64 square = x * x;
  const float64 error = std::fma(x, x, -square);
  return std::exp(square) * (1.0 + error);
}

// erfcx(x) = exp(x^2) erfc(x): the product where erfc does not underflow, the asymptotic series
// 1 / (x sqrt(pi)) * sum (-1)^k (2k-1)!! / (2 x^2)^k beyond; 2 exp(x^2) - erfcx(-x) below 0.
inline float64 erfcx(float64 x) {
  if (std::isnan(x))
    return x;
  if (x < 0) {
    if (x < -26.7)
      return HUGE_VAL;
    return 2.0 * expOfSquare(x) - erfcx(-x);
  }
  if (x < 26.0)
    return expOfSquare(x) * std::erfc(x);
  if (std::isinf(x))
    return 0.0;
  const float64 q = 1.0 / (2.0 * x * x);
  float64 term = 1.0;
  float64 sum = 1.0;
  for (int k = 1; k <= 10; ++k) {
    term *= -(2 * k - 1) * q;
    sum += term;
  }
  return sum / x / kSqrtPi; // x sqrt(pi) would overflow for the largest x
}

// x with erf(x) = y for |y| <= 1/2: Newton's method from Giles' single-precision approximation.
inline float64 erfinvCentral(float64 y) {
  const float64 w = -std::log((1.0 - y) * (1.0 + y));
  const float64 t = w - 2.5;
  float64 x = y * (1.50140941 + t * (0.246640727 + t * (-0.00417768164 + t * (-0.00125372503))));
  for (int i = 0; i < 4; ++i)
    x -= (std::erf(x) - y) / (2.0 / kSqrtPi * std::exp(-x * x));
  return x;
}

// erfcinv(z): erfinvCentral(1 - z) for z in [1/2, 1] (1 - z is exact there), Newton's method on
// log(erfc(x)) = log(erfcx(x)) - x^2 = log(z) below (erfcx keeps it accurate where erfc(x) is
// subnormal; its derivative is -2 / (sqrt(pi) erfcx(x))) from the tail's asymptote, and
// -erfcinv(2 - z) for z in (1, 2).
inline float64 erfcinv(float64 z) {
  if (std::isnan(z) || z < 0 || z > 2)
    return NAN;
  if (z == 0)
    return HUGE_VAL;
  if (z == 2)
    return -HUGE_VAL;
  if (z > 1)
    return -erfcinv(2.0 - z); // 2 - z is exact for z in [1, 2]
  if (z >= 0.5)
    return erfinvCentral(1.0 - z);
  const float64 t = std::sqrt(-std::log(z));
  float64 x = t - (std::log(t) + 0.5723649429247001) / (2.0 * t);
  for (int i = 0; i < 8; ++i) {
    const float64 scaled = erfcx(x);
    const float64 step = (std::log(scaled) - x * x - std::log(z)) * (kSqrtPi / 2.0) * scaled;
    x += step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

// erfinv(y): erfinvCentral for |y| <= 1/2, erfcinv(1 - |y|) (exact) beyond.
inline float64 erfinv(float64 y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return NAN;
  if (y == 0)
    return y;
  if (std::fabs(y) > 0.5)
    return std::copysign(erfcinv(1.0 - std::fabs(y)), y);
  return erfinvCentral(y);
}

} // namespace detail

inline float64 sinpi(float64 x) {
  return detail::sinPi(x);
}
inline float32 sinpif(float32 x) {
  return static_cast<float32>(detail::sinPi(x));
}
inline float64 cospi(float64 x) {
  return detail::cosPi(x);
}
inline float32 cospif(float32 x) {
  return static_cast<float32>(detail::cosPi(x));
}
inline void sincospi(float64 x, float64* s, float64* c) {
  *s = detail::sinPi(x);
  *c = detail::cosPi(x);
}
inline void sincospif(float32 x, float32* s, float32* c) {
  *s = static_cast<float32>(detail::sinPi(x));
  *c = static_cast<float32>(detail::cosPi(x));
}

// Reciprocal roots: 1 / sqrt(x) (libdevice's rsqrt is PTX rsqrt.approx; frsqrt_rn the correctly
// rounded one), 1 / cbrt(x).
inline float64 rsqrt(float64 x) {
  return 1.0 / std::sqrt(x);
}
inline float32 rsqrtf(float32 x) {
  return static_cast<float32>(1.0 / std::sqrt(static_cast<float64>(x)));
}
inline float32 frsqrt_rn(float32 x) {
  return static_cast<float32>(1.0 / std::sqrt(static_cast<float64>(x)));
}
inline float64 rcbrt(float64 x) {
  return 1.0 / std::cbrt(x);
}
inline float32 rcbrtf(float32 x) {
  return static_cast<float32>(1.0 / std::cbrt(static_cast<float64>(x)));
}

inline float64 erfcx(float64 x) {
  return detail::erfcx(x);
}
inline float32 erfcxf(float32 x) {
  return static_cast<float32>(detail::erfcx(x));
}
inline float64 erfinv(float64 y) {
  return detail::erfinv(y);
}
inline float32 erfinvf(float32 y) {
  return static_cast<float32>(detail::erfinv(y));
}
inline float64 erfcinv(float64 z) {
  return detail::erfcinv(z);
}
inline float32 erfcinvf(float32 z) {
  return static_cast<float32>(detail::erfcinv(z));
}

// The standard normal distribution: normcdf(x) = erfc(-x / sqrt 2) / 2, normcdfinv(p) =
// -sqrt 2 erfcinv(2 p).
inline float64 normcdf(float64 x) {
  return 0.5 * std::erfc(-x / detail::kSqrt2);
}
inline float32 normcdff(float32 x) {
  return static_cast<float32>(normcdf(x));
}
inline float64 normcdfinv(float64 p) {
  return -detail::kSqrt2 * detail::erfcinv(2.0 * p);
}
inline float32 normcdfinvf(float32 p) {
  return static_cast<float32>(normcdfinv(p));
}

} // namespace pyk::libdevice
