// Float16HostApi: numba's float16 through the C++ API on the CPU backend: pyk::float16 arrays
// (DeviceArray<pyk::float16, 1>) and scalars pick float16 specializations, a float16 parameter of
// a declared signature takes a float scalar converted as numba converts it (rounded to nearest
// even), and the results are the bits numba's float16 gives.
#include <gtest/gtest.h>

#include <vector>

#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/pyk.hpp"

namespace {

const char* kFloat16Source = R"pyk(
from numba import cuda, int32


@cuda.jit
def fused(a, out, rounded, s):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = cuda.fp16.hfma(a[i], s, a[i])
        rounded[i] = int32(a[i])


@cuda.jit("void(float16[::1], float16)")
def fill(out, value):
    out[cuda.grid(1)] = value
)pyk";

class Float16HostApi : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = cache_ / "cache"; });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
};

TEST_F(Float16HostApi, ArraysAndScalarsAreNumbasFloat16) {
  pyk::Module m = pyk::loads(kFloat16Source, "float16_host_api.pyk");
  const std::vector<pyk::float16> a = {pyk::float16(2.5), pyk::float16(-3.5), pyk::float16(0.1),
                                       pyk::float16(65504.0)};
  auto da = pyk::to_device(a);
  auto out = pyk::device_array_like(da);
  auto rounded = pyk::to_device(std::vector<int>(a.size(), 0));
  m["fused"][{1, 32}](da, out, rounded, pyk::float16(2.0));
  const std::vector<pyk::float16> got = out.copy_to_host();
  ASSERT_EQ(got.size(), a.size());
  EXPECT_EQ(got[0].bits(), pyk::float16(7.5).bits());
  EXPECT_EQ(got[1].bits(), pyk::float16(-10.5).bits());
  EXPECT_EQ(got[2].bits(), pyk::float16(0.0999755859375 * 3).bits()); // one rounding of a*s + a
  EXPECT_EQ(got[3].bits(), 0x7c00);                                   // overflow to inf
  // numba 0.56 converts float16 to an integer to the nearest one, ties to even.
  EXPECT_EQ(rounded.copy_to_host(), (std::vector<int>{2, -4, 0, 65504}));
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(da), pyk::KernelArgument::of(out),
                                      pyk::KernelArgument::of(rounded),
                                      pyk::KernelArgument::of(pyk::float16(2.0))};
  EXPECT_EQ(m["fused"].execution_mode(args), "loop");
}

TEST_F(Float16HostApi, FloatScalarConvertsToADeclaredFloat16Parameter) {
  pyk::Module m = pyk::loads(kFloat16Source, "float16_host_api.pyk");
  auto out = pyk::device_array<pyk::float16>({4});
  m["fill"][{1, 4}](out, 1.00146484375); // halfway between two float16: to even
  for (const pyk::float16 h : out.copy_to_host())
    EXPECT_EQ(h.bits(), 0x3c02);
}

} // namespace
