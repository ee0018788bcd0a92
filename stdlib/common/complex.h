// complex.h: numba's complex64 and complex128, pairs of floats with Python's complex arithmetic.
#pragma once

#include "target_macros.h"

namespace pyk {

// numba's complex64 / complex128: a pair of floats with Python's arithmetic.
template <typename F>
struct Complex {
  F re;
  F im;

  PYK_HD constexpr Complex() : re(0), im(0) {}
  PYK_HD constexpr Complex(F real, F imag) : re(real), im(imag) {}
  // From any real number (the imaginary part 0) and from the other precision.
  template <typename T>
  PYK_HD constexpr Complex(T real) : re(static_cast<F>(real)), im(0) {}
  template <typename G>
  PYK_HD constexpr Complex(Complex<G> other)
      : re(static_cast<F>(other.re)), im(static_cast<F>(other.im)) {}

  PYK_HD friend Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
  PYK_HD friend Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
  PYK_HD friend Complex operator*(Complex a, Complex b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  // Python's complex division (Smith's algorithm, as CPython's _Py_c_quot); by zero: nan parts
  // under numba's numpy error model.
  PYK_HD friend Complex operator/(Complex a, Complex b) {
    const F absReal = b.re < 0 ? -b.re : b.re;
    const F absImag = b.im < 0 ? -b.im : b.im;
    if (absReal >= absImag) {
      if (absReal == 0)
        return {a.re / absReal, a.im / absReal};
      const F ratio = b.im / b.re;
      const F denominator = b.re + b.im * ratio;
      return {(a.re + a.im * ratio) / denominator, (a.im - a.re * ratio) / denominator};
    }
    if (absImag >= absReal) {
      const F ratio = b.re / b.im;
      const F denominator = b.re * ratio + b.im;
      return {(a.re * ratio + a.im) / denominator, (a.im * ratio - a.re) / denominator};
    }
    return {absReal / absImag, absReal / absImag}; // nan: a nan in b
  }
  PYK_HD friend Complex operator-(Complex a) { return {-a.re, -a.im}; }
  PYK_HD friend Complex operator+(Complex a) { return a; }
  PYK_HD friend bool operator==(Complex a, Complex b) { return a.re == b.re && a.im == b.im; }
  PYK_HD friend bool operator!=(Complex a, Complex b) { return !(a == b); }
  PYK_HD friend bool operator!(Complex a) { return a.re == 0 && a.im == 0; }
};

using complex64 = Complex<float>;
using complex128 = Complex<double>;

// A complex number where numpy put it in a packed record, at an offset that is no multiple of
// its alignment: its bytes (a class, Complex is not packed by compilers), read and written whole.
template <typename C>
struct Unaligned {
  unsigned char bytes[sizeof(C)];
  PYK_HD C load() const {
    C value;
    unsigned char* to = reinterpret_cast<unsigned char*>(&value);
    for (unsigned k = 0; k < sizeof(C); ++k)
      to[k] = bytes[k];
    return value;
  }
  PYK_HD void store(C value) {
    const unsigned char* from = reinterpret_cast<const unsigned char*>(&value);
    for (unsigned k = 0; k < sizeof(C); ++k)
      bytes[k] = from[k];
  }
};

} // namespace pyk
