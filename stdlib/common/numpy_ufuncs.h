// numpy_ufuncs.h: numpy's ufuncs in kernels, as numba-cuda compiles them. Each ufunc's loop kernel
// is a functor (`pyk::npy::sin_loop`, Intrinsics.def's UFUNC rows) that computes in the types of
// the loop numba chose (sema/catalog/Ufunc.h): the emitter passes those types, ufunc_scalar
// converts the operands to them and the result to the loop's output type; ufunc_arrays does so for
// every element of the output array, each operand broadcast to the output's shape as numpy
// broadcasts (dimensions aligned at the end, a dimension of 1 repeated), and returns the output.
// The element functions follow numba's npyfuncs (NaN rules of maximum/fmax, numpy's ordering of
// complex numbers), libm / libdevice as math.* does for real operands, complex_math.h for complex.
#pragma once

#include "arrays.h"
#include "complex.h"
#include "complex_inverse_math.h"
#include "complex_math.h"
#include "numpy_ufuncs_numeric.h"
#include "scalar_types.h"

namespace pyk::npy {

namespace detail {

template <typename T>
PYK_HD bool isNan(T x) {
  if constexpr (pyk::detail::isFloat<T>)
    return x != x;
  else
    return false;
}
template <typename F>
PYK_HD bool isNan(Complex<F> z) {
  return z.re != z.re || z.im != z.im;
}

// Truth as numpy's logical ufuncs read it (a complex number is true when either part is nonzero).
template <typename T>
PYK_HD bool truth(T x) {
  return x != T(0);
}
template <typename F>
PYK_HD bool truth(Complex<F> z) {
  return z.re != F(0) || z.im != F(0);
}

// numpy's order of complex numbers (loops.c.src's CGT, CGE, CLT, CLE): by the real part, then by
// the imaginary one; a NaN imaginary part makes the real parts' order false.
template <typename F>
PYK_HD bool complexGreater(Complex<F> x, Complex<F> y, bool orEqual) {
  const bool imagNan = x.im != x.im || y.im != y.im;
  return (x.re > y.re && !imagNan) || (x.re == y.re && (orEqual ? x.im >= y.im : x.im > y.im));
}
template <typename F>
PYK_HD bool complexLess(Complex<F> x, Complex<F> y, bool orEqual) {
  const bool imagNan = x.im != x.im || y.im != y.im;
  return (x.re < y.re && !imagNan) || (x.re == y.re && (orEqual ? x.im <= y.im : x.im < y.im));
}

// Whether A and B are integers of different signedness.
template <typename A, typename B>
PYK_HD constexpr bool mixedSignedness() {
  if constexpr (pyk::detail::isInteger<A> && pyk::detail::isInteger<B>)
    return pyk::detail::IntTraits<A>::isSigned != pyk::detail::IntTraits<B>::isSigned;
  else
    return false;
}

// a < b, a == b of two integers of different signedness, exactly (numpy >= 1.25's signed/unsigned
// loops, numba's int_signed_unsigned_cmp); of any other pair as C++ compares them.
template <typename A, typename B>
PYK_HD bool less(A a, B b) {
  if constexpr (mixedSignedness<A, B>()) {
    if constexpr (pyk::detail::isSignedInteger<A>)
      return a < 0 || static_cast<uint64>(a) < static_cast<uint64>(b);
    else
      return b >= 0 && static_cast<uint64>(a) < static_cast<uint64>(b);
  } else {
    return a < b;
  }
}
template <typename A, typename B>
PYK_HD bool equal(A a, B b) {
  if constexpr (mixedSignedness<A, B>()) {
    if constexpr (pyk::detail::isSignedInteger<A>)
      return a >= 0 && static_cast<uint64>(a) == static_cast<uint64>(b);
    else
      return b >= 0 && static_cast<uint64>(a) == static_cast<uint64>(b);
  } else {
    return a == b;
  }
}

// Integer arithmetic wraps (numba's); bool + bool is `or`, bool * bool `and` (numpy's boolean
// loops).
template <typename T>
PYK_HD T wrappingAdd(T a, T b) {
  if constexpr (pyk::detail::isInteger<T>) {
    using U = typename pyk::detail::IntTraits<T>::Unsigned;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else if constexpr (pyk::detail::isBool<T>) {
    return a || b;
  } else {
    return a + b;
  }
}

} // namespace detail

// ---- math: real loops through libm / libdevice (as math.*), complex loops through complex_math.h
#define PYK_NPY_MATH(NAME, FLOAT32, FLOAT64, COMPLEX)                                              \
  struct NAME##_loop {                                                                             \
    PYK_HD float operator()(float x) const { return ::FLOAT32(x); }                                \
    PYK_HD double operator()(double x) const { return ::FLOAT64(x); }                              \
    template <typename F>                                                                          \
    PYK_HD Complex<F> operator()(Complex<F> z) const {                                             \
      return pyk::COMPLEX(z);                                                                      \
    }                                                                                              \
  };
PYK_NPY_MATH(sin, sinf, sin, csin)
PYK_NPY_MATH(cos, cosf, cos, ccos)
PYK_NPY_MATH(tan, tanf, tan, ctan)
PYK_NPY_MATH(arcsin, asinf, asin, casin)
PYK_NPY_MATH(arccos, acosf, acos, cacos)
PYK_NPY_MATH(arctan, atanf, atan, catan)
PYK_NPY_MATH(sinh, sinhf, sinh, csinh)
PYK_NPY_MATH(cosh, coshf, cosh, ccosh)
PYK_NPY_MATH(tanh, tanhf, tanh, ctanh)
PYK_NPY_MATH(arcsinh, asinhf, asinh, casinh)
PYK_NPY_MATH(arccosh, acoshf, acosh, cacosh)
PYK_NPY_MATH(arctanh, atanhf, atanh, catanh)
PYK_NPY_MATH(exp, expf, exp, cexp)
PYK_NPY_MATH(log, logf, log, clog)
PYK_NPY_MATH(log10, log10f, log10, clog10)
PYK_NPY_MATH(sqrt, sqrtf, sqrt, csqrt)
#undef PYK_NPY_MATH

// log2 of a complex number: log(z) scaled by log2(e) (numba's np_complex_log2_impl).
struct log2_loop {
  PYK_HD float operator()(float x) const { return ::log2f(x); }
  PYK_HD double operator()(double x) const { return ::log2(x); }
  template <typename F>
  PYK_HD Complex<F> operator()(Complex<F> z) const {
    const Complex<F> l = pyk::clog(z);
    const F log2e = static_cast<F>(1.442695040888963407359924681001892137);
    return {l.re * log2e, l.im * log2e};
  }
};

#define PYK_NPY_REAL_BINARY(NAME, FLOAT32, FLOAT64)                                                \
  struct NAME##_loop {                                                                             \
    PYK_HD float operator()(float x, float y) const { return ::FLOAT32(x, y); }                    \
    PYK_HD double operator()(double x, double y) const { return ::FLOAT64(x, y); }                 \
  };
PYK_NPY_REAL_BINARY(arctan2, atan2f, atan2)
PYK_NPY_REAL_BINARY(hypot, hypotf, hypot)
#undef PYK_NPY_REAL_BINARY

// Degrees and radians: one multiplication by the factor rounded to the loop's type (numba's).
#define PYK_NPY_SCALE(NAME, FACTOR)                                                                \
  struct NAME##_loop {                                                                             \
    template <typename F>                                                                          \
    PYK_HD F operator()(F x) const {                                                               \
      return x * static_cast<F>(FACTOR);                                                           \
    }                                                                                              \
  };
PYK_NPY_SCALE(deg2rad, 3.141592653589793 / 180.0)
PYK_NPY_SCALE(radians, 3.141592653589793 / 180.0)
PYK_NPY_SCALE(rad2deg, 180.0 / 3.141592653589793)
PYK_NPY_SCALE(degrees, 180.0 / 3.141592653589793)
#undef PYK_NPY_SCALE

// ---- arithmetic -------------------------------------------------------------------------------
struct add_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    return detail::wrappingAdd(a, b);
  }
};
struct subtract_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    if constexpr (pyk::detail::isInteger<T>)
      return detail::wrappingAdd(a, pyk::detail::wrappingNeg(b));
    else
      return a - b;
  }
};
struct multiply_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    if constexpr (pyk::detail::isInteger<T>)
      return pyk::detail::wrappingMul(a, b);
    else if constexpr (pyk::detail::isBool<T>)
      return a && b;
    else
      return a * b;
  }
};
struct negative_loop {
  template <typename T>
  PYK_HD T operator()(T a) const {
    if constexpr (pyk::detail::isInteger<T>)
      return pyk::detail::wrappingNeg(a);
    else
      return -a;
  }
};

// ---- comparisons ------------------------------------------------------------------------------
#define PYK_NPY_COMPARE(NAME, REAL, COMPLEX)                                                       \
  struct NAME##_loop {                                                                             \
    template <typename A, typename B>                                                              \
    PYK_HD bool operator()(A a, B b) const {                                                       \
      return REAL;                                                                                 \
    }                                                                                              \
    template <typename F>                                                                          \
    PYK_HD bool operator()(Complex<F> a, Complex<F> b) const {                                     \
      return COMPLEX;                                                                              \
    }                                                                                              \
  };
PYK_NPY_COMPARE(greater, detail::less(b, a), detail::complexGreater(a, b, false))
PYK_NPY_COMPARE(greater_equal, !detail::less(a, b) && a == a && b == b,
                detail::complexGreater(a, b, true))
PYK_NPY_COMPARE(less, detail::less(a, b), detail::complexLess(a, b, false))
PYK_NPY_COMPARE(less_equal, !detail::less(b, a) && a == a && b == b,
                detail::complexLess(a, b, true))
PYK_NPY_COMPARE(equal, detail::equal(a, b), a.re == b.re && a.im == b.im)
PYK_NPY_COMPARE(not_equal, !detail::equal(a, b), a.re != b.re || a.im != b.im)
#undef PYK_NPY_COMPARE

// ---- logical ----------------------------------------------------------------------------------
struct logical_and_loop {
  template <typename T>
  PYK_HD bool operator()(T a, T b) const {
    return detail::truth(a) && detail::truth(b);
  }
};
struct logical_or_loop {
  template <typename T>
  PYK_HD bool operator()(T a, T b) const {
    return detail::truth(a) || detail::truth(b);
  }
};
struct logical_xor_loop {
  template <typename T>
  PYK_HD bool operator()(T a, T b) const {
    return detail::truth(a) != detail::truth(b);
  }
};
struct logical_not_loop {
  template <typename T>
  PYK_HD bool operator()(T a) const {
    return !detail::truth(a);
  }
};

// ---- maximum, minimum (NaN wins), fmax, fmin (NaN loses): numba's npyfuncs -------------------
// `ordered(a, b)` is a >= b for the maxima, a <= b for the minima (numpy's order for complex).
#define PYK_NPY_EXTREMUM(NAME, NAN_WINS, REAL_ORDER, COMPLEX_ORDER)                                \
  struct NAME##_loop {                                                                             \
    template <typename T>                                                                          \
    PYK_HD T operator()(T a, T b) const {                                                          \
      const bool aNan = detail::isNan(a);                                                          \
      if (aNan || detail::isNan(b))                                                                \
        return (aNan == NAN_WINS) ? a : b;                                                         \
      return (REAL_ORDER) ? a : b;                                                                 \
    }                                                                                              \
    template <typename F>                                                                          \
    PYK_HD Complex<F> operator()(Complex<F> a, Complex<F> b) const {                               \
      const bool aNan = detail::isNan(a);                                                          \
      if (aNan || detail::isNan(b))                                                                \
        return (aNan == NAN_WINS) ? a : b;                                                         \
      return (COMPLEX_ORDER) ? a : b;                                                              \
    }                                                                                              \
  };
PYK_NPY_EXTREMUM(maximum, true, a >= b, detail::complexGreater(a, b, true))
PYK_NPY_EXTREMUM(minimum, true, a <= b, detail::complexLess(a, b, true))
PYK_NPY_EXTREMUM(fmax, false, a >= b, detail::complexGreater(a, b, true))
PYK_NPY_EXTREMUM(fmin, false, a <= b, detail::complexLess(a, b, true))
#undef PYK_NPY_EXTREMUM

// ---- bitwise (integers and booleans) ----------------------------------------------------------
#define PYK_NPY_BITWISE(NAME, OP)                                                                  \
  struct NAME##_loop {                                                                             \
    template <typename T>                                                                          \
    PYK_HD T operator()(T a, T b) const {                                                          \
      return static_cast<T>(a OP b);                                                               \
    }                                                                                              \
  };
PYK_NPY_BITWISE(bitwise_and, &)
PYK_NPY_BITWISE(bitwise_or, |)
PYK_NPY_BITWISE(bitwise_xor, ^)
#undef PYK_NPY_BITWISE
struct invert_loop {
  template <typename T>
  PYK_HD T operator()(T a) const {
    if constexpr (pyk::detail::isBool<T>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};
struct bitwise_not_loop : invert_loop {};

// ---- applying a loop --------------------------------------------------------------------------

// The loop on scalars: each operand converted to the loop's input type, the result to its output.
template <typename Out, typename... In, typename Loop, typename... Operands>
PYK_HD Out ufunc_scalar(Loop loop, Operands... operands) {
  static_assert(sizeof...(In) == sizeof...(Operands), "one loop type per operand");
  return static_cast<Out>(loop(static_cast<In>(operands)...));
}

namespace detail {

// Whether an operand fits the output's shape under numpy's broadcasting (a scalar always does).
template <typename X>
PYK_HD bool broadcasts(const X&, const int64*, int) {
  return true;
}
template <typename T, int N, Layout L>
PYK_HD bool broadcasts(const Array<T, N, L>& a, const int64* shape, int rank) {
  for (int d = 0; d < N; ++d) {
    const int64 extent = shape[rank - N + d];
    if (a.shape[d] != 1 && a.shape[d] != extent)
      return false;
  }
  return true;
}

// The operand's element at the output's index `index` (a scalar is itself).
template <typename X>
PYK_HD X elementAt(const X& x, const int64*, int) {
  return x;
}
template <typename T, int N, Layout L>
PYK_HD T& elementAt(const Array<T, N, L>& a, const int64* index, int rank) {
  int64 byteOffset = 0;
  for (int d = 0; d < N; ++d) {
    const int64 i = a.shape[d] == 1 ? 0 : index[rank - N + d];
    if constexpr (L == Layout::A) {
      byteOffset += i * a.strides[d];
    } else {
      (void)i;
    }
  }
  if constexpr (L == Layout::A) {
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + byteOffset);
  } else {
    int64 offset = 0;
    if constexpr (L == Layout::C) {
      for (int d = 0; d < N; ++d)
        offset = offset * a.shape[d] + (a.shape[d] == 1 ? 0 : index[rank - N + d]);
    } else {
      for (int d = N - 1; d >= 0; --d)
        offset = offset * a.shape[d] + (a.shape[d] == 1 ? 0 : index[rank - N + d]);
    }
    return a.data[offset];
  }
}

} // namespace detail

// The loop over an output array: every element of `out` gets the loop of the operands' elements
// at its index (converted to the loop's input types; the result converted to the loop's output
// type, then to out's), in C order. Operands whose shapes do not broadcast to out's leave it as it
// was: numba raises ValueError there, which numba.cuda kernels ignore without debug=True.
template <typename Out, typename... In, typename Loop, typename T, int N, Layout L,
          typename... Operands>
PYK_HD Array<T, N, L> ufunc_arrays(Loop loop, Array<T, N, L> out, Operands... operands) {
  static_assert(sizeof...(In) == sizeof...(Operands), "one loop type per operand");
  if (!(detail::broadcasts(operands, out.shape, N) && ...))
    return out;
  int64 index[N];
  for (int d = 0; d < N; ++d) {
    if (out.shape[d] <= 0)
      return out;
    index[d] = 0;
  }
  for (;;) {
    const Out result =
        static_cast<Out>(loop(static_cast<In>(detail::elementAt(operands, index, N))...));
    detail::elementAt(out, index, N) = static_cast<T>(result);
    int d = N - 1;
    while (d >= 0 && ++index[d] == out.shape[d])
      index[d--] = 0;
    if (d < 0)
      return out;
  }
}

} // namespace pyk::npy
