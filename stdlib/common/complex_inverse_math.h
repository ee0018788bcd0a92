// complex_inverse_math.h: cmath's inverse trigonometric and hyperbolic functions (acos, asin,
// atan, acosh, asinh, atanh) as numba.cuda computes them: numba/cpython/cmathimpl.py's ports of
// CPython's c_acos, c_asinh, ... with their large-argument branches and special values. As in
// complex_math.h, `double` marks what numba's typing computes in float64 for a complex64 argument
// too (its `complex(1. - z.real, -z.imag)` is a complex128, so the square roots in the middle of
// acos, acosh and asinh are complex128 ones).
#pragma once

#include "complex.h"
#include "complex_math.h"
#include "math_builtins.h"

namespace pyk {

namespace detail {
// cmathimpl.py's constants: THRES = FLT_MAX / 4 (for both precisions), LN_4 = log(4), and
// atanh's THRES_LARGE = sqrt(FLT_MAX / 4), THRES_SMALL = sqrt(FLT_MIN).
inline constexpr double kCmathLarge = kFloatMax / 4;
inline constexpr double kLn4 = 1.3862943611198906;
inline constexpr double kAtanhLarge = 9.223371761976865e18;
inline constexpr double kAtanhSmall = 1.0842021724855044e-19;
inline constexpr double kHalfPi = 1.5707963267948966;

// log(hypot(x / 2, y / 2)) + log 4: the modulus' logarithm without overflow.
template <typename F>
PYK_HD double logModulusLarge(Complex<F> z) {
  return logOf(hypotOf(double(z.re) * 0.5, double(z.im) * 0.5)) + kLn4;
}
} // namespace detail

// cmath.acos (numba's acos_impl).
template <typename F>
PYK_HD Complex<F> cacos(Complex<F> z) {
  if (detail::fabsOf(double(z.re)) > detail::kCmathLarge ||
      detail::fabsOf(double(z.im)) > detail::kCmathLarge) {
    const F real = detail::atan2Of(detail::fabsOf(z.im), z.re);
    const double imag = detail::copysignOf(detail::logModulusLarge(z), -double(z.im));
    return {real, F(imag)};
  }
  const complex128 s1 = csqrt(complex128{1.0 - double(z.re), -double(z.im)});
  const complex128 s2 = csqrt(complex128{1.0 + double(z.re), double(z.im)});
  const double real = 2.0 * detail::atan2Of(s1.re, s2.re);
  const double imag = detail::asinhOf(s2.re * s1.im - s2.im * s1.re);
  return {F(real), F(imag)};
}

// cmath.acosh (numba's acosh_impl).
template <typename F>
PYK_HD Complex<F> cacosh(Complex<F> z) {
  if (detail::fabsOf(double(z.re)) > detail::kCmathLarge ||
      detail::fabsOf(double(z.im)) > detail::kCmathLarge) {
    const double real = detail::logModulusLarge(z);
    const F imag = detail::atan2Of(z.im, z.re);
    return {F(real), imag};
  }
  const complex128 s1 = csqrt(complex128{double(z.re) - 1.0, double(z.im)});
  const complex128 s2 = csqrt(complex128{double(z.re) + 1.0, double(z.im)});
  const double real = detail::asinhOf(s1.re * s2.re + s1.im * s2.im);
  const double imag = 2.0 * detail::atan2Of(s1.im, s2.re);
  return {F(real), F(imag)};
}

// cmath.asinh (numba's asinh_impl).
template <typename F>
PYK_HD Complex<F> casinh(Complex<F> z) {
  if (detail::fabsOf(double(z.re)) > detail::kCmathLarge ||
      detail::fabsOf(double(z.im)) > detail::kCmathLarge) {
    const double real = detail::copysignOf(detail::logModulusLarge(z), double(z.re));
    const F imag = detail::atan2Of(z.im, detail::fabsOf(z.re));
    return {F(real), imag};
  }
  const complex128 s1 = csqrt(complex128{1.0 + double(z.im), -double(z.re)});
  const complex128 s2 = csqrt(complex128{1.0 - double(z.im), double(z.re)});
  const double real = detail::asinhOf(s1.re * s2.im - s2.re * s1.im);
  const double imag = detail::atan2Of(double(z.im), s1.re * s2.re - s1.im * s2.im);
  return {F(real), F(imag)};
}

// cmath.asin(z) = -i asinh(iz).
template <typename F>
PYK_HD Complex<F> casin(Complex<F> z) {
  const Complex<F> r = casinh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}

// cmath.atanh (numba's atanh_impl). Its `1 - z.real` is an int minus a float, float64, while
// `ay * ay` stays in F.
template <typename F>
PYK_HD Complex<F> catanh(Complex<F> z) {
  const bool negate = z.re < 0;
  if (negate)
    z = -z;
  const F ay = detail::fabsOf(z.im);
  double real;
  double imag;
  if (detail::isnanOf(z.re) || double(z.re) > detail::kAtanhLarge ||
      double(ay) > detail::kAtanhLarge) {
    if (detail::isinfOf(z.im)) {
      real = detail::copysignOf(0.0, double(z.re));
    } else if (detail::isinfOf(z.re)) {
      real = 0.0;
    } else {
      const double h = detail::hypotOf(double(z.re) * 0.5, double(z.im) * 0.5);
      real = double(z.re) / 4.0 / h / h;
    }
    imag = -detail::copysignOf(detail::kHalfPi, -double(z.im));
  } else if (double(z.re) == 1.0 && double(ay) < detail::kAtanhSmall) {
    if (ay == 0) {
      real = detail::infinity<double>();
      imag = z.im;
    } else {
      real = -detail::logOf(double(detail::sqrtOf(ay)) /
                            detail::sqrtOf(detail::hypotOf(double(ay), 2.0)));
      imag = detail::copysignOf(detail::atan2Of(2.0, -double(ay)) / 2, double(z.im));
    }
  } else {
    const F sqay = ay * ay;
    const double zr1 = 1.0 - double(z.re);
    real = detail::log1pOf(4.0 * double(z.re) / (zr1 * zr1 + double(sqay))) * 0.25;
    imag = -detail::atan2Of(-2.0 * double(z.im), zr1 * (1.0 + double(z.re)) - double(sqay)) * 0.5;
  }
  if (detail::isnanOf(z.im))
    imag = detail::quietNaN<double>();
  if (negate)
    return {F(-real), F(-imag)};
  return {F(real), F(imag)};
}

// cmath.atan(z) = -i atanh(iz), except that numba swaps the parts without negating for an
// infinite real part with a NaN imaginary one (numba's atan_impl: "odd but necessary").
template <typename F>
PYK_HD Complex<F> catan(Complex<F> z) {
  const Complex<F> r = catanh(Complex<F>{-z.im, z.re});
  if (detail::isinfOf(z.re) && detail::isnanOf(z.im))
    return {r.im, r.re};
  return {r.im, -r.re};
}

} // namespace pyk
