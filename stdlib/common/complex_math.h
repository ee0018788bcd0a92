// complex_math.h: abs, phase, polar, rect, the classification, exp, log, sqrt, the trigonometric
// and hyperbolic functions and the power of complex numbers, as numba.cuda computes them: its
// ports of CPython's cmathmodule.c (numba/cpython/cmathimpl.py), with their special values for
// infinities and NaNs, and its complex power (numba/cuda/mathimpl.py's cpow_implement). The
// inverse functions are in complex_inverse_math.h.
//
// numba compiles those Python functions with its own typing, so a complex64 argument is not
// computed in float32 throughout: where numba's code mixes a float32 with a Python float or an
// int (`a *= 0.25`, `1. / math.cosh(x)`), that value and what follows are float64, and the result
// is rounded to complex64 at the end. The functions below reproduce that: `F` is the argument's
// float type, `double` marks what numba computes in float64 whatever F is.
#pragma once

#include "complex.h"
#include "math_builtins.h"
#include "scalar_types.h"

namespace pyk {

namespace detail {
// numba's mathimpl.FLT_MAX and DBL_MAX (numpy's finfo).
inline constexpr double kFloatMax = 3.4028234663852886e38;
inline constexpr double kDoubleMax = 1.7976931348623157e308;
template <typename F>
PYK_HD F quietNaN() {
  return F(nan64());
}
template <typename F>
PYK_HD F infinity() {
  return F(inf64());
}
} // namespace detail

// ---- conversions and classification ------------------------------------------------------------

// abs(z): math.hypot of the parts (numba's complex_abs_impl).
template <typename F>
PYK_HD F abs(Complex<F> z) {
  return detail::hypotOf(z.re, z.im);
}
template <typename F>
PYK_HD Complex<F> conjugate(Complex<F> z) {
  return {z.re, -z.im};
}
// cmath.phase: math.atan2(y, x).
template <typename F>
PYK_HD F cphase(Complex<F> z) {
  return detail::atan2Of(z.im, z.re);
}
template <typename F>
PYK_HD bool cisnan(Complex<F> z) {
  return detail::isnanOf(z.re) || detail::isnanOf(z.im);
}
template <typename F>
PYK_HD bool cisinf(Complex<F> z) {
  return detail::isinfOf(z.re) || detail::isinfOf(z.im);
}
template <typename F>
PYK_HD bool cisfinite(Complex<F> z) {
  return detail::isfiniteOf(z.re) && detail::isfiniteOf(z.im);
}

// cmath.rect(r, phi) (numba's rect_impl): 0 and ±inf moduli keep their special values where
// cos(phi) or sin(phi) is zero or phi is not finite.
template <typename F>
PYK_HD Complex<F> crect(F r, F phi) {
  if (!detail::isfiniteOf(phi)) {
    if (r == 0) // `not r`
      return {detail::fabsOf(r), F(0)};
    if (detail::isinfOf(r))
      return {r, phi};
  }
  F real = detail::cosOf(phi);
  F imag = detail::sinOf(phi);
  if (real == 0 && detail::isinfOf(r))
    real /= r; // 0 * inf would be NaN: keep the zero, with the sign of the product
  else
    real *= r;
  if (imag == 0 && detail::isinfOf(r))
    imag /= r;
  else
    imag *= r;
  return {real, imag};
}

// ---- exponential, logarithms, square root ------------------------------------------------------

// cmath.exp (numba's exp_impl, CPython's special values for infinite and NaN parts).
template <typename F>
PYK_HD Complex<F> cexp(Complex<F> z) {
  const F x = z.re;
  const F y = z.im;
  const F nan = detail::quietNaN<F>();
  if (detail::isfiniteOf(x)) {
    if (detail::isfiniteOf(y)) {
      const F r = detail::expOf(x);
      return {r * detail::cosOf(y), r * detail::sinOf(y)};
    }
    return {nan, nan};
  }
  if (detail::isnanOf(x))
    return y != 0 ? Complex<F>{x, x} : Complex<F>{x, y};
  if (x > 0) { // +inf
    if (detail::isfiniteOf(y)) {
      F real = detail::cosOf(y);
      F imag = detail::sinOf(y);
      if (real != 0) // no NaN from inf * 0: exp(inf + 0j) is inf + 0j
        real *= x;
      if (imag != 0)
        imag *= x;
      return {real, imag};
    }
    return {x, nan};
  }
  if (detail::isfiniteOf(y)) { // -inf
    const F r = detail::expOf(x);
    return {r * detail::cosOf(y), r * detail::sinOf(y)};
  }
  return {F(0), F(0)};
}

// cmath.log: log(hypot(x, y)) + atan2(y, x) j.
template <typename F>
PYK_HD Complex<F> clog(Complex<F> z) {
  return {detail::logOf(detail::hypotOf(z.re, z.im)), detail::atan2Of(z.im, z.re)};
}

// cmath.log10: log(z) / ln 10, each part divided in float64 (numba's log10_impl).
template <typename F>
PYK_HD Complex<F> clog10(Complex<F> z) {
  const Complex<F> l = clog(z);
  const double ln10 = 2.302585092994045684;
  return {F(double(l.re) / ln10), F(double(l.im) / ln10)};
}

// cmath.log(z, base): log(z) / log(base), Python's complex division (numba's log_base_impl).
template <typename F>
PYK_HD Complex<F> clog(Complex<F> z, Complex<F> base) {
  return clog(z) / clog(base);
}

// cmath.sqrt (numba's sqrt_impl, numpy's npy_csqrt). numba's locals `a` and `b` are float64
// for a complex64 argument too (`a *= 0.25` makes them so), so the whole computation is in
// float64. The rescaling of huge arguments doubles only the real part, as numba's does.
template <typename F>
PYK_HD Complex<F> csqrt(Complex<F> z) {
  const double threshold = (sizeof(F) == 4 ? detail::kFloatMax : detail::kDoubleMax) /
                           (1.0 + 1.414213562373095048801688724209698079);
  double a = z.re;
  double b = z.im;
  if (a == 0.0 && b == 0.0)
    return {F(detail::fabsOf(b)), F(b)};
  if (detail::isinfOf(b))
    return {F(detail::fabsOf(b)), F(b)};
  if (detail::isnanOf(a))
    return {F(a), F(a)};
  if (detail::isinfOf(a)) {
    if (a < 0.0)
      return {F(detail::fabsOf(b - b)), F(detail::copysignOf(a, b))};
    return {F(a), F(detail::copysignOf(b - b, b))};
  }
  bool scale = false;
  if (detail::fabsOf(a) >= threshold || detail::fabsOf(b) >= threshold) {
    a *= 0.25;
    b *= 0.25;
    scale = true;
  }
  double real;
  double imag;
  if (a >= 0) {
    const double t = detail::sqrtOf((a + detail::hypotOf(a, b)) * 0.5);
    real = t;
    imag = b / (2 * t);
  } else {
    const double t = detail::sqrtOf((-a + detail::hypotOf(a, b)) * 0.5);
    real = detail::fabsOf(b) / (2 * t);
    imag = detail::copysignOf(t, b);
  }
  if (scale)
    return {F(real * 2), F(imag)};
  return {F(real), F(imag)};
}

// ---- hyperbolic and trigonometric functions
// ------------------------------------------------------

// cmath.cosh (numba's cosh_impl).
template <typename F>
PYK_HD Complex<F> ccosh(Complex<F> z) {
  const F x = z.re;
  const F y = z.im;
  if (detail::isinfOf(x)) {
    F real;
    F imag;
    if (detail::isnanOf(y) || y == 0) {
      real = detail::fabsOf(x);
      imag = y;
    } else {
      real = detail::copysignOf(x, detail::cosOf(y));
      imag = detail::copysignOf(x, detail::sinOf(y));
    }
    if (x < 0)
      imag = -imag;
    return {real, imag};
  }
  return {detail::cosOf(y) * detail::coshOf(x), detail::sinOf(y) * detail::sinhOf(x)};
}

// cmath.sinh (numba's sinh_impl).
template <typename F>
PYK_HD Complex<F> csinh(Complex<F> z) {
  const F x = z.re;
  const F y = z.im;
  if (detail::isinfOf(x)) {
    if (detail::isnanOf(y))
      return {x, y};
    F real = detail::cosOf(y);
    F imag = detail::sinOf(y);
    if (real != 0)
      real *= x;
    if (imag != 0)
      imag *= detail::fabsOf(x);
    return {real, imag};
  }
  return {detail::cosOf(y) * detail::sinhOf(x), detail::sinOf(y) * detail::coshOf(x)};
}

// cmath.tanh (numba's tanh_impl, CPython's c_tanh). The Python floats in numba's formula make
// everything after tanh(x), tan(y) and cosh(x) float64 (txty * txty and ty * ty stay in F).
template <typename F>
PYK_HD Complex<F> ctanh(Complex<F> z) {
  const F x = z.re;
  const F y = z.im;
  if (detail::isinfOf(x)) {
    const double real = detail::copysignOf(1.0, double(x));
    const double imag =
        detail::isinfOf(y) ? 0.0 : detail::copysignOf(0.0, detail::sinOf(2.0 * double(y)));
    return {F(real), F(imag)};
  }
  const F tx = detail::tanhOf(x);
  const F ty = detail::tanOf(y);
  const double cx = 1.0 / double(detail::coshOf(x));
  const F txty = tx * ty;
  const double denom = 1.0 + double(txty * txty);
  return {F(double(tx) * (1.0 + double(ty * ty)) / denom), F(((double(ty) / denom) * cx) * cx)};
}

// cmath.cos(z) = cosh(iz), cmath.sin(z) = -i sinh(iz), cmath.tan(z) = -i tanh(iz).
template <typename F>
PYK_HD Complex<F> ccos(Complex<F> z) {
  return ccosh(Complex<F>{-z.im, z.re});
}
template <typename F>
PYK_HD Complex<F> csin(Complex<F> z) {
  const Complex<F> r = csinh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}
template <typename F>
PYK_HD Complex<F> ctan(Complex<F> z) {
  const Complex<F> r = ctanh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}

// ---- power
// ---------------------------------------------------------------------------------------

// z ** w as numba.cuda computes it (mathimpl.py's cpow_internal, a translation of CPython's
// _Py_c_pow without its integer-exponent path): 1 for w = 0; 0 when z.real and w.real are both 0
// (numba's test, not CPython's z = 0); else |z|**w.re / exp(arg(z) w.im) at angle
// arg(z) w.re + w.im log|z|, in F throughout. So 1j ** 1.0 is cos(pi/2) + 1j = 6.1e-17 + 1j where
// CPython (and numba's simulator) multiply out to exactly 1j.
template <typename F>
PYK_HD Complex<F> cpow(Complex<F> a, Complex<F> b) {
  if (b.re == 0 && b.im == 0)
    return {F(1), F(0)};
  if (a.re == 0 && b.re == 0)
    return {F(0), F(0)};
  const F vabs = detail::hypotOf(a.re, a.im);
  F len = detail::powOf(vabs, b.re);
  const F at = detail::atan2Of(a.im, a.re);
  F phase = at * b.re;
  if (b.im != 0) {
    len /= detail::expOf(at * b.im);
    phase += b.im * detail::logOf(vabs);
  }
  // len * (complex(cos(phase)) + sin(phase) * 1j), each product a complex multiplication.
  const Complex<F> unit = Complex<F>{detail::cosOf(phase), F(0)} +
                          Complex<F>{detail::sinOf(phase), F(0)} * Complex<F>{F(0), F(1)};
  return Complex<F>{len, F(0)} * unit;
}

} // namespace pyk
