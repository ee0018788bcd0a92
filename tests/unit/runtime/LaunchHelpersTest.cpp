// LaunchHelpersTest: numba's launch helpers on the CPU backend: forall (every task once, the
// block size given or chosen), specialize (compiled at once, other types refused), overloads
// (what was compiled), max_cooperative_grid_blocks (of a specialized kernel only).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "CpuBackendTest.h"
#include "pyk/pyk.hpp"

namespace {

constexpr const char* kLaunchHelpersSource = R"(
from numba import cuda


@cuda.jit
def count(hits):
    i = cuda.grid(1)
    if i < hits.size:
        hits[i] += 1


@cuda.jit
def scale(a, x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a
)";

using LaunchHelpers = CpuBackendTest;

TEST_F(LaunchHelpers, ForallRunsEveryTaskOnceWithTheChosenOrGivenBlock) {
  pyk::Module m = pyk::loads(kLaunchHelpersSource, "helpers.pyk");
  for (std::int64_t tpb : {0, 1, 7, 256}) {
    auto hits = pyk::to_device(std::vector<std::int32_t>(1001, 0));
    m["count"].forall(1001, tpb)(hits);
    EXPECT_EQ(hits.copy_to_host(), std::vector<std::int32_t>(1001, 1)) << "tpb " << tpb;
  }
  auto none = pyk::to_device(std::vector<std::int32_t>(3, 0));
  m["count"].forall(0)(none); // nothing to do: no launch
  EXPECT_EQ(none.copy_to_host(), std::vector<std::int32_t>(3, 0));
  EXPECT_THROW(m["count"].forall(-1), pyk::Error);
}

TEST_F(LaunchHelpers, SpecializeCompilesNowAndRefusesOtherTypes) {
  pyk::Module m = pyk::loads(kLaunchHelpersSource, "helpers.pyk");
  auto x = pyk::to_device(std::vector<float>{1, 2, 3});
  pyk::Kernel scale = m["scale"].specialize(2.0f, x);
  EXPECT_EQ(scale.overloads(),
            std::vector<std::string>{"scale(float32, float32[::1]) -> none on cpu"});
  scale[{{1}, {32}}](2.0f, x);
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{2, 4, 6}));
  auto d = pyk::to_device(std::vector<double>{1});
  try {
    scale[{{1}, {32}}](2.0, d);
    FAIL() << "a specialized kernel took other types";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("`scale` was specialized for (float32, float32[::1]); "
                                         "the arguments are (float64, array(float64, 1d, C))"),
              std::string::npos)
        << e.what();
  }
  // The kernel it came from still takes any types, and lists what it compiled itself.
  m["scale"][{{1}, {32}}](2.0, d);
  EXPECT_EQ(d.copy_to_host(), std::vector<double>{2});
  EXPECT_EQ(m["scale"].overloads(),
            std::vector<std::string>{"scale(float64, float64[::1]) -> none on cpu"});
}

TEST_F(LaunchHelpers, MaxCooperativeGridBlocksOfASpecializedKernel) {
  pyk::Module m = pyk::loads(kLaunchHelpersSource, "helpers.pyk");
  auto hits = pyk::to_device(std::vector<std::int32_t>(4, 0));
  EXPECT_THROW(m["count"].max_cooperative_grid_blocks({64}), pyk::Error);
  pyk::Kernel count = m["count"].specialize(hits);
  EXPECT_EQ(count.max_cooperative_grid_blocks({64}), 256);  // the CPU backend's block limit
  EXPECT_EQ(count.max_cooperative_grid_blocks({1024}), 16); // its fiber limit: 16384 threads
  EXPECT_THROW(count.max_cooperative_grid_blocks({2048}), pyk::Error);
}

} // namespace
