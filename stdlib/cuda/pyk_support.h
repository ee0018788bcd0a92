// pyk_support.h: the runtime support every emitted translation unit includes (numba semantics).
//
// Compiles in two worlds: under NVRTC/nvcc as device code (no standard headers, only the CUDA math
// builtins NVRTC provides without includes) and under a host C++17 compiler, where PYK_HD is empty
// (the CPU backend reuses it). Every helper reproduces what numba.cuda computes, which is not
// always what CUDA C++ or Python compute; each comment names numba's implementation it follows
// (numba/cpython/numbers.py, numba/cpython/builtins.py, numba/cuda/printimpl.py).
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PYK_CUDA 1
#define PYK_HD __host__ __device__
#define PYK_SHARED __shared__
#else
#define PYK_CUDA 0
#define PYK_HD
#define PYK_SHARED
#include <cmath>
#include <cstdio>
// Generated code calls the classification functions unqualified, as CUDA C++ spells them.
using std::isfinite;
using std::isinf;
using std::isnan;
#endif

// numba's print is one printf (vprintf on the device) per call.
#define PYK_PRINTF printf

namespace pyk {

// ---- numba's scalar types ------------------------------------------------------------------
using int8 = signed char;
using int16 = short;
using int32 = int;
using int64 = long long;
using uint8 = unsigned char;
using uint16 = unsigned short;
using uint32 = unsigned int;
using uint64 = unsigned long long;
using intp = int64;
using uintp = uint64;
using float32 = float;
using float64 = double;
using boolean = bool;

static_assert(sizeof(int8) == 1 && sizeof(int16) == 2 && sizeof(int32) == 4 && sizeof(int64) == 8,
              "pyk needs 8/16/32/64-bit integers");
static_assert(sizeof(float32) == 4 && sizeof(float64) == 8, "pyk needs IEEE binary32/binary64");

namespace detail {

// A few type traits, written out because NVRTC offers no <type_traits> without include paths.
template <typename T>
struct IntTraits {
  static constexpr bool isInteger = false;
};
#define PYK_INT_TRAITS(T, U, SIGNED, BITS)                                                         \
  template <>                                                                                      \
  struct IntTraits<T> {                                                                            \
    static constexpr bool isInteger = true;                                                        \
    static constexpr bool isSigned = SIGNED;                                                       \
    static constexpr int bits = BITS;                                                              \
    using Unsigned = U;                                                                            \
  };
PYK_INT_TRAITS(signed char, unsigned char, true, 8)
PYK_INT_TRAITS(short, unsigned short, true, 16)
PYK_INT_TRAITS(int, unsigned int, true, 32)
PYK_INT_TRAITS(long, unsigned long, true, 8 * sizeof(long))
PYK_INT_TRAITS(long long, unsigned long long, true, 64)
PYK_INT_TRAITS(unsigned char, unsigned char, false, 8)
PYK_INT_TRAITS(unsigned short, unsigned short, false, 16)
PYK_INT_TRAITS(unsigned int, unsigned int, false, 32)
PYK_INT_TRAITS(unsigned long, unsigned long, false, 8 * sizeof(long))
PYK_INT_TRAITS(unsigned long long, unsigned long long, false, 64)
#undef PYK_INT_TRAITS

template <typename T>
inline constexpr bool isInteger = IntTraits<T>::isInteger;
template <typename T>
inline constexpr bool isSignedInteger = IntTraits<T>::isInteger&& IntTraits<T>::isSigned;
template <typename T>
inline constexpr bool isFloat = false;
template <>
inline constexpr bool isFloat<float> = true;
template <>
inline constexpr bool isFloat<double> = true;
template <typename T>
inline constexpr bool isBool = false;
template <>
inline constexpr bool isBool<bool> = true;

// The smallest value of a signed integer type, -2**(bits-1).
template <typename T>
PYK_HD constexpr T signedMin() {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(U(1) << (IntTraits<T>::bits - 1)));
}

// Wrapping integer arithmetic (numba's add/sub/mul wrap; C++ signed overflow is undefined).
template <typename T>
PYK_HD constexpr T wrappingMul(T a, T b) {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <typename T>
PYK_HD constexpr T wrappingNeg(T a) {
  using U = typename IntTraits<T>::Unsigned;
  return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a)));
}

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

template <typename F>
PYK_HD constexpr bool isInf(F x) {
  return x - x != x - x && x == x; // inf - inf is nan; nan itself is excluded
}

// Float to integer as the GPU converts (PTX cvt.rzi saturates, NaN gives 0). numba's fptosi /
// fptoui of an out-of-range value is undefined in LLVM; on the device it is this.
template <typename T, typename F>
PYK_HD constexpr T floatToIntSaturating(F x) {
  if (x != x)
    return 0;
  if constexpr (IntTraits<T>::isSigned) {
    const double lowest = -static_cast<double>(static_cast<typename IntTraits<T>::Unsigned>(1)
                                               << (IntTraits<T>::bits - 1));
    if (static_cast<double>(x) < lowest)
      return signedMin<T>();
    if (static_cast<double>(x) >= -lowest)
      return static_cast<T>(~static_cast<typename IntTraits<T>::Unsigned>(signedMin<T>()));
  } else {
    if (x <= F(0))
      return 0;
    const double limit = 2.0 * static_cast<double>(T(1) << (IntTraits<T>::bits - 1));
    if (static_cast<double>(x) >= limit)
      return static_cast<T>(~T(0));
  }
  return static_cast<T>(x);
}

} // namespace detail

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

// round(x) -> int64: rint (half to even), then the float-to-int conversion.
template <typename F>
PYK_HD int64 round_half_even(F x) {
  static_assert(detail::isFloat<F>, "pyk::round_half_even takes a float");
  return detail::floatToIntSaturating<int64>(detail::rintOf(x));
}

// round(x, ndigits) -> float, as numba's round_ndigits (scaled rint; inf/nan pass through).
template <typename F>
PYK_HD F round_ndigits(F x, int64 ndigits) {
  static_assert(detail::isFloat<F>, "pyk::round_ndigits takes a float");
  if (detail::isInf(x) || x != x)
    return x;
  if (ndigits >= 0) {
    double pow1, pow2;
    if (ndigits > 22) {
      pow1 = fpowi(10.0, ndigits - 22);
      pow2 = 1e22;
    } else {
      pow1 = fpowi(10.0, ndigits);
      pow2 = 1.0;
    }
    const double y = (static_cast<double>(x) * pow1) * pow2;
    if (detail::isInf(y))
      return x;
    return static_cast<F>((static_cast<double>(detail::rintOf(static_cast<F>(y))) / pow2) / pow1);
  }
  const double pow1 = fpowi(10.0, -ndigits);
  const double y = static_cast<double>(x) / pow1;
  return static_cast<F>(static_cast<double>(detail::rintOf(static_cast<F>(y))) * pow1);
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

// ---- print -------------------------------------------------------------------------------------

// numba's print: one printf whose items are joined by spaces and ended by a newline; ints as %lld
// (signed) or %llu (unsigned) of the value widened to 64 bits, floats as %f of the value as
// float64, bools as True/False (%s), strings as %s.
template <typename T>
PYK_HD constexpr const char* print_format() {
  if constexpr (detail::isBool<T>)
    return "%s";
  else if constexpr (detail::isFloat<T>)
    return "%f";
  else if constexpr (detail::IntTraits<T>::isSigned)
    return "%lld";
  else
    return "%llu";
}

PYK_HD inline const char* print_arg(bool value) {
  return value ? "True" : "False";
}
PYK_HD inline double print_arg(float value) {
  return static_cast<double>(value);
}
PYK_HD inline double print_arg(double value) {
  return value;
}
PYK_HD inline const char* print_arg(const char* value) {
  return value;
}
template <typename T>
PYK_HD auto print_arg(T value) {
  static_assert(detail::isInteger<T>, "print takes numbers, bools and constant strings");
  if constexpr (detail::IntTraits<T>::isSigned)
    return static_cast<long long>(value);
  else
    return static_cast<unsigned long long>(value);
}

// ---- arrays ------------------------------------------------------------------------------------

// A signed index the compiler proved non-negative (a thread index, a shape, a `range` counter
// from 0...), as an unsigned one: the access skips Python's wrap of negative indices, which keeps
// it affine in the thread index (the CPU backend's loops vectorise) and saves a compare on GPUs.
template <typename T>
PYK_HD uint64 nonneg(T index) {
  return static_cast<uint64>(static_cast<int64>(index));
}

// `cuda.cg.this_grid()`: the whole grid as a group; its one operation, `.sync()`, is emitted as
// grid_sync() (below for CUDA, pyk_cpu_support.h's for the CPU).
struct GridGroup {};

// numba's array layouts: C-contiguous ([::1] last), F-contiguous ([::1] first), any (strided).
enum class Layout { C, F, A };

// An array argument as numba passes it: data pointer, shape, strides in bytes. Indexing takes one
// integer per dimension; negative signed indices wrap (a[-1] is the last element), unsigned ones
// do not, as numba's fix_integer_index. Contiguous layouts index from the shape, ignoring strides.
template <typename T, int N, Layout L = Layout::A>
struct Array {
  static_assert(N >= 1, "pyk::Array needs at least one dimension");
  static constexpr int ndim = N;
  static constexpr Layout layout = L;
  using value_type = T;

  T* data;
  int64 shape[N];
  int64 strides[N]; // bytes

  PYK_HD int64 size() const {
    int64 count = 1;
    for (int d = 0; d < N; ++d)
      count *= shape[d];
    return count;
  }

  template <typename... I>
  PYK_HD T* element_pointer(I... indices) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    int64 index[N] = {static_cast<int64>(indices)...};
    const bool isSigned[N] = {detail::IntTraits<I>::isSigned...};
    for (int d = 0; d < N; ++d)
      if (isSigned[d] && index[d] < 0)
        index[d] += shape[d];
    if constexpr (L == Layout::C) {
      int64 offset = 0;
      for (int d = 0; d < N; ++d)
        offset = offset * shape[d] + index[d];
      return data + offset;
    } else if constexpr (L == Layout::F) {
      int64 offset = 0;
      for (int d = N - 1; d >= 0; --d)
        offset = offset * shape[d] + index[d];
      return data + offset;
    } else {
      int64 byteOffset = 0;
      for (int d = 0; d < N; ++d)
        byteOffset += index[d] * strides[d];
      return reinterpret_cast<T*>(reinterpret_cast<char*>(data) + byteOffset);
    }
  }

  template <typename... I>
  PYK_HD T& operator()(I... indices) const {
    return *element_pointer(indices...);
  }
};

} // namespace pyk

// ---- device-only: atomics, lanes, tuples, layouts -----------------------------------------

namespace pyk {

// A negative tuple index counts from the end, as in Python.
PYK_HD inline int64 tuple_index(int64 i, int64 n) {
  return i < 0 ? i + n : i;
}

// The same array seen with another layout parameter (a C or F array is also an A array: numba
// unifies such variables to A). Shape and strides are kept; strides are always filled in.
template <Layout To, typename T, int N, Layout From>
PYK_HD Array<T, N, To> as_layout(const Array<T, N, From>& a) {
  Array<T, N, To> out{a.data, {}, {}};
  for (int d = 0; d < N; ++d) {
    out.shape[d] = a.shape[d];
    out.strides[d] = a.strides[d];
  }
  return out;
}

// `a.T`: the dimensions reversed (shape and strides); a C array becomes an F array and back.
template <Layout To, typename T, int N, Layout From>
PYK_HD Array<T, N, To> transpose(const Array<T, N, From>& a) {
  Array<T, N, To> out{a.data, {}, {}};
  for (int d = 0; d < N; ++d) {
    out.shape[d] = a.shape[N - 1 - d];
    out.strides[d] = a.strides[N - 1 - d];
  }
  return out;
}

#if PYK_CUDA
// numba.cuda.laneid and lanemask_lt read PTX's special registers.
__device__ inline int32 laneid() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return static_cast<int32>(lane);
}
__device__ inline uint32 lanemask_lt() {
  unsigned int mask;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

namespace detail {
// CUDA's 64-bit integer atomics take unsigned long long; numba's element type is kept outside.
template <typename T>
__device__ auto* atomicWord(T* p) {
  if constexpr (sizeof(T) == 8 && isInteger<T>)
    return reinterpret_cast<unsigned long long*>(p);
  else
    return p;
}
template <typename T>
__device__ auto atomicValue(T v) {
  if constexpr (sizeof(T) == 8 && isInteger<T>)
    return static_cast<unsigned long long>(v);
  else
    return v;
}
} // namespace detail

// cuda.atomic.*: each returns the old value, in numba's element type.
template <typename T>
__device__ T atomic_add(T* p, T v) {
  return static_cast<T>(atomicAdd(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_sub(T* p, T v) {
  if constexpr (detail::isFloat<T> || sizeof(T) == 8)
    return static_cast<T>(
        atomicAdd(detail::atomicWord(p), detail::atomicValue(static_cast<T>(-v))));
  else
    return static_cast<T>(atomicSub(p, v));
}
template <typename T>
__device__ T atomic_max(T* p, T v) {
  if constexpr (sizeof(T) == 8 && detail::isSignedInteger<T>)
    return static_cast<T>(atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
  else
    return static_cast<T>(atomicMax(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_min(T* p, T v) {
  if constexpr (sizeof(T) == 8 && detail::isSignedInteger<T>)
    return static_cast<T>(atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
  else
    return static_cast<T>(atomicMin(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_and(T* p, T v) {
  return static_cast<T>(atomicAnd(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_or(T* p, T v) {
  return static_cast<T>(atomicOr(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_xor(T* p, T v) {
  return static_cast<T>(atomicXor(detail::atomicWord(p), detail::atomicValue(v)));
}
template <typename T>
__device__ T atomic_exch(T* p, T v) {
  return static_cast<T>(atomicExch(detail::atomicWord(p), detail::atomicValue(v)));
}
// inc/dec with CUDA's wrap: inc gives 0 once the old value reaches `limit`, dec gives `limit`
// at 0 or above it (uint32 only: CUDA has no 64-bit atomicInc/atomicDec).
__device__ inline uint32 atomic_inc(uint32* p, uint32 limit) {
  return atomicInc(p, limit);
}
__device__ inline uint32 atomic_dec(uint32* p, uint32 limit) {
  return atomicDec(p, limit);
}
// Float max/min and 64-bit inc/dec have no CUDA atomic: a compare-and-swap loop on the bits,
// with numba's NaN rules. max/min: NaN in memory stays, a NaN operand leaves memory unchanged
// (a comparison with NaN is false); nanmax/nanmin treat NaN as missing on either side.
namespace detail {
template <int Bytes>
struct AtomicBits;
template <>
struct AtomicBits<4> {
  using type = unsigned int;
};
template <>
struct AtomicBits<8> {
  using type = unsigned long long;
};
template <typename T, typename Update>
__device__ T atomicUpdate(T* p, Update update) {
  using Bits = typename AtomicBits<sizeof(T)>::type;
  Bits* word = reinterpret_cast<Bits*>(p);
  Bits old = *word, assumed;
  do {
    assumed = old;
    T current;
    memcpy(&current, &assumed, sizeof(T));
    T next = update(current);
    Bits nextBits;
    memcpy(&nextBits, &next, sizeof(T));
    if (nextBits == assumed)
      break;
    old = atomicCAS(word, assumed, nextBits);
  } while (old != assumed);
  T result;
  memcpy(&result, &old, sizeof(T));
  return result;
}
} // namespace detail
template <typename T>
__device__ T atomic_fmax(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) { return current < v ? v : current; });
}
template <typename T>
__device__ T atomic_fmin(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) { return v < current ? v : current; });
}
template <typename T>
__device__ T atomic_nanmax(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || current < v ? (v != v ? current : v) : current;
  });
}
template <typename T>
__device__ T atomic_nanmin(T* p, T v) {
  return detail::atomicUpdate(p, [v](T current) {
    return current != current || v < current ? (v != v ? current : v) : current;
  });
}
__device__ inline uint64 atomic_inc(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current >= limit ? 0ULL : current + 1; });
}
__device__ inline uint64 atomic_dec(uint64* p, uint64 limit) {
  return detail::atomicUpdate(
      p, [limit](uint64 current) { return current == 0 || current > limit ? limit : current - 1; });
}

// Dynamic shared memory (`cuda.shared.array(0, T)`): one buffer that every such array aliases;
// its length comes from the launch's shared-memory size, as numba-cuda reads it.
extern __shared__ __align__(16) unsigned char pyk_dynamic_shared[];
__device__ inline uint32 dynamic_shared_bytes() {
  unsigned int bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}
template <typename T>
__device__ Array<T, 1, Layout::C> dynamic_shared_array() {
  return {reinterpret_cast<T*>(pyk_dynamic_shared),
          {static_cast<int64>(dynamic_shared_bytes() / sizeof(T))},
          {static_cast<int64>(sizeof(T))}};
}

template <typename T>
__device__ T atomic_cas(T* p, T expected, T desired) {
  return static_cast<T>(atomicCAS(detail::atomicWord(p), detail::atomicValue(expected),
                                  detail::atomicValue(desired)));
}

// ---- grid synchronisation ----------------------------------------------------------------------

// The grid barrier's state, one per module (zero when the module loads). `count` blocks have
// arrived at the current barrier; `generation` counts completed barriers, so the state is
// reusable barrier after barrier and launch after launch.
__device__ unsigned int pyk_grid_barrier_count;
__device__ volatile unsigned int pyk_grid_barrier_generation;

// `g.sync()`: every thread of the grid waits until all have arrived, and memory written before
// is visible after (CUDA's grid.sync()). The kernel must be launched cooperatively (every block
// resident at once, cuLaunchCooperativeKernel): codegen marks such kernels
// (EmittedUnit::cooperative) for the launcher; numba's cudaCGSynchronize needs the same. One thread
// per block arrives for its block: it reads the generation, arrives, and the last block to arrive
// resets the count and starts the next generation while the others spin on the generation.
__device__ inline void grid_sync() {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    const unsigned int generation = pyk_grid_barrier_generation;
    __threadfence();
    if (atomicAdd(&pyk_grid_barrier_count, 1u) == blocks - 1) {
      atomicExch(&pyk_grid_barrier_count, 0u);
      __threadfence();
      atomicAdd(const_cast<unsigned int*>(&pyk_grid_barrier_generation), 1u);
    } else {
      while (pyk_grid_barrier_generation == generation) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

#endif

} // namespace pyk

namespace pyk {

// Python's slice.indices(length) for a[start:stop:step], as numba slices arrays: missing parts
// default by the step's sign, negative ones count from the end, all clamp to the array. A zero
// step is a ValueError in numba (only observable with debug=True); here it gives an empty view.
struct SliceRange {
  int64 start;
  int64 length;
  int64 step;
};
PYK_HD inline SliceRange slice_range(int64 length, bool hasStart, int64 start, bool hasStop,
                                     int64 stop, bool hasStep, int64 step) {
  if (!hasStep)
    step = 1;
  if (step == 0)
    return {0, 0, 1};
  const int64 lower = step < 0 ? -1 : 0;
  const int64 upper = step < 0 ? length - 1 : length;
  auto clamp = [&](int64 v) {
    if (v < 0) {
      v += length;
      return v < lower ? lower : v;
    }
    return v > upper ? upper : v;
  };
  start = hasStart ? clamp(start) : (step < 0 ? upper : lower);
  stop = hasStop ? clamp(stop) : (step < 0 ? lower : upper);
  int64 count = 0;
  if (step > 0 && start < stop)
    count = (stop - start + step - 1) / step;
  else if (step < 0 && stop < start)
    count = (start - stop - step - 1) / (-step);
  return {start, count, step};
}

} // namespace pyk

// ---- complex numbers ---------------------------------------------------------------------------

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

namespace detail {
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

namespace pyk {

// a[i] of an N-dimensional array as an (N-1)-dimensional strided view: the core arguments a
// gufunc kernel hands its function, one loop index per thread.
template <typename T, int N, Layout L>
PYK_HD Array<T, N - 1, Layout::A> first_index_view(const Array<T, N, L>& a, int64 i) {
  Array<T, N - 1, Layout::A> out{};
  out.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + i * a.strides[0]);
  for (int d = 1; d < N; ++d) {
    out.shape[d - 1] = a.shape[d];
    out.strides[d - 1] = a.strides[d];
  }
  return out;
}

} // namespace pyk
