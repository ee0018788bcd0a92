// math_builtins.h: the C math functions per precision (fmodOf(float) is fmodf, fmodOf(double)
// fmod, ...), as the other parts call them: CUDA's device functions under NVRTC, <cmath> on the
// host.
#pragma once

#include "target_macros.h"

#if !PYK_CUDA
#include <cmath>
// Generated code calls the classification functions unqualified, as CUDA C++ spells them.
using std::isfinite;
using std::isinf;
using std::isnan;
#endif

namespace pyk {

namespace detail {

// The math builtins per precision: CUDA's device functions, <cmath> on the host.
#if PYK_CUDA
PYK_HD inline float fmodOf(float x, float y) {
  return ::fmodf(x, y);
}
PYK_HD inline double fmodOf(double x, double y) {
  return ::fmod(x, y);
}
PYK_HD inline float floorOf(float x) {
  return ::floorf(x);
}
PYK_HD inline double floorOf(double x) {
  return ::floor(x);
}
PYK_HD inline float rintOf(float x) {
  return ::rintf(x);
}
PYK_HD inline double rintOf(double x) {
  return ::rint(x);
}
PYK_HD inline float fabsOf(float x) {
  return ::fabsf(x);
}
PYK_HD inline double fabsOf(double x) {
  return ::fabs(x);
}
PYK_HD inline float powOf(float x, float y) {
  return ::powf(x, y);
}
PYK_HD inline double powOf(double x, double y) {
  return ::pow(x, y);
}
#else
inline float fmodOf(float x, float y) {
  return std::fmod(x, y);
}
inline double fmodOf(double x, double y) {
  return std::fmod(x, y);
}
inline float floorOf(float x) {
  return std::floor(x);
}
inline double floorOf(double x) {
  return std::floor(x);
}
inline float rintOf(float x) {
  return std::rint(x);
}
inline double rintOf(double x) {
  return std::rint(x);
}
inline float fabsOf(float x) {
  return std::fabs(x);
}
inline double fabsOf(double x) {
  return std::fabs(x);
}
inline float powOf(float x, float y) {
  return std::pow(x, y);
}
inline double powOf(double x, double y) {
  return std::pow(x, y);
}
#endif

// The functions complex_math.h builds cmath from, by their C names (NVRTC's device functions and
// <cmath>'s alike).
PYK_HD inline float hypotOf(float x, float y) {
  return hypotf(x, y);
}
PYK_HD inline double hypotOf(double x, double y) {
  return hypot(x, y);
}
PYK_HD inline float atan2Of(float y, float x) {
  return atan2f(y, x);
}
PYK_HD inline double atan2Of(double y, double x) {
  return atan2(y, x);
}
PYK_HD inline float expOf(float x) {
  return expf(x);
}
PYK_HD inline double expOf(double x) {
  return exp(x);
}
PYK_HD inline float logOf(float x) {
  return logf(x);
}
PYK_HD inline double logOf(double x) {
  return log(x);
}
PYK_HD inline float sqrtOf(float x) {
  return sqrtf(x);
}
PYK_HD inline double sqrtOf(double x) {
  return sqrt(x);
}
PYK_HD inline float sinOf(float x) {
  return sinf(x);
}
PYK_HD inline double sinOf(double x) {
  return sin(x);
}
PYK_HD inline float cosOf(float x) {
  return cosf(x);
}
PYK_HD inline double cosOf(double x) {
  return cos(x);
}
PYK_HD inline float sinhOf(float x) {
  return sinhf(x);
}
PYK_HD inline double sinhOf(double x) {
  return sinh(x);
}
PYK_HD inline float coshOf(float x) {
  return coshf(x);
}
PYK_HD inline double coshOf(double x) {
  return cosh(x);
}
PYK_HD inline float tanhOf(float x) {
  return tanhf(x);
}
PYK_HD inline double tanhOf(double x) {
  return tanh(x);
}
PYK_HD inline float tanOf(float x) {
  return tanf(x);
}
PYK_HD inline double tanOf(double x) {
  return tan(x);
}
PYK_HD inline float asinhOf(float x) {
  return asinhf(x);
}
PYK_HD inline double asinhOf(double x) {
  return asinh(x);
}
PYK_HD inline float log1pOf(float x) {
  return log1pf(x);
}
PYK_HD inline double log1pOf(double x) {
  return log1p(x);
}
PYK_HD inline float copysignOf(float x, float y) {
  return copysignf(x, y);
}
PYK_HD inline double copysignOf(double x, double y) {
  return copysign(x, y);
}
// IEEE classification in either precision (CUDA's overloads, <cmath>'s on the host).
template <typename F>
PYK_HD bool isnanOf(F x) {
  return isnan(x);
}
template <typename F>
PYK_HD bool isinfOf(F x) {
  return isinf(x);
}
template <typename F>
PYK_HD bool isfiniteOf(F x) {
  return isfinite(x);
}

} // namespace detail

} // namespace pyk
