// numpy_ufuncs_numeric.h: the loop kernels of numpy's rounding, sign, division, remainder, power,
// logaddexp, shift and classification ufuncs (and the real-only math ones: exp2, expm1, log1p,
// cbrt, ...) as numba-cuda compiles them, where integer loops differ from numpy (a zero divisor
// gives 0, MIN // -1 gives 0, np.fmod of integers is the unsigned remainder of the bits). Part of
// numpy_ufuncs.h, which applies them (its header comment says how).
#pragma once

#include "complex.h"
#include "complex_math.h"
#include "math_builtins.h"
#include "python_arithmetic.h"
#include "scalar_types.h"

namespace pyk::npy {

// ---- more math: real loops (and the complex ones numba-cuda has that are one line) -------------
#define PYK_NPY_REAL_MATH(NAME, FLOAT32, FLOAT64)                                                  \
  struct NAME##_loop {                                                                             \
    PYK_HD float operator()(float x) const { return ::FLOAT32(x); }                                \
    PYK_HD double operator()(double x) const { return ::FLOAT64(x); }                              \
  };
PYK_NPY_REAL_MATH(exp2, exp2f, exp2)
PYK_NPY_REAL_MATH(expm1, expm1f, expm1)
PYK_NPY_REAL_MATH(log1p, log1pf, log1p)
PYK_NPY_REAL_MATH(cbrt, cbrtf, cbrt)
PYK_NPY_REAL_MATH(fabs, fabsf, fabs)
PYK_NPY_REAL_MATH(rint, rintf, rint) // half to even (llvm.rint)
#undef PYK_NPY_REAL_MATH

// floor, ceil, trunc: an integer or boolean is itself (numba's identity loops).
#define PYK_NPY_ROUNDING(NAME, FLOAT32, FLOAT64)                                                   \
  struct NAME##_loop {                                                                             \
    PYK_HD float operator()(float x) const { return ::FLOAT32(x); }                                \
    PYK_HD double operator()(double x) const { return ::FLOAT64(x); }                              \
    template <typename T>                                                                          \
    PYK_HD T operator()(T x) const {                                                               \
      return x;                                                                                    \
    }                                                                                              \
  };
PYK_NPY_ROUNDING(floor, floorf, floor)
PYK_NPY_ROUNDING(ceil, ceilf, ceil)
PYK_NPY_ROUNDING(trunc, truncf, trunc)
#undef PYK_NPY_ROUNDING

#define PYK_NPY_REAL_BINARY(NAME, FLOAT32, FLOAT64)                                                \
  struct NAME##_loop {                                                                             \
    PYK_HD float operator()(float x, float y) const { return ::FLOAT32(x, y); }                    \
    PYK_HD double operator()(double x, double y) const { return ::FLOAT64(x, y); }                 \
  };
PYK_NPY_REAL_BINARY(copysign, copysignf, copysign)
PYK_NPY_REAL_BINARY(nextafter, nextafterf, nextafter)
PYK_NPY_REAL_BINARY(float_power, powf, pow)
#undef PYK_NPY_REAL_BINARY

// x * 2**e, the exponent taken as a C int (numba casts an int64 one to intc, wrapping).
struct ldexp_loop {
  template <typename E>
  PYK_HD float operator()(float x, E e) const {
    return ::ldexpf(x, static_cast<int>(e));
  }
  template <typename E>
  PYK_HD double operator()(double x, E e) const {
    return ::ldexp(x, static_cast<int>(e));
  }
};

// The sign bit, a NaN's included.
struct signbit_loop {
  template <typename F>
  PYK_HD bool operator()(F x) const {
    return static_cast<F>(::copysign(1.0, static_cast<double>(x))) < F(0);
  }
};

struct square_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    if constexpr (pyk::detail::isInteger<T>)
      return pyk::detail::wrappingMul(x, x);
    else
      return x * x;
  }
};

// |x|: an integer's wraps at its minimum (numba's int_abs_impl), a complex number's is its
// modulus (hypot), a boolean is itself.
struct absolute_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    if constexpr (pyk::detail::isInteger<T>) {
      if constexpr (pyk::detail::IntTraits<T>::isSigned)
        return x < T(0) ? pyk::detail::wrappingNeg(x) : x;
      else
        return x;
    } else if constexpr (pyk::detail::isFloat<T>) {
      return static_cast<T>(::fabs(static_cast<double>(x)));
    } else {
      return x;
    }
  }
  template <typename F>
  PYK_HD F operator()(Complex<F> z) const {
    return pyk::abs(z);
  }
};

// -1, 0 or 1; a float's NaN or signed zero is itself (numba's real_sign_impl).
struct sign_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    if constexpr (pyk::detail::isFloat<T>)
      return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;
    else if constexpr (pyk::detail::IntTraits<T>::isSigned)
      return x > T(0) ? T(1) : x < T(0) ? T(-1) : T(0);
    else
      return x != T(0) ? T(1) : T(0);
  }
};

struct positive_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    return x;
  }
};

struct conjugate_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    return x;
  }
  template <typename F>
  PYK_HD Complex<F> operator()(Complex<F> z) const {
    return pyk::conjugate(z);
  }
};

// 1 / x; an integer's goes through float64 and back, saturating (1 / 0 is the type's maximum,
// as the GPU converts infinity).
struct reciprocal_loop {
  template <typename T>
  PYK_HD T operator()(T x) const {
    if constexpr (pyk::detail::isInteger<T>)
      return pyk::detail::floatToIntSaturating<T>(1.0 / static_cast<double>(x));
    else
      return T(1) / x;
  }
};

// ---- division and remainders: numba's npyfuncs (an integer divisor of 0 gives 0)
// -----------------
struct divide_loop {
  template <typename T>
  PYK_HD auto operator()(T a, T b) const {
    if constexpr (pyk::detail::isInteger<T>)
      return static_cast<double>(a) / static_cast<double>(b);
    else
      return a / b;
  }
};
struct true_divide_loop : divide_loop {};

// Floored division: integers as numpy's loops (0 for a zero divisor and for MIN // -1); floats
// as numba's np_real_floor_div_impl, floor(a / b).
struct floor_divide_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    if constexpr (pyk::detail::isFloat<T>) {
      if constexpr (sizeof(T) == 4)
        return ::floorf(a / b);
      else
        return ::floor(a / b);
    } else if constexpr (pyk::detail::IntTraits<T>::isSigned) {
      if (b == T(0) || (b == T(-1) && a == pyk::detail::signedMin<T>()))
        return T(0);
      const T q = static_cast<T>(a / b);
      return ((a > T(0)) != (b > T(0)) && static_cast<T>(a % b) != T(0)) ? static_cast<T>(q - 1)
                                                                         : q;
    } else {
      return b == T(0) ? T(0) : static_cast<T>(a / b);
    }
  }
};

// Python's remainder (the divisor's sign): integers 0 for a zero divisor; floats fmod, then the
// divisor added where the signs differ (numba's np_real_mod_impl; a zero divisor gives NaN).
struct remainder_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    if constexpr (pyk::detail::isFloat<T>) {
      const T r = sizeof(T) == 4 ? static_cast<T>(::fmodf(a, b)) : static_cast<T>(::fmod(a, b));
      return (r != T(0) && ((b < T(0)) != (r < T(0)))) ? r + b : r;
    } else if constexpr (pyk::detail::IntTraits<T>::isSigned) {
      if (b == T(0) || b == T(-1))
        return T(0); // MIN % -1 too, which C++ leaves undefined
      const T r = static_cast<T>(a % b);
      return ((a > T(0)) != (b > T(0)) && r != T(0)) ? static_cast<T>(r + b) : r;
    } else {
      return b == T(0) ? T(0) : static_cast<T>(a % b);
    }
  }
};
struct mod_loop : remainder_loop {};

// C's remainder (the dividend's sign) for floats. For integers numba-cuda's np_int_fmod_impl is
// its unsigned remainder, on the operands' bits, for signed types too (fmod(-7, 3) is 0 in int64,
// not numpy's -1); a zero divisor gives 0.
struct fmod_loop {
  PYK_HD float operator()(float a, float b) const { return ::fmodf(a, b); }
  PYK_HD double operator()(double a, double b) const { return ::fmod(a, b); }
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    using U = typename pyk::detail::IntTraits<T>::Unsigned;
    return b == T(0) ? T(0) : static_cast<T>(static_cast<U>(a) % static_cast<U>(b));
  }
};

// ---- powers -----------------------------------------------------------------------------------
// Integers as numba's int_power_impl (the `**` of pyk::ipow: a negative exponent gives 0 unless the
// base is 1 or -1); floats the C library's pow.
struct power_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    if constexpr (pyk::detail::isInteger<T>)
      return pyk::ipow<T, T>(a, b);
    else
      return pyk::fpow(a, b);
  }
};

// ---- logaddexp, logaddexp2: numpy's npy_logaddexp as numba-cuda writes it: log(b^x + b^y) for
// base e (`shift` log 2) or 2 (`shift` 1), `log1pOf(t)` being log_b(1 + b^t) ----------------------
namespace detail {
template <typename F, typename Log1pPow>
PYK_HD F logAddPow(F x, F y, F shift, Log1pPow log1pPow) {
  if (x == y)
    return x + shift; // infinities of one sign too
  const F t = x - y;
  if (t > F(0))
    return x + log1pPow(-t);
  if (t <= F(0))
    return y + log1pPow(t);
  return t; // NaN
}
PYK_HD inline float exp2Of(float x) {
  return ::exp2f(x);
}
PYK_HD inline double exp2Of(double x) {
  return ::exp2(x);
}
} // namespace detail
struct logaddexp_loop {
  template <typename F>
  PYK_HD F operator()(F x, F y) const {
    return detail::logAddPow(x, y, static_cast<F>(0.693147180559945309417232121458176568),
                             [](F t) { return pyk::detail::log1pOf(pyk::detail::expOf(t)); });
  }
};
struct logaddexp2_loop {
  template <typename F>
  PYK_HD F operator()(F x, F y) const {
    return detail::logAddPow(x, y, F(1), [](F t) {
      return static_cast<F>(1.442695040888963407359924681001892137) *
             pyk::detail::log1pOf(detail::exp2Of(t));
    });
  }
};

// ---- shifts: pyk::shl / shr, as numba's int_shl_impl / int_shr_impl -----------------------------
struct left_shift_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    return pyk::shl(a, b);
  }
};
struct right_shift_loop {
  template <typename T>
  PYK_HD T operator()(T a, T b) const {
    return pyk::shr(a, b);
  }
};

// ---- classification ---------------------------------------------------------------------------
#define PYK_NPY_CLASSIFY(NAME, FLOAT, INTEGER, COMPLEX)                                            \
  struct NAME##_loop {                                                                             \
    template <typename T>                                                                          \
    PYK_HD bool operator()(T x) const {                                                            \
      if constexpr (pyk::detail::isFloat<T>)                                                       \
        return FLOAT;                                                                              \
      else                                                                                         \
        return INTEGER;                                                                            \
    }                                                                                              \
    template <typename F>                                                                          \
    PYK_HD bool operator()(Complex<F> z) const {                                                   \
      return COMPLEX;                                                                              \
    }                                                                                              \
  };
PYK_NPY_CLASSIFY(isnan, x != x, false, pyk::cisnan(z))
PYK_NPY_CLASSIFY(isinf, x == x && x - x != x - x, false, pyk::cisinf(z))
PYK_NPY_CLASSIFY(isfinite, x - x == x - x, true, pyk::cisfinite(z))
#undef PYK_NPY_CLASSIFY

} // namespace pyk::npy
