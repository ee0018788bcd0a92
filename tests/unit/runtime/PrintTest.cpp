// PrintTest: operator<< of the host API's values (pyk/print.hpp): numba's dtype names, Python's
// tuples, numba's [grid, block], arrays described rather than dumped.
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "CpuBackendTest.h"

namespace {

template <typename T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

class Print : public CpuBackendTest {};

TEST_F(Print, DtypesShapesAndLaunchShapes) {
  EXPECT_EQ(printed(pyk::Dtype::Float32), "float32");
  EXPECT_EQ(printed(pyk::Dtype::Bool), "bool");
  EXPECT_EQ(printed(pyk::Dim3(4)), "(4, 1, 1)");
  EXPECT_EQ(printed(pyk::LaunchShape{{4, 2}, {256}}), "[(4, 2, 1), (256, 1, 1)]");
}

TEST_F(Print, ArraysByWhatTheyAre) {
  const std::vector<float> values(6);
  pyk::DeviceArray<float, 2> a = pyk::to_device(values, {2, 3});
  EXPECT_EQ(printed(a), "DeviceArray(float32, shape=(2, 3), strides=(12, 4), cpu)");
  EXPECT_EQ(printed(a.untyped().transpose()),
            "DeviceArray(float32, shape=(3, 2), strides=(4, 12), cpu)");
  pyk::DeviceArray<std::int64_t, 1> one = pyk::device_array<std::int64_t>(1);
  EXPECT_EQ(printed(one), "DeviceArray(int64, shape=(1,), strides=(8,), cpu)");
  EXPECT_EQ(printed(a.untyped().copy_to_host()), "HostArray(float32, shape=(2, 3))");
}

TEST_F(Print, RecordArraysNameTheirRecord) {
  pyk::AnyDeviceArray states = pyk::random::create_xoroshiro128p_states(2, 1);
  EXPECT_EQ(printed(states),
            "DeviceArray(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True), "
            "shape=(2,), strides=(16,), cpu)");
}

} // namespace
