// Float16Test: pyk::float16 (compiler/base/Float16.h, pyk/float16.hpp) and the CPU backend's
// float16 casts and cuda.fp16 functions (stdlib/cpu/float16.h) against numpy and compiled numba
// 0.56.
//
// Expected bits come from numpy 1.24 (`np.float16(v).view(np.uint16)`, a correctly rounded
// conversion), the casts and fp16 results from the PTX numba 0.56 emits (cudaimpl.py: cvt.rn.f16.*,
// cvt.rni.*.f16, fma.rn.f16, setp.*.f16 and the selp of hmax/hmin), as the comments say.
#include "cpu/float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace {

using pyk::float16;

constexpr double kHalfTestInf = std::numeric_limits<double>::infinity();
constexpr double kHalfTestNan = std::numeric_limits<double>::quiet_NaN();

float16 bits(std::uint16_t b) {
  return float16::from_bits(b);
}

// numpy: hex(np.float16(v).view(np.uint16))
TEST(Float16, FromDoubleRoundsToNearestEvenAsNumpy) {
  struct Case {
    double value;
    std::uint16_t bits;
  };
  const Case cases[] = {
      {0.1, 0x2e66},
      {1.0 / 3.0, 0x3555},
      {-25000.0, 0xf61a},
      {65519.99, 0x7bff},               // the largest finite, 65504
      {65520.0, 0x7c00},                // halfway to 65536: rounds to inf
      {100000.0, 0x7c00},               // overflow
      {-kHalfTestInf, 0xfc00},          //
      {-0.0, 0x8000},                   // the sign of zero kept
      {1.00048828125, 0x3c00},          // halfway between 1 and 1 + 2**-10: to even, 1
      {1.00146484375, 0x3c02},          // halfway between 0x3c01 and 0x3c02: to even
      {5.960464477539063e-08, 0x0001},  // 2**-24, the smallest subnormal
      {2.9802322387695312e-08, 0x0000}, // 2**-25, halfway to it: to even, zero
      {2.980232536792755e-08, 0x0001},  // just above
      {1e-8, 0x0000},
      {6e-8, 0x0001},
      {6.097555160522461e-05, 0x03ff}, // the largest subnormal
  };
  for (const Case& c : cases)
    EXPECT_EQ(float16(c.value).bits(), c.bits) << c.value;
  EXPECT_TRUE(float16(kHalfTestNan).is_nan());
  EXPECT_EQ(float16(0.1f).bits(), 0x2e66); // from float32 through its exact double
}

// Every float16 is exact as a double and converts back to itself.
TEST(Float16, EveryValueRoundTripsThroughDouble) {
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const float16 h = bits(static_cast<std::uint16_t>(b));
    const double d = static_cast<double>(h);
    if (h.is_nan()) {
      EXPECT_TRUE(std::isnan(d)) << b;
      continue;
    }
    ASSERT_EQ(float16(d).bits(), b) << d;
    ASSERT_EQ(static_cast<double>(static_cast<float>(h)), d);
  }
  EXPECT_EQ(static_cast<double>(bits(0x7bff)), 65504.0);
  EXPECT_EQ(static_cast<double>(bits(0x0001)), std::ldexp(1.0, -24));
  EXPECT_EQ(static_cast<double>(bits(0xbc00)), -1.0);
}

// numba 0.56's float16 to integer is cvt.rni.<int>.f16: to the nearest integer, ties to even,
// saturated to the type, NaN giving 0 (64 bits: 0x8000000000000000) (Python, and numba after
// 0.56, truncate).
TEST(Float16, ToIntegerRoundsToNearestAndSaturatesAsNumba056) {
  using pyk::from_float16;
  EXPECT_EQ(from_float16<pyk::int32>(float16(2.5)), 2);
  EXPECT_EQ(from_float16<pyk::int32>(float16(3.5)), 4);
  EXPECT_EQ(from_float16<pyk::int32>(float16(-2.5)), -2);
  EXPECT_EQ(from_float16<pyk::int32>(float16(2.7)), 3);
  EXPECT_EQ(from_float16<pyk::int32>(float16(-0.4)), 0);
  EXPECT_EQ(from_float16<pyk::int8>(float16(300.0)), 127);
  EXPECT_EQ(from_float16<pyk::int8>(float16(-300.0)), -128);
  EXPECT_EQ(from_float16<pyk::uint8>(float16(255.5)), 255); // 256 saturated
  EXPECT_EQ(from_float16<pyk::uint8>(float16(-1.5)), 0);
  EXPECT_EQ(from_float16<pyk::uint16>(float16(65504.0)), 65504);
  EXPECT_EQ(from_float16<pyk::int16>(float16(65504.0)), 32767);
  EXPECT_EQ(from_float16<pyk::int64>(float16(kHalfTestInf)),
            std::numeric_limits<pyk::int64>::max());
  EXPECT_EQ(from_float16<pyk::uint64>(float16(-kHalfTestInf)), 0u);
  EXPECT_EQ(from_float16<pyk::int32>(float16(kHalfTestNan)), 0);
  EXPECT_EQ(from_float16<pyk::uint8>(float16(kHalfTestNan)), 0);
  // 64 bits: cvt.rni.s64.f16 and cvt.rni.u64.f16 gave 0x8000000000000000 on an H200.
  EXPECT_EQ(from_float16<pyk::int64>(float16(kHalfTestNan)),
            std::numeric_limits<pyk::int64>::min());
  EXPECT_EQ(from_float16<pyk::uint64>(float16(kHalfTestNan)), pyk::uint64{1} << 63);
  EXPECT_EQ(from_float16<pyk::float32>(float16(0.1)), 0.0999755859375f);
  EXPECT_EQ(from_float16<pyk::float64>(float16(-2.5)), -2.5);
  EXPECT_TRUE(from_float16<bool>(float16(kHalfTestNan)));
  EXPECT_FALSE(from_float16<bool>(float16(-0.0)));
}

// numba's cast to float16 rounds once from the value's own type (cvt.rn.f16.s64 / .f64 / ...).
TEST(Float16, FromNumbersAsNumbaCasts) {
  using pyk::to_float16;
  EXPECT_EQ(to_float16(pyk::int32(2049)).bits(), float16(2048.0).bits());
  EXPECT_EQ(to_float16(pyk::int32(2051)).bits(), float16(2052.0).bits());
  EXPECT_EQ(to_float16(pyk::int64(65520)).bits(), 0x7c00);
  EXPECT_EQ(to_float16(pyk::uint64(~0ull)).bits(), 0x7c00);
  EXPECT_EQ(to_float16(pyk::int8(-128)).bits(), float16(-128.0).bits());
  EXPECT_EQ(to_float16(true).bits(), 0x3c00);
  EXPECT_EQ(to_float16(1.00146484375).bits(), 0x3c02);
  EXPECT_EQ(float16(-70000).bits(), 0xfc00); // the C++ API's constructor: any number
  EXPECT_EQ(float16(3u).bits(), float16(3.0).bits());
}

// numba.cuda.fp16, as the PTX numba 0.56 emits computes it.
TEST(Float16, Fp16FunctionsAsNumba056sPtx) {
  // fma.rn.f16 rounds once; the simulator (a * b + c in float16) rounds twice: numpy gives 0x429a
  // for np.float16(np.float16(a * b) + c), the exact a * b + c rounds to 0x4299.
  EXPECT_EQ(pyk::hfma(bits(0x21f4), bits(0x52d0), bits(0x4155)).bits(), 0x4299);
  EXPECT_EQ(pyk::hadd(float16(65504.0), float16(32.0)).bits(), 0x7c00); // 65536: overflow
  EXPECT_EQ(pyk::hadd(float16(65504.0), float16(15.0)).bits(), 0x7bff);
  EXPECT_EQ(pyk::hsub(float16(1.0), float16(1.0)).bits(), 0x0000);
  EXPECT_EQ(pyk::hmul(float16(0.1), float16(0.1)).bits(),
            float16(0.0999755859375 * 0.0999755859375).bits());
  EXPECT_EQ(pyk::hneg(float16(0.0)).bits(), 0x8000);
  EXPECT_EQ(pyk::habs(float16(-0.0)).bits(), 0x0000);
  EXPECT_EQ(pyk::habs(float16(-3.0)).bits(), float16(3.0).bits());
  // setp.ne.f16 is an ordered comparison: NaN != x is false.
  EXPECT_FALSE(pyk::hne(float16(kHalfTestNan), float16(1.0)));
  EXPECT_TRUE(pyk::hne(float16(2.0), float16(1.0)));
  EXPECT_FALSE(pyk::heq(float16(kHalfTestNan), float16(kHalfTestNan)));
  EXPECT_TRUE(pyk::hle(float16(-0.0), float16(0.0)));
  EXPECT_FALSE(pyk::hgt(float16(kHalfTestNan), float16(1.0)));
  // hmax / hmin: a when a > b (a < b), else b.
  EXPECT_EQ(pyk::hmax(float16(kHalfTestNan), float16(1.0)).bits(), float16(1.0).bits());
  EXPECT_TRUE(pyk::hmax(float16(1.0), float16(kHalfTestNan)).is_nan());
  EXPECT_EQ(pyk::hmin(float16(-0.0), float16(0.0)).bits(), 0x0000);
  EXPECT_EQ(pyk::hmin(float16(2.0), float16(-1.0)).bits(), float16(-1.0).bits());
}

} // namespace
