// CpuGridSyncTest: `cuda.cg.this_grid().sync()` on the CPU backend: every block of the launch runs
// at once, so a grid barrier orders writes of one block before reads of another, in straight
// code and in loops; blocks whose threads return count as arrived; a launch too large to run at
// once is refused naming the limit; a block that fails releases the others with its error.
#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* kGridSyncSource = R"pyk(
from numba import cuda


@cuda.jit
def reverse_across_blocks(a, b):
    i = cuda.grid(1)
    n = a.size
    if i < n:
        a[i] = i * 2.0
    cuda.cg.this_grid().sync()
    if i < n:
        b[i] = a[n - 1 - i]


@cuda.jit
def smooth(x, y, steps):
    i = cuda.grid(1)
    n = x.size
    g = cuda.cg.this_grid()
    for s in range(steps):
        if i < n:
            left = x[i - 1] if i > 0 else x[i]
            right = x[i + 1] if i < n - 1 else x[i]
            y[i] = (left + x[i] + right) / 3.0
        g.sync()
        if i < n:
            x[i] = y[i]
        g.sync()


@cuda.jit
def some_blocks_leave(a, b):
    i = cuda.grid(1)
    if cuda.blockIdx.x % 2 == 1:
        return
    a[i] = 1.0 + cuda.blockIdx.x
    cuda.cg.this_grid().sync()
    b[i] = a[(i + cuda.blockDim.x * 2) % a.size] + 1.0


@cuda.jit
def one_block_fails(a):
    i = cuda.grid(1)
    if cuda.blockIdx.x == 3:
        a[i + a.size] = 1.0
    cuda.cg.this_grid().sync()
    a[i] = 2.0
)pyk";

class CpuGridSync : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = cache_ / "cache"; });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
};

TEST_F(CpuGridSync, WritesOfEveryBlockAreSeenAfterTheBarrier) {
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  const int n = 1000;
  auto a = pyk::device_array<double>(n);
  auto b = pyk::device_array<double>(n);
  m["reverse_across_blocks"][{8, 128}](a, b);
  std::vector<double> got = b.copy_to_host();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], (n - 1 - i) * 2.0) << i;
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(a), pyk::KernelArgument::of(b)};
  EXPECT_NE(m["reverse_across_blocks"].execution_mode(args).find("synchronises the grid"),
            std::string::npos);
}

TEST_F(CpuGridSync, BarriersInLoopsMatchASerialComputation) {
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  const int n = 300;
  const std::int64_t steps = 6;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = (i * 37 % 11) - 5.0;
  auto dx = pyk::to_device(x);
  auto dy = pyk::device_array<double>(n);
  m["smooth"][{5, 64}](dx, dy, steps);
  std::vector<double> want = x, next(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      next[i] = (want[i > 0 ? i - 1 : i] + want[i] + want[i < n - 1 ? i + 1 : i]) / 3.0;
    want = next;
  }
  std::vector<double> got = dx.copy_to_host();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], want[i]) << i;
}

TEST_F(CpuGridSync, BlocksWhoseThreadsReturnCountAsArrived) {
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  auto a = pyk::to_device(std::vector<float>(8 * 32, 0.0f));
  auto b = pyk::to_device(std::vector<float>(8 * 32, 0.0f));
  m["some_blocks_leave"][{8, 32}](a, b);
  std::vector<float> got = b.copy_to_host();
  for (int i = 0; i < 8 * 32; ++i) {
    const int block = i / 32;
    // Even blocks read block + 2's value (wrapping round the grid), written before the barrier.
    ASSERT_EQ(got[i], block % 2 == 1 ? 0.0f : 1.0f + static_cast<float>((block + 2) % 8) + 1.0f)
        << i;
  }
}

// The largest launches allowed run: 16384 threads, as 64 blocks of 256 or 256 blocks of 64, each
// block a thread of its own.
TEST_F(CpuGridSync, TheLargestCooperativeLaunchesRun) {
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  const int n = 16384;
  auto a = pyk::device_array<double>(n);
  auto b = pyk::device_array<double>(n);
  for (auto [blocks, threads] : {std::pair{64, 256}, std::pair{256, 64}}) {
    m["reverse_across_blocks"][{blocks, threads}](a, b);
    std::vector<double> got = b.copy_to_host();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(got[i], (n - 1 - i) * 2.0) << i << " with " << blocks << " blocks";
  }
}

TEST_F(CpuGridSync, ALaunchTooLargeToRunAtOnceNamesTheLimit) {
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  auto a = pyk::device_array<double>(300 * 32);
  auto b = pyk::device_array<double>(300 * 32);
  try {
    m["reverse_across_blocks"][{300, 32}](a, b);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(e.what()).find("at most 256 blocks"), std::string::npos) << e.what();
  }
}

TEST_F(CpuGridSync, AFailingBlockReleasesTheOthersWithItsError) {
  SettingsForTest checks;
  checks.change([](pyk::RuntimeSettings& s) { s.bounds_check = true; });
  pyk::Module m = pyk::loads(kGridSyncSource, "grid_sync.pyk");
  auto a = pyk::device_array<float>(8 * 16);
  try {
    m["one_block_fails"][{8, 16}](a);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Kernel);
    EXPECT_NE(std::string(e.what()).find("out of bounds"), std::string::npos) << e.what();
  }
}

} // namespace
