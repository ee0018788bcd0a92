// SupportHeaderTest: stdlib/cuda/pyk_support.h compiled as host code against numba's results.
//
// Expected values were computed with Debian's numba 0.56.4 (/usr/bin/python3, CPU @njit with
// error_model='numpy', the CUDA target's default), unless a comment says otherwise; see each block.
#include "cuda/pyk_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

using pyk::int32;
using pyk::int64;
using pyk::uint64;

constexpr int64 kInt64Min = std::numeric_limits<int64>::min();
constexpr int64 kInt64Max = std::numeric_limits<int64>::max();
constexpr uint64 kUint64Max = std::numeric_limits<uint64>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Same value, including the sign of zero; any nan matches nan.
template <typename F>
::testing::AssertionResult samePythonFloat(F actual, F expected) {
  if (std::isnan(expected)) {
    if (std::isnan(actual))
      return ::testing::AssertionSuccess();
  } else if (actual == expected && std::signbit(actual) == std::signbit(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << actual << (std::signbit(actual) ? " (neg)" : "")
                                       << ", numba gives " << expected;
}

// int64 a // b and a % b.
// numba: for a, b in cases: fd(np.int64(a), np.int64(b)), md(np.int64(a), np.int64(b))
TEST(SupportHeader, Int64FloorDivisionAndModulo) {
  struct Case {
    int64 a, b, quotient, remainder;
  };
  const Case cases[] = {
      {7, 2, 3, 1},
      {-7, 2, -4, 1},
      {7, -2, -4, -1},
      {-7, -2, 3, -1},
      {6, -3, -2, 0},
      {-6, 3, -2, 0},
      {7, 0, 0, 0}, // division by zero gives 0 (error_model='numpy')
      {-7, 0, 0, 0},
      {0, 0, 0, 0},
      {kInt64Min, -1, 0, 0}, // the overflowing case: numba returns (0, 0), Python 2**63
      {kInt64Min, 1, kInt64Min, 0},
      {kInt64Min, kInt64Max, -2, 9223372036854775806},
      {kInt64Max, -1, -9223372036854775807, 0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(pyk::floordiv(c.a, c.b), c.quotient) << c.a << " // " << c.b;
    EXPECT_EQ(pyk::mod(c.a, c.b), c.remainder) << c.a << " % " << c.b;
  }
}

// Narrower signed types floor the same way; numba itself widens int32 // int32 to int64 first,
// so emitted code calls these with int64, but the helpers are exact for every width.
TEST(SupportHeader, Int32FloorDivisionAndModulo) {
  EXPECT_EQ(pyk::floordiv<int32>(-7, 2), -4);
  EXPECT_EQ(pyk::mod<int32>(-7, 2), 1);
  EXPECT_EQ(pyk::floordiv<int32>(7, 0), 0);
  EXPECT_EQ(pyk::mod<int32>(7, 0), 0);
  EXPECT_EQ(pyk::floordiv<int32>(std::numeric_limits<int32>::min(), -1), 0);
  EXPECT_EQ(pyk::floordiv<pyk::int8>(-128, -1), 0);
  EXPECT_EQ(pyk::mod<pyk::int8>(-7, 3), 2);
}

// numba: fd(np.uint64(a), np.uint64(b)), md(np.uint64(a), np.uint64(b))
TEST(SupportHeader, Uint64FloorDivisionAndModulo) {
  EXPECT_EQ(pyk::floordiv<uint64>(7, 2), 3u);
  EXPECT_EQ(pyk::mod<uint64>(7, 2), 1u);
  EXPECT_EQ(pyk::floordiv<uint64>(kUint64Max, 2), 9223372036854775807u);
  EXPECT_EQ(pyk::mod<uint64>(kUint64Max, 2), 1u);
  EXPECT_EQ(pyk::floordiv<uint64>(7, 0), 0u);
  EXPECT_EQ(pyk::mod<uint64>(7, 0), 0u);
  EXPECT_EQ(pyk::floordiv<uint64>(kUint64Max, 9223372036854775808u), 1u);
  EXPECT_EQ(pyk::mod<uint64>(kUint64Max, 9223372036854775808u), 9223372036854775807u);
}

// float64 a // b and a % b. numba: fd(a, b), md(a, b) on Python floats. Zero divisors give
// inf/nan (numba's error_model='numpy'; Python would raise ZeroDivisionError).
TEST(SupportHeader, Float64FloorDivisionAndModulo) {
  struct Case {
    double a, b, quotient, remainder;
  };
  const Case cases[] = {
      {7.5, 2.0, 3.0, 1.5},
      {-7.5, 2.0, -4.0, 0.5},
      {7.5, -2.0, -4.0, -0.5},
      {-7.5, -2.0, 3.0, -1.5},
      {1.0, 0.0, kInf, kNan},
      {-1.0, 0.0, -kInf, kNan},
      {0.0, 0.0, kNan, kNan},
      {1.0, -0.0, -kInf, kNan},
      {-0.0, 1.0, -0.0, 0.0},
      {0.0, -1.0, -0.0, -0.0},
      {6.0, -3.0, -2.0, -0.0},
      {-6.0, 3.0, -2.0, 0.0},
      {kInf, 1.0, kNan, kNan},
      {-5.0, kInf, -1.0, kInf},
      {5.0, kInf, 0.0, 5.0},
      {5.0, -kInf, -1.0, -kInf},
      {kNan, 1.0, kNan, kNan},
      {1.0, kNan, kNan, kNan},
      {0.1, 0.01, 10.0, 3.469446951953614e-18},
      {-1e-300, 1e300, -1.0, 1e300},
      {3.0, 0.5, 6.0, 0.0},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(samePythonFloat(pyk::floordiv(c.a, c.b), c.quotient)) << c.a << " // " << c.b;
    EXPECT_TRUE(samePythonFloat(pyk::mod(c.a, c.b), c.remainder)) << c.a << " % " << c.b;
  }
}

// float32 stays float32. numba: fd(np.float32(a), np.float32(b)), md(...)
TEST(SupportHeader, Float32FloorDivisionAndModulo) {
  EXPECT_TRUE(samePythonFloat(pyk::floordiv(7.5f, 2.0f), 3.0f));
  EXPECT_TRUE(samePythonFloat(pyk::mod(7.5f, 2.0f), 1.5f));
  EXPECT_TRUE(samePythonFloat(pyk::floordiv(-7.5f, 2.0f), -4.0f));
  EXPECT_TRUE(samePythonFloat(pyk::mod(-7.5f, 2.0f), 0.5f));
  EXPECT_TRUE(samePythonFloat(pyk::floordiv(1.0f, 0.0f), std::numeric_limits<float>::infinity()));
  EXPECT_TRUE(samePythonFloat(pyk::mod(1.0f, 0.0f), std::numeric_limits<float>::quiet_NaN()));
  EXPECT_TRUE(samePythonFloat(pyk::floordiv(-0.0f, 1.0f), -0.0f));
  EXPECT_TRUE(samePythonFloat(pyk::mod(-0.0f, 1.0f), 0.0f));
  EXPECT_TRUE(samePythonFloat(pyk::floordiv(0.1f, 0.01f), 10.0f));
  EXPECT_TRUE(samePythonFloat(pyk::mod(0.1f, 0.01f), 3.725290298461914e-09f)); // 2**-28
}

// numba: td(np.int64(a), np.int64(b)) -> float64
TEST(SupportHeader, TrueDivision) {
  EXPECT_TRUE(samePythonFloat(pyk::truediv<int64>(7, 2), 3.5));
  EXPECT_TRUE(samePythonFloat(pyk::truediv<int64>(-7, 2), -3.5));
  EXPECT_TRUE(samePythonFloat(pyk::truediv<int64>(1, 0), kInf));
  EXPECT_TRUE(samePythonFloat(pyk::truediv<int64>(-1, 0), -kInf));
  EXPECT_TRUE(samePythonFloat(pyk::truediv<int64>(0, 0), kNan));
  static_assert(std::is_same_v<decltype(pyk::truediv<int32>(1, 2)), double>);
  static_assert(std::is_same_v<decltype(pyk::truediv(1.0f, 2.0f)), float>);
  EXPECT_TRUE(samePythonFloat(pyk::truediv(1.0f, -0.0f), -std::numeric_limits<float>::infinity()));
}

// int64 ** int64. numba: pw(np.int64(a), np.int64(b))
TEST(SupportHeader, IntegerPower) {
  struct Case {
    int64 base, exponent, result;
  };
  const Case cases[] = {
      {2, 10, 1024},
      {-2, 3, -8},
      {3, 0, 1},
      {0, 0, 1},
      {2, -1, 0}, // a negative exponent gives 0 unless the base is 1 or -1
      {-3, -2, 0},
      {1, -5, 1},
      {-1, -5, -1},
      {-1, -4, 1},
      {0, -1, kInt64Min}, // 0 ** negative: INT64_MIN under error_model='numpy'
      {0, -3, kInt64Min},
      {2, 63, kInt64Min}, // overflow wraps
      {2, 64, 0},
      {3, 40, -6289078614652622848}, // wrapped 3**40 is ...815: numba's result goes via float64
      {3, 39, 4052555153018976256},  // 3**39 = 4052555153018976267 fits, but rounds via float64
      {-3, 39, -4052555153018976256},
      {7, 22, 3909821048582988288},
      {-2, 63, kInt64Min},
      {10, 18, 1000000000000000000},
      {1, int64(1) << 40, 1}, // exponents over 0x10000 go through math.pow
      {-1, (int64(1) << 40) + 1, -1},
      {0, 65537, 0},
  };
  for (const Case& c : cases)
    EXPECT_EQ(pyk::ipow(c.base, c.exponent), c.result) << c.base << " ** " << c.exponent;
  // 2 ** 65537 is math.pow's inf converted to int64: numba's fptosi is undefined out of range; x86
  // (njit) gives INT64_MIN, the GPU's cvt.rzi.s64.f64 saturates. pyk follows the GPU.
  EXPECT_EQ(pyk::ipow<int64>(2, 65537), kInt64Max);
  EXPECT_EQ(pyk::ipow<int64>(-2, 65537), kInt64Min);
  EXPECT_EQ(pyk::ipow<uint64>(2, uint64(64)), 0u);
  EXPECT_EQ(pyk::ipow<uint64>(3, uint64(3)), 27u);
  EXPECT_EQ(pyk::ipow<uint64>(3, uint64(40)),
            12157665459056928768u); // pw(np.uint64(3), np.uint64(40))
}

// float ** int. numba: pw(a, np.int64(b)), pw(np.float32(a), np.int64(b))
TEST(SupportHeader, FloatPowerOfInteger) {
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(2.0, int64(10)), 1024.0));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(2.0, int64(-2)), 0.25));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(1.5, int64(3)), 3.375));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(10.0, int64(-3)), 0.001));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(10.0f, int64(-3)), 0.0010000000474974513f));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(2.0, int64(1100)), kInf));
  EXPECT_TRUE(
      samePythonFloat(pyk::fpowi(2.0f, int64(1100)), std::numeric_limits<float>::infinity()));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(2.0, int64(-1100)), 0.0));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(-2.0, int64(3)), -8.0));
  // 0.0 ** -1: njit raises ZeroDivisionError even under error_model='numpy' (1.0 / r inside the
  // compiled helper); the CUDA target divides: 1.0 / 0.0 = inf, 1.0 / -0.0 = -inf.
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(0.0, int64(-1)), kInf));
  EXPECT_TRUE(samePythonFloat(pyk::fpowi(-0.0, int64(-1)), -kInf));
  EXPECT_TRUE(samePythonFloat(pyk::fpow(2.0, 0.5), std::sqrt(2.0)));
  EXPECT_TRUE(samePythonFloat(pyk::fpow(-8.0, 1.0 / 3.0), kNan));
}

// round(x) -> int64, half to even. numba: rnd(x), rnd(np.float32(x))
TEST(SupportHeader, RoundHalfEven) {
  EXPECT_EQ(pyk::round_half_even(2.5), 2);
  EXPECT_EQ(pyk::round_half_even(3.5), 4);
  EXPECT_EQ(pyk::round_half_even(-0.5), 0); // round(-0.5) is the int 0 (no -0 for ints)
  EXPECT_EQ(pyk::round_half_even(-1.5), -2);
  EXPECT_EQ(pyk::round_half_even(0.5), 0);
  EXPECT_EQ(pyk::round_half_even(1.5), 2);
  EXPECT_EQ(pyk::round_half_even(-2.5), -2);
  EXPECT_EQ(pyk::round_half_even(2.4999999999999996), 2);
  EXPECT_EQ(pyk::round_half_even(0.49999999999999994), 0);
  EXPECT_EQ(pyk::round_half_even(1e18), 1000000000000000000);
  EXPECT_EQ(pyk::round_half_even(1e18f), 999999984306749440);
  EXPECT_EQ(pyk::round_half_even(-1e18f), -999999984306749440);
  EXPECT_EQ(pyk::round_half_even(2.5f), 2);
  EXPECT_EQ(pyk::round_half_even(-1.5f), -2);
  // Out of range and nan: undefined fptosi in numba; the GPU saturates and gives 0 for nan.
  EXPECT_EQ(pyk::round_half_even(kInf), kInt64Max);
  EXPECT_EQ(pyk::round_half_even(-kInf), kInt64Min);
  EXPECT_EQ(pyk::round_half_even(kNan), 0);
}

// round(x, n) -> float. numba: rnd2(x, n), rnd2(np.float32(x), n)
// round(x, ndigits) as numba.cuda's round_to_impl computes it (CPU numba's round_impl_binary
// differs): the scaled value y in float64 even for a float32 x, `round(y)` an int64 (so a zero
// loses its sign, and a y beyond 2**63 saturates as the GPU's conversion does).
TEST(SupportHeader, RoundToDigits) {
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(2.675, 2), 2.68)); // CPython says 2.67
  // float32(2.675) is 2.67499995...; scaled in float64 it stays below 267.5 (CPU numba scales
  // in float32, to 267.5, and gives 2.68).
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(2.675f, 2), 2.6700000762939453f));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(0.3425f, 3), 0.34299999475479126f));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(1.5, 0), 2.0));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(2.5, 0), 2.0));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(-0.5, 0), 0.0));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(-0.5f, 0), 0.0f));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(1234.5, -1), 1230.0));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(1250.0, -2), 1200.0));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(0.125, 2), 0.12));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(0.125f, 2), 0.11999999731779099f));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(1e300, 30), 1e300));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(kInf, 2), kInf));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(kNan, 2), kNan));
  // 0.1 * 1e3 * 1e22 is beyond int64: llrint saturates at 2**63 - 1, which scales back to
  // 9.2e-7 (Python gives 0.1).
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(0.1, 25), 9.2233720368547758e-07));
  EXPECT_TRUE(samePythonFloat(pyk::round_ndigits(0.1f, 25), 9.2233720368547758e-07f));
}

// Shifts. In-range counts as Python/numba: 1 << 62, -8 >> 1 == -4, unsigned >> is logical.
// Counts >= 64 (or negative) are undefined in numba's LLVM IR; on the GPU the count is truncated
// to 32 bits and PTX clamps it at the width, so everything is shifted out. pyk follows the GPU.
TEST(SupportHeader, Shifts) {
  EXPECT_EQ(pyk::shl<int64>(1, 62), int64(1) << 62);
  EXPECT_EQ(pyk::shl<int64>(1, 63), kInt64Min);
  EXPECT_EQ(pyk::shl<int64>(-1, 4), -16);
  EXPECT_EQ(pyk::shr<int64>(-8, 1), -4);
  EXPECT_EQ(pyk::shr<int64>(-1, 63), -1);
  EXPECT_EQ(pyk::shr<uint64>(kUint64Max, 63), 1u);
  EXPECT_EQ(pyk::shr<uint64>(uint64(1) << 63, int64(3)), uint64(1) << 60);
  EXPECT_EQ(pyk::shl<int64>(5, 64), 0);
  EXPECT_EQ(pyk::shl<int64>(5, 1000), 0);
  EXPECT_EQ(pyk::shl<int64>(5, -1), 0);
  EXPECT_EQ(pyk::shr<int64>(-5, 64), -1);
  EXPECT_EQ(pyk::shr<int64>(5, 64), 0);
  EXPECT_EQ(pyk::shr<uint64>(kUint64Max, 64), 0u);
  EXPECT_EQ(pyk::shl<int64>(5, int64(1) << 32), 5); // the count is truncated to 32 bits first
}

// min/max as Python's (numba's do_minmax): the first wins ties; nan only if it comes first.
// numba: mx(a, b), mn(a, b)
TEST(SupportHeader, MinMaxAbs) {
  EXPECT_TRUE(samePythonFloat(pyk::max(1.0, kNan), 1.0));
  EXPECT_TRUE(samePythonFloat(pyk::min(1.0, kNan), 1.0));
  EXPECT_TRUE(samePythonFloat(pyk::max(kNan, 1.0), kNan));
  EXPECT_TRUE(samePythonFloat(pyk::min(kNan, 1.0), kNan));
  EXPECT_TRUE(samePythonFloat(pyk::max(0.0, -0.0), 0.0));
  EXPECT_TRUE(samePythonFloat(pyk::min(0.0, -0.0), 0.0));
  EXPECT_TRUE(samePythonFloat(pyk::max(-0.0, 0.0), -0.0));
  EXPECT_TRUE(samePythonFloat(pyk::min(-0.0, 0.0), -0.0));
  EXPECT_EQ(pyk::max<int64>(-1, 1), 1);
  EXPECT_EQ(pyk::min<int64>(-1, 1), -1);
  EXPECT_EQ(pyk::max<uint64>(kUint64Max, 1), kUint64Max);
  EXPECT_EQ(pyk::min<uint64>(kUint64Max, 1), 1u);
  // numba: ab(np.int64(INT64_MIN)), ab(np.int64(-5)), ab(-0.0), ab(np.int32(-2**31))
  EXPECT_EQ(pyk::abs(kInt64Min), kInt64Min);
  EXPECT_EQ(pyk::abs<int64>(-5), 5);
  EXPECT_EQ(pyk::abs(std::numeric_limits<int32>::min()), std::numeric_limits<int32>::min());
  EXPECT_TRUE(samePythonFloat(pyk::abs(-0.0), 0.0));
  EXPECT_TRUE(samePythonFloat(pyk::abs(-kInf), kInf));
  EXPECT_EQ(pyk::abs(kUint64Max), kUint64Max);
}

// print: numba's printimpl formats (%lld, %llu, %f of float64) and True/False for bools.
TEST(SupportHeader, PrintFormats) {
  EXPECT_STREQ(pyk::print_format<bool>(), "%s");
  EXPECT_STREQ(pyk::print_format<float>(), "%f");
  EXPECT_STREQ(pyk::print_format<double>(), "%f");
  EXPECT_STREQ(pyk::print_format<int32>(), "%lld");
  EXPECT_STREQ(pyk::print_format<pyk::uint8>(), "%llu");
  EXPECT_STREQ(pyk::print_format<uint64>(), "%llu");
  EXPECT_STREQ(pyk::print_arg(true), "True");
  EXPECT_STREQ(pyk::print_arg(false), "False");
  char line[128];
  std::snprintf(line, sizeof line, "%f %f %lld %llu %s", pyk::print_arg(3.14f),
                pyk::print_arg(3.14), pyk::print_arg(int32(-7)), pyk::print_arg(uint64(7)),
                pyk::print_arg(true));
  // numba.cuda prints `print(float32(3.14), 3.14, -7, uint64(7), True)` like this.
  EXPECT_STREQ(line, "3.140000 3.140000 -7 7 True");
}

TEST(SupportHeader, ArraysIndexAndWrapAsNumba) {
  float values[12];
  for (int i = 0; i < 12; ++i)
    values[i] = float(i);
  // 3 x 4, C order: element (i, j) at 4 * i + j.
  pyk::Array<float, 2, pyk::Layout::C> c{values, {3, 4}, {16, 4}};
  EXPECT_EQ(c.ndim, 2);
  EXPECT_EQ(c.size(), 12);
  EXPECT_EQ(c(1, 2), 6.0f);
  EXPECT_EQ(c(-1, -1), 11.0f); // a[-1, -1]
  EXPECT_EQ(c(int32(-3), 0), 0.0f);
  EXPECT_EQ(c(uint64(2), 3u), 11.0f);
  c(0, -1) = 42.0f;
  EXPECT_EQ(values[3], 42.0f);
  // The same memory as a 4 x 3 F-order array: element (i, j) at i + 4 * j.
  pyk::Array<float, 2, pyk::Layout::F> f{values, {4, 3}, {4, 16}};
  EXPECT_EQ(f(1, 2), 9.0f);
  EXPECT_EQ(f(-1, 0), 42.0f);
  // Any layout uses the byte strides: every other column of the C array, a[:, ::2].
  pyk::Array<float, 2, pyk::Layout::A> a{values, {3, 2}, {16, 8}};
  EXPECT_EQ(a(2, 1), 10.0f);
  EXPECT_EQ(a(-1, -1), 10.0f);
  EXPECT_EQ(a.element_pointer(1, 0), values + 4);
  EXPECT_EQ(a.strides[1], 8);
  // A reversed view, a[::-1]: negative stride from the last element.
  pyk::Array<float, 1, pyk::Layout::A> reversed{values + 11, {12}, {-4}};
  EXPECT_EQ(reversed(0), 11.0f);
  EXPECT_EQ(reversed(-1), 0.0f);
}

} // namespace

// slice_range against Python's slice.indices(length) and len(range(...)) (expected values made
// by /usr/bin/python3; start is only compared when the slice is not empty).
TEST(SupportHeader, SliceRangeMatchesPythonSliceIndices) {
  struct Case {
    pyk::int64 length;
    bool hasStart;
    pyk::int64 start;
    bool hasStop;
    pyk::int64 stop;
    bool hasStep;
    pyk::int64 step;
    pyk::int64 count;
    pyk::int64 firstIndex;
    pyk::int64 resultStep;
  };
  const Case cases[] = {
      {1, true, 2, true, 12, true, -1, 0, -1, -1},   {10, true, 12, true, 9, true, 2, 0, -1, 2},
      {0, true, 12, true, 3, true, -1, 0, -1, -1},   {5, true, 2, true, 3, true, -1, 0, -1, -1},
      {10, true, -1, true, 9, false, 0, 0, -1, 1},   {0, true, -1, true, 9, true, 2, 0, -1, 2},
      {0, false, 0, true, 9, true, -3, 0, -1, -3},   {10, true, -1, true, 0, false, 0, 0, -1, 1},
      {1, true, 12, true, -12, true, -3, 1, 0, -3},  {1, true, 2, true, 3, true, 2, 0, -1, 2},
      {1, true, -1, true, -12, true, -1, 1, 0, -1},  {10, true, -1, true, 0, true, 1, 0, -1, 1},
      {10, true, 12, true, 3, true, -1, 6, 9, -1},   {10, true, -1, true, 12, false, 0, 1, 9, 1},
      {5, true, 12, true, -12, true, 1, 0, -1, 1},   {1, false, 0, true, 9, true, 1, 1, 0, 1},
      {1, true, 2, true, 0, true, 2, 0, -1, 2},      {1, false, 0, true, 12, false, 0, 1, 0, 1},
      {10, true, 7, true, 3, true, -3, 2, 7, -3},    {5, true, 7, true, 9, true, 1, 0, -1, 1},
      {0, false, 0, true, 12, true, -3, 0, -1, -3},  {0, true, -1, true, 9, true, -3, 0, -1, -3},
      {1, true, -12, true, -2, true, -3, 0, -1, -3}, {0, true, -3, true, 0, true, -1, 0, -1, -1},
      {5, true, -12, true, 3, true, -3, 0, -1, -3},  {0, true, -12, true, 9, true, 1, 0, -1, 1},
      {1, true, 12, true, 9, true, -3, 0, -1, -3},   {10, true, -1, true, 3, true, 1, 0, -1, 1},
      {5, true, 7, true, 3, true, 1, 0, -1, 1},      {10, false, 0, true, 12, true, 2, 5, 0, 2},
      {5, true, 12, false, 0, true, 1, 0, -1, 1},    {10, true, -3, false, 0, false, 0, 3, 7, 1},
      {0, true, 12, true, 9, true, 2, 0, -1, 2},     {5, true, 2, true, -2, true, 1, 1, 2, 1},
      {0, true, 2, true, 3, true, 2, 0, -1, 2},      {0, true, -3, false, 0, true, 1, 0, -1, 1},
      {0, true, 12, true, 12, true, 1, 0, -1, 1},    {10, true, 0, true, 12, true, 1, 10, 0, 1},
      {1, true, 0, true, 3, true, 2, 1, 0, 2},       {1, true, 12, false, 0, true, 1, 0, -1, 1},
  };
  for (const Case& c : cases) {
    pyk::SliceRange r =
        pyk::slice_range(c.length, c.hasStart, c.start, c.hasStop, c.stop, c.hasStep, c.step);
    EXPECT_EQ(r.length, c.count) << c.length << " " << c.start << " " << c.stop << " " << c.step;
    if (c.count > 0) {
      EXPECT_EQ(r.start, c.firstIndex) << c.length << " " << c.start << " " << c.stop;
      EXPECT_EQ(r.step, c.resultStep);
    }
  }
}
