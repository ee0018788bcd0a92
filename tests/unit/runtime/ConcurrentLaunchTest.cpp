// ConcurrentLaunchTest: 16 host threads launching through one module at once, the same kernels
// and different ones, with argument types that need new specializations, all from an empty disk
// cache (so first compiles race): every result is right, and each specialization is compiled
// once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "CpuBackendTest.h"
#include "pyk/pyk.hpp"

namespace {

constexpr const char* kConcurrentSource = R"(
from numba import cuda


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(64, x.dtype)
    t = cuda.threadIdx.x
    s[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    if t == 0:
        acc = s[0]
        for j in range(1, 64):
            acc += s[j]
        out[cuda.blockIdx.x] = acc
)";

using ConcurrentLaunches = CpuBackendTest;

template <typename T>
bool axpyRound(const pyk::Module& m, int seed) {
  const std::size_t n = 300 + static_cast<std::size_t>(seed % 7) * 50;
  std::vector<T> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<T>(i % 11);
    y[i] = static_cast<T>(seed % 5);
  }
  auto dx = pyk::to_device(x);
  auto dy = pyk::to_device(y);
  m["axpy"][{{static_cast<std::int64_t>((n + 63) / 64)}, {64}}](static_cast<T>(3), dx, dy);
  const std::vector<T> out = dy.copy_to_host();
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] != static_cast<T>(3) * x[i] + y[i])
      return false;
  return true;
}

template <typename T>
bool blockSumRound(const pyk::Module& m) {
  std::vector<T> x(64 * 4);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<T>(i % 3);
  auto dx = pyk::to_device(x);
  auto out = pyk::device_array<T>(4);
  m["block_sum"][{{4}, {64}}](dx, out);
  const std::vector<T> sums = out.copy_to_host();
  for (std::size_t b = 0; b < 4; ++b) {
    T want = 0;
    for (std::size_t i = b * 64; i < (b + 1) * 64; ++i)
      want += x[i];
    if (sums[b] != want)
      return false;
  }
  return true;
}

TEST_F(ConcurrentLaunches, SixteenThreadsOneModuleEveryResultRight) {
  const pyk::Module m = pyk::loads(kConcurrentSource, "concurrent.pyk");
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int round = 0; round < 6; ++round) {
          bool ok = true;
          switch ((t + round) % 4) {
          case 0:
            ok = axpyRound<float>(m, t + round);
            break;
          case 1:
            ok = axpyRound<double>(m, t + round);
            break;
          case 2:
            ok = axpyRound<std::int32_t>(m, t + round);
            break;
          default:
            ok = (t % 2 == 0) ? blockSumRound<float>(m) : blockSumRound<std::int64_t>(m);
          }
          if (!ok)
            ++wrong;
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
        ++failed;
      }
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(failed.load(), 0);
  // Each specialization compiled once, whichever thread got there first.
  EXPECT_EQ(m["axpy"].overloads().size(), 3u);
  EXPECT_EQ(m["block_sum"].overloads().size(), 2u);
}

} // namespace
