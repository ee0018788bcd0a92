// python_arithmetic.h: Python's arithmetic as numba computes it, where C++'s differs: floor
// division, modulo, true division, powers, rounding, shifts, min, max and abs.
#pragma once

#include "math_builtins.h"
#include "scalar_types.h"

namespace pyk {

// ---- Python floor division and modulo --------------------------------------------------------

// Python's float divmod as numba implements it (real_divmod_func_body, a port of CPython's
// float_divmod): the remainder takes the divisor's sign, the quotient is snapped to an integer.
// The divisor must not be zero (see floordiv/mod for that case).
template <typename F>
struct FloatDivmod {
  F quotient;
  F remainder;
};

template <typename F>
PYK_HD FloatDivmod<F> floatDivmodNonzero(F vx, F wx) {
  F mod = detail::fmodOf(vx, wx);
  F div = (vx - mod) / wx;
  if (!(mod == F(0))) { // non-zero or nan
    if ((wx < F(0)) != (mod < F(0))) {
      mod += wx;
      div -= F(1);
    }
  } else {
    mod = wx < F(0) ? F(-0.0) : F(0.0);
  }
  F floordiv;
  if (div != F(0) && div == div) {
    floordiv = detail::floorOf(div);
    if (div - floordiv > F(0.5))
      floordiv += F(1);
  } else {
    div = div * div;
    floordiv = div * vx / wx; // zero (or nan) with the sign of vx / wx
  }
  return {floordiv, mod};
}

// a // b. Integers: floor toward -inf; b == 0 gives 0 (numba's "numpy" error model, the CUDA
// default); the overflowing MIN // -1 gives 0 (int_divmod_signed). Floats: Python's float floor
// division; b == 0 gives a / b (inf or nan) as numba does instead of raising.
template <typename T>
PYK_HD T floordiv(T a, T b) {
  if constexpr (detail::isFloat<T>) {
    if (b == T(0))
      return a / b;
    return floatDivmodNonzero(a, b).quotient;
  } else {
    static_assert(detail::isInteger<T>, "pyk::floordiv takes two integers or two floats");
    if (b == 0)
      return 0;
    if constexpr (detail::IntTraits<T>::isSigned) {
      if (a == detail::signedMin<T>() && b == T(-1))
        return 0;
      T quotient = static_cast<T>(a / b);
      T remainder = static_cast<T>(a % b);
      if (remainder != 0 && ((b ^ remainder) < 0))
        --quotient;
      return quotient;
    } else {
      return static_cast<T>(a / b);
    }
  }
}

// a % b. Integers: the result has the divisor's sign; b == 0 gives 0; MIN % -1 gives 0.
// Floats: Python's float modulo (math.fmod based, sign of the divisor); b == 0 gives nan.
template <typename T>
PYK_HD T mod(T a, T b) {
  if constexpr (detail::isFloat<T>) {
    if (b == T(0))
      return detail::fmodOf(a, b);
    return floatDivmodNonzero(a, b).remainder;
  } else {
    static_assert(detail::isInteger<T>, "pyk::mod takes two integers or two floats");
    if (b == 0)
      return 0;
    if constexpr (detail::IntTraits<T>::isSigned) {
      if (a == detail::signedMin<T>() && b == T(-1))
        return 0;
      T remainder = static_cast<T>(a % b);
      if (remainder != 0 && ((b ^ remainder) < 0))
        remainder = static_cast<T>(remainder + b);
      return remainder;
    } else {
      return static_cast<T>(a % b);
    }
  }
}

// a / b. Integers give float64 (x / 0 is inf, -inf or nan); floats divide in their own precision.
template <typename T>
PYK_HD auto truediv(T a, T b) {
  if constexpr (detail::isFloat<T>) {
    return a / b;
  } else {
    static_assert(detail::isInteger<T>, "pyk::truediv takes two integers or two floats");
    return static_cast<double>(a) / static_cast<double>(b);
  }
}

// ---- powers ------------------------------------------------------------------------------------

namespace detail {
// numba's int_power_impl: `base ** exponent` for an integer exponent, in the result type T (an
// integer or a float). Exponents beyond 0x10000 go through math.pow.
template <typename T, typename E>
PYK_HD T powerByIntExponent(T base, E exponent) {
  static_assert(isInteger<E>, "the exponent must be an integer");
  bool invert = false;
  uint64 magnitude;
  if (IntTraits<E>::isSigned && exponent < 0) {
    invert = true;
    const int64 wide = static_cast<int64>(exponent);
    if (wide == signedMin<int64>())
      return T(0); // numba raises OverflowError, which only debug=True kernels observe
    magnitude = static_cast<uint64>(-wide);
    if constexpr (isInteger<T>) {
      if (base == 0) // 0 ** negative: 0x8000... under the "numpy" error model
        return signedMin<T>();
      if (base != T(1) && base != T(-1))
        return T(0);
    }
  } else {
    magnitude = static_cast<uint64>(exponent);
  }
  if (magnitude > 0x10000) {
    const double viaPow = powOf(static_cast<double>(base), static_cast<double>(exponent));
    if constexpr (isInteger<T>)
      return floatToIntSaturating<T>(viaPow);
    else
      return static_cast<T>(viaPow);
  }
  T result = T(1);
  T square = base;
  while (magnitude != 0) {
    if (magnitude & 1u) {
      if constexpr (isInteger<T>)
        result = wrappingMul(result, square);
      else
        result *= square;
    }
    magnitude >>= 1;
    if constexpr (isInteger<T>)
      square = wrappingMul(square, square);
    else
      square *= square;
  }
  // numba's helper returns `1.0 / r if invert else r`, so its result type unifies to float64: an
  // integer result goes through float64 and back (3 ** 39 is 4052555153018976256, not ...267).
  const double unified = invert ? 1.0 / static_cast<double>(result) : static_cast<double>(result);
  if constexpr (isInteger<T>)
    return floatToIntSaturating<T>(unified);
  else
    return invert ? static_cast<T>(unified) : result;
}
} // namespace detail

// int ** int in numba: the (widened) integer type; a negative exponent gives 0 unless the base is
// 1 or -1, and 0 ** negative gives INT64_MIN (no ZeroDivisionError outside debug=True). The
// product wraps, then passes through float64 (numba's quirk), so big results lose low bits.
template <typename T, typename E>
PYK_HD T ipow(T base, E exponent) {
  static_assert(detail::isInteger<T>, "pyk::ipow takes an integer base");
  return detail::powerByIntExponent<T, E>(base, exponent);
}

// float ** int (numba keeps float32 ** int in float32): repeated squaring, 1.0 / r for negative.
template <typename F, typename E>
PYK_HD F fpowi(F base, E exponent) {
  static_assert(detail::isFloat<F>, "pyk::fpowi takes a float base");
  return detail::powerByIntExponent<F, E>(base, exponent);
}

// float ** float: the C library pow (llvm.pow / libdevice pow, powf).
template <typename F>
PYK_HD F fpow(F base, F exponent) {
  static_assert(detail::isFloat<F>, "pyk::fpow takes floats");
  return detail::powOf(base, exponent);
}

// ---- rounding ----------------------------------------------------------------------------------

// round(x) -> int64: numba.cuda's ptx_round, libdevice's llrint of x as a float64 (half to even;
// the GPU's conversion saturates out of range and gives 0 for NaN).
template <typename F>
PYK_HD int64 round_half_even(F x) {
  static_assert(detail::isFloat<F>, "pyk::round_half_even takes a float");
  return detail::floatToIntSaturating<int64>(detail::rintOf(static_cast<double>(x)));
}

// round(x, ndigits) -> float, numba.cuda's round_to_impl (CPython's fallback double_round). numba
// types its locals float64 whatever x is (`y = x * pow1` with pow1 = 10.0 ** ndigits), so a float32
// x is scaled, rounded and unscaled in float64 and rounded to float32 once, at the end; `round(y)`
// is round_half_even's int64, so a huge y saturates as on the GPU.
template <typename F>
PYK_HD F round_ndigits(F x, int64 ndigits) {
  static_assert(detail::isFloat<F>, "pyk::round_ndigits takes a float");
  if (detail::isInf(x) || x != x)
    return x;
  double pow1;
  double pow2 = 1.0;
  double y;
  if (ndigits >= 0) {
    if (ndigits > 22) {
      pow1 = fpowi(10.0, ndigits - 22);
      pow2 = 1e22;
    } else {
      pow1 = fpowi(10.0, ndigits);
    }
    y = (static_cast<double>(x) * pow1) * pow2;
    if (detail::isInf(y))
      return x;
  } else {
    pow1 = fpowi(10.0, -ndigits);
    y = static_cast<double>(x) / pow1;
  }
  double z = static_cast<double>(round_half_even(y));
  if (detail::fabsOf(y - z) == 0.5) // halfway between two integers: round half to even
    z = 2.0 * static_cast<double>(round_half_even(y / 2.0));
  if (ndigits >= 0)
    z = (z / pow2) / pow1;
  else
    z *= pow1;
  return static_cast<F>(z);
}

// ---- shifts ------------------------------------------------------------------------------------

// value << count and value >> count in the (widened) type T; >> is arithmetic for signed T.
// numba emits LLVM shl/ashr/lshr, undefined for counts >= the width; on the GPU a runtime count is
// truncated to 32 bits and PTX clamps it at the width. These helpers reproduce the GPU: a count
// (as uint32) >= the width shifts everything out (0, or -1 for a negative value shifted right).
template <typename T, typename C>
PYK_HD T shl(T value, C count) {
  static_assert(detail::isInteger<T> && detail::isInteger<C>, "pyk::shl takes integers");
  using U = typename detail::IntTraits<T>::Unsigned;
  const uint32 amount = static_cast<uint32>(static_cast<T>(count));
  if (amount >= static_cast<uint32>(detail::IntTraits<T>::bits))
    return T(0);
  return static_cast<T>(static_cast<U>(static_cast<U>(value) << amount));
}

template <typename T, typename C>
PYK_HD T shr(T value, C count) {
  static_assert(detail::isInteger<T> && detail::isInteger<C>, "pyk::shr takes integers");
  const uint32 amount = static_cast<uint32>(static_cast<T>(count));
  if (amount >= static_cast<uint32>(detail::IntTraits<T>::bits)) {
    if constexpr (detail::IntTraits<T>::isSigned)
      return value < 0 ? T(-1) : T(0);
    else
      return T(0);
  }
  return static_cast<T>(value >> amount); // >> of a negative signed value is arithmetic (C++20,
                                          // and every CUDA/host compiler before it)
}

// ---- min, max, abs -----------------------------------------------------------------------------

// Python's max(a, b) / min(a, b) as numba's do_minmax: b replaces a only if strictly greater
// (smaller), so ties keep the first and nan handling follows the comparison. Both operands must
// already have the unified type (numba casts first), so there is no signed/unsigned comparison.
template <typename T>
PYK_HD T max(T a, T b) {
  return b > a ? b : a;
}
template <typename T>
PYK_HD T min(T a, T b) {
  return b < a ? b : a;
}

// abs(x): integers wrap (abs(INT64_MIN) is INT64_MIN), unsigned is the identity, floats fabs.
template <typename T>
PYK_HD T abs(T x) {
  if constexpr (detail::isFloat<T>) {
    return detail::fabsOf(x);
  } else {
    static_assert(detail::isInteger<T>, "pyk::abs takes a number");
    if constexpr (detail::IntTraits<T>::isSigned)
      return x < 0 ? detail::wrappingNeg(x) : x;
    else
      return x;
  }
}

} // namespace pyk
