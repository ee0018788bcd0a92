// complex_math.h: abs, phase and the cmath functions numba.cuda supports on complex numbers, as
// numba ports CPython's cmathmodule.c.
#pragma once

#include "complex.h"
#include "math_builtins.h"

namespace pyk {

namespace detail {
// The largest magnitude whose square does not overflow, halved: beyond it atanh takes the
// asymptotic branch, as CPython's CM_SQRT_LARGE_DOUBLE.
template <typename F>
PYK_HD F sqrtLarge() {
  return sizeof(F) == 4 ? F(1.8446742e19f / 4) : F(1.3407807929942596e154 / 4);
}
} // namespace detail

// abs(z), cmath.phase, the cmath functions numba.cuda supports on complex numbers.
template <typename F>
PYK_HD F abs(Complex<F> z) {
  return detail::hypotOf(z.re, z.im);
}
template <typename F>
PYK_HD Complex<F> conjugate(Complex<F> z) {
  return {z.re, -z.im};
}
template <typename F>
PYK_HD F cphase(Complex<F> z) {
  return detail::atan2Of(z.im, z.re);
}
template <typename F>
PYK_HD Complex<F> cexp(Complex<F> z) {
  const F m = detail::expOf(z.re);
  return {m * detail::cosOf(z.im), m * detail::sinOf(z.im)};
}
template <typename F>
PYK_HD Complex<F> clog(Complex<F> z) {
  return {detail::logOf(abs(z)), cphase(z)};
}
// The principal square root, as CPython's cmath.sqrt for finite values.
template <typename F>
PYK_HD Complex<F> csqrt(Complex<F> z) {
  if (z.re == 0 && z.im == 0)
    return {0, z.im};
  const F t = detail::sqrtOf(((z.re < 0 ? -z.re : z.re) + abs(z)) / 2);
  if (z.re >= 0)
    return {t, z.im / (2 * t)};
  return {(z.im < 0 ? -z.im : z.im) / (2 * t), z.im < 0 ? -t : t};
}
template <typename F>
PYK_HD Complex<F> csin(Complex<F> z) {
  return {detail::sinOf(z.re) * detail::coshOf(z.im), detail::cosOf(z.re) * detail::sinhOf(z.im)};
}
template <typename F>
PYK_HD Complex<F> ccos(Complex<F> z) {
  return {detail::cosOf(z.re) * detail::coshOf(z.im), -detail::sinOf(z.re) * detail::sinhOf(z.im)};
}
template <typename F>
PYK_HD Complex<F> crect(F r, F phi) {
  return {r * detail::cosOf(phi), r * detail::sinOf(phi)};
}
// z ** w = exp(w log z), with 0 ** w = 0 (w != 0), as Python's complex power.
template <typename F>
PYK_HD Complex<F> cpow(Complex<F> z, Complex<F> w) {
  if (w.re == 0 && w.im == 0)
    return {1, 0};
  if (z.re == 0 && z.im == 0)
    return {0, 0};
  return cexp(w * clog(z));
}
template <typename F>
PYK_HD bool cisnan(Complex<F> z) {
  return z.re != z.re || z.im != z.im;
}

// The rest of cmath as numba ports CPython's cmathmodule.c (numba/cpython/cmathimpl.py): the
// formulas for finite arguments of ordinary magnitude (CPython's special-value tables for
// infinities and its extreme-magnitude branches are not reproduced, except atanh's).
template <typename F>
PYK_HD Complex<F> clog10(Complex<F> z) {
  const Complex<F> l = clog(z);
  const F ln10 = F(2.302585092994045684);
  return {l.re / ln10, l.im / ln10};
}
template <typename F>
PYK_HD Complex<F> csinh(Complex<F> z) {
  return {detail::sinhOf(z.re) * detail::cosOf(z.im), detail::coshOf(z.re) * detail::sinOf(z.im)};
}
template <typename F>
PYK_HD Complex<F> ccosh(Complex<F> z) {
  return {detail::coshOf(z.re) * detail::cosOf(z.im), detail::sinhOf(z.re) * detail::sinOf(z.im)};
}
// tanh(x+iy) with CPython's cancellation-free formula; for huge |x| the limit ±1.
template <typename F>
PYK_HD Complex<F> ctanh(Complex<F> z) {
  const F ax = z.re < 0 ? -z.re : z.re;
  if (ax > F(sizeof(F) == 4 ? 44 : 354)) {
    const F e = detail::expOf(-2 * ax);
    return {z.re < 0 ? F(-1) : F(1), 4 * detail::sinOf(z.im) * detail::cosOf(z.im) * e};
  }
  const F t = detail::tanhOf(z.re);
  const F ty = detail::tanOf(z.im);
  const F cx = 1 / detail::coshOf(z.re);
  const F txty = t * ty;
  const F denom = 1 + txty * txty;
  return {t * (1 + ty * ty) / denom, ((ty / denom) * cx) * cx};
}
// tan(z) = -i tanh(iz).
template <typename F>
PYK_HD Complex<F> ctan(Complex<F> z) {
  const Complex<F> r = ctanh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}
template <typename F>
PYK_HD Complex<F> casinh(Complex<F> z) {
  const Complex<F> s1 = csqrt(Complex<F>{1 + z.im, -z.re});
  const Complex<F> s2 = csqrt(Complex<F>{1 - z.im, z.re});
  return {detail::asinhOf(s1.re * s2.im - s2.re * s1.im),
          detail::atan2Of(z.im, s1.re * s2.re - s1.im * s2.im)};
}
// asin(z) = -i asinh(iz).
template <typename F>
PYK_HD Complex<F> casin(Complex<F> z) {
  const Complex<F> r = casinh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}
template <typename F>
PYK_HD Complex<F> cacos(Complex<F> z) {
  const Complex<F> s1 = csqrt(Complex<F>{1 - z.re, -z.im});
  const Complex<F> s2 = csqrt(Complex<F>{1 + z.re, z.im});
  return {2 * detail::atan2Of(s1.re, s2.re), detail::asinhOf(s2.re * s1.im - s2.im * s1.re)};
}
template <typename F>
PYK_HD Complex<F> cacosh(Complex<F> z) {
  const Complex<F> s1 = csqrt(Complex<F>{z.re - 1, z.im});
  const Complex<F> s2 = csqrt(Complex<F>{z.re + 1, z.im});
  return {detail::asinhOf(s1.re * s2.re + s1.im * s2.im), 2 * detail::atan2Of(s1.im, s2.re)};
}
template <typename F>
PYK_HD Complex<F> catanh(Complex<F> z) {
  if (z.re < 0) {
    const Complex<F> r = catanh(Complex<F>{-z.re, -z.im});
    return {-r.re, -r.im};
  }
  const F ay = z.im < 0 ? -z.im : z.im;
  const F halfPi = F(1.5707963267948966);
  if (z.re > detail::sqrtLarge<F>() || ay > detail::sqrtLarge<F>()) {
    const F h = detail::hypotOf(z.re / 2, z.im / 2);
    return {z.re / 4 / h / h, z.im < 0 ? -halfPi : halfPi};
  }
  const F oneMinus = 1 - z.re;
  return {detail::log1pOf(4 * z.re / (oneMinus * oneMinus + ay * ay)) / 4,
          -detail::atan2Of(-2 * z.im, oneMinus * (1 + z.re) - ay * ay) / 2};
}
// atan(z) = -i atanh(iz).
template <typename F>
PYK_HD Complex<F> catan(Complex<F> z) {
  const Complex<F> r = catanh(Complex<F>{-z.im, z.re});
  return {r.im, -r.re};
}

} // namespace pyk
