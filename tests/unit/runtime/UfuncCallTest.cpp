// UfuncCall: @vectorize ufuncs called from C++ as numba calls them, on the CPU backend: host
// operands give a host result, device operands a device result; numpy's broadcasting (rows,
// columns, scalars, 0-d); signatures chosen by dtype with safe casts of host operands only; an
// output given; and the errors a call can cause.
#include <gtest/gtest.h>

#include <numeric>

#include "HostArrayValues.h"
#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/pyk.hpp"

namespace {

const char* kUfuncSource = R"pyk(
import math
from numba import vectorize, cuda


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'], target='cuda')
def add_ufunc(x, y):
    return x + y


@vectorize(['float32(float32)'], target='cpu')
def cos2_sin2(x):
    return math.cos(x) ** 2 + math.sin(x) ** 2


@cuda.jit
def not_a_ufunc(a):
    pass
)pyk";

class UfuncCall : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = cache_ / "cache"; });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
  pyk::Module m_ = pyk::loads(kUfuncSource, "ufuncs.pyk");
};

TEST_F(UfuncCall, HostOperandsGiveAHostResult) {
  // Seed 000: add_ufunc(a, b), then a column broadcast against a matrix.
  const pyk::HostArray a = host<std::int64_t>({4}, {1, 2, 3, 4});
  const pyk::HostArray b = host<std::int64_t>({4}, {10, 20, 30, 40});
  const pyk::HostArray sum = m_["add_ufunc"](a, b);
  EXPECT_EQ(sum.dtype, pyk::Dtype::Int64);
  EXPECT_EQ(sum.shape, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(valuesOf<std::int64_t>(sum), (std::vector<std::int64_t>{11, 22, 33, 44}));

  const pyk::HostArray bCol = host<std::int64_t>({4, 1}, {10, 20, 30, 40});
  std::vector<std::int64_t> cValues(16);
  std::iota(cValues.begin(), cValues.end(), 0);
  const pyk::HostArray c = host<std::int64_t>({4, 4}, cValues);
  const pyk::HostArray grid = m_["add_ufunc"](bCol, c);
  EXPECT_EQ(grid.shape, (std::vector<std::int64_t>{4, 4}));
  std::vector<std::int64_t> want(16);
  for (int i = 0; i < 16; ++i)
    want[i] = (i / 4 + 1) * 10 + i;
  EXPECT_EQ(valuesOf<std::int64_t>(grid), want);
  // A row broadcast down the matrix, and a scalar.
  EXPECT_EQ(valuesOf<std::int64_t>(m_["add_ufunc"](c, a))[5], 5 + 2);
  EXPECT_EQ(valuesOf<std::int64_t>(m_["add_ufunc"](a, std::int64_t{100})),
            (std::vector<std::int64_t>{101, 102, 103, 104}));
  // Two scalars: a 0-d result.
  const pyk::HostArray zeroD = m_["add_ufunc"](2.5, 0.25);
  EXPECT_TRUE(zeroD.shape.empty());
  EXPECT_EQ(valuesOf<double>(zeroD), std::vector<double>{2.75});
}

TEST_F(UfuncCall, DeviceOperandsGiveADeviceResultOfTheBroadcastShape) {
  std::vector<double> values(12);
  std::iota(values.begin(), values.end(), 0.0);
  const auto m = pyk::to_device<double, 2>(values, {3, 4});
  const auto t = m.transpose(); // (4, 3), strided: copied contiguous for the kernel
  const pyk::AnyDeviceArray r = m_["add_ufunc"](t, t);
  EXPECT_EQ(r.shape(), (std::vector<std::int64_t>{4, 3}));
  const std::vector<double> got = valuesOf<double>(r.copy_to_host());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(got[i * 3 + j], 2.0 * values[j * 4 + i]);
  // A host operand with a device one: the host one is copied, the result stays on the device.
  const pyk::HostArray row = host<double>({4}, {100, 200, 300, 400});
  const pyk::AnyDeviceArray mixed = m_["add_ufunc"](m, row);
  EXPECT_EQ(valuesOf<double>(mixed.copy_to_host())[6], 6.0 + 300);
  // Into a given output.
  const pyk::AnyDeviceArray out = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float64, {3, 4});
  const pyk::UfuncOperand ops[] = {pyk::UfuncOperand::of(m), pyk::UfuncOperand::of(1.0)};
  const pyk::UfuncResult into = m_["add_ufunc"].call(ops, pyk::Stream(), &out);
  EXPECT_FALSE(into.on_host);
  EXPECT_EQ(into.device.device_data(), out.device_data());
  EXPECT_EQ(valuesOf<double>(out.copy_to_host())[11], 12.0);
}

TEST_F(UfuncCall, SignaturesAreChosenByDtypeAndHostOperandsCastSafely) {
  // int32 host operands are cast to the int64 signature, as numpy casts safely.
  const pyk::HostArray a = host<std::int32_t>({3}, {1, 2, 3});
  const pyk::HostArray r = m_["add_ufunc"](a, a);
  EXPECT_EQ(r.dtype, pyk::Dtype::Int64);
  EXPECT_EQ(valuesOf<std::int64_t>(r), (std::vector<std::int64_t>{2, 4, 6}));
  // float32 to float64, in a target='cpu' ufunc's own signature.
  const pyk::HostArray x = host<float>({3}, {0.0f, 1.0f, 2.0f});
  const std::vector<float> one = valuesOf<float>(m_["cos2_sin2"](x));
  for (float v : one)
    EXPECT_NEAR(v, 1.0f, 1e-6f);
  // Device operands are never converted.
  const auto d = pyk::to_device(std::vector<std::int32_t>{1, 2, 3});
  try {
    (void)m_["add_ufunc"](d, d);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no signature of the ufunc `add_ufunc` takes (int32, "
                                         "int32) (device arrays and outputs are never converted)"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(UfuncCall, ErrorsNameTheShapesOrTheFunction) {
  const pyk::HostArray three = host<std::int64_t>({3}, {1, 2, 3});
  const pyk::HostArray four = host<std::int64_t>({4}, {1, 2, 3, 4});
  try {
    (void)m_["add_ufunc"](three, four);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "operands could not be broadcast together with shapes (3,) (4,)"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)m_["not_a_ufunc"](three);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a kernel, not a ufunc: launch it with "
                                         "kernel[grid, block](...)"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)m_["add_ufunc"](three);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the ufunc `add_ufunc` takes 2 operands (then, "
                                         "optionally, its output); 1 given"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
