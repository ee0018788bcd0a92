// ToDeviceShapeTest: to_device with a shape given as any integers, its rank deduced from the
// braced list or the std::array (numba's to_device(ary) of a reshaped array), on the CPU backend.
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "CpuBackendTest.h"

namespace {

class ToDeviceShape : public CpuBackendTest {};

TEST_F(ToDeviceShape, BracedExtentsOfAnyIntegerGiveTheRank) {
  const std::vector<float> values = {0, 1, 2, 3, 4, 5};
  const int rows = 2;
  const std::size_t cols = 3;
  pyk::DeviceArray<float, 2> a = pyk::to_device(values, {rows, 3});
  EXPECT_EQ(a.shape(), (std::array<std::int64_t, 2>{2, 3}));
  pyk::DeviceArray<float, 3> b = pyk::to_device(values, {std::size_t{1}, cols, std::size_t{2}});
  EXPECT_EQ(b.shape(), (std::array<std::int64_t, 3>{1, 3, 2}));
  EXPECT_EQ(b.copy_to_host(), values);
  pyk::DeviceArray<float, 2> c = pyk::to_device(values.data(), {3, 2});
  EXPECT_EQ(c.shape(), (std::array<std::int64_t, 2>{3, 2}));
}

TEST_F(ToDeviceShape, AStdArrayOfOtherIntegers) {
  const std::vector<double> values(12, 1.0);
  const std::array<int, 2> shape = {4, 3};
  pyk::DeviceArray<double, 2> a = pyk::to_device(values, shape);
  EXPECT_EQ(a.shape(), (std::array<std::int64_t, 2>{4, 3}));
  // An int64 std::array deduces its rank too.
  pyk::DeviceArray<double, 1> b = pyk::to_device(values, std::array<std::int64_t, 1>{12});
  EXPECT_EQ(b.size(), 12);
}

TEST_F(ToDeviceShape, ExtentsThatAreNotSizesThrow) {
  const std::vector<float> values(4);
  EXPECT_THROW((void)pyk::to_device(values, {2, 3}), pyk::Error); // 6 elements for 4 values
  EXPECT_THROW((void)pyk::to_device(values, {-2, -2}), pyk::Error);
  try {
    (void)pyk::to_device(values, {std::uint64_t{1} << 63, std::uint64_t{1}});
    ADD_FAILURE() << "an extent beyond int64 was taken";
  } catch (const pyk::Error& e) {
    EXPECT_STREQ(e.what(), "to_device: extent 0 of the shape, 9223372036854775808, is not a size");
  }
}

} // namespace
