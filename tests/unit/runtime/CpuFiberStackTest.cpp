// CpuFiberStackTest: a fiber that overflows its stack faults on the guard page below it instead
// of writing over another fiber's stack, and the launch ends with an error; the next launch runs.
#include "CpuTestEngine.h"
#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pyk::cpu::testing {
namespace {

// Recursion with a kilobyte per frame that the compiler can neither drop nor turn into a loop.
[[gnu::noinline]] int64 deepRecursion(int64 depth) {
  volatile unsigned char frame[1024];
  frame[0] = static_cast<unsigned char>(depth);
  if (depth == 0)
    return frame[0];
  return deepRecursion(depth - 1) + frame[0];
}

void overflowingThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  syncthreads(thread);
  if (thread.linearIndex == 1)
    out(0) = deepRecursion(80); // 80 KiB: past the 64 KiB stack, not past its neighbour's
}

void shallowThread(Thread& thread, void** args) {
  auto& out = argument<Vector<int64>>(args, 0);
  syncthreads(thread);
  out(thread.linearIndex) = deepRecursion(16); // 16 KiB: fits in the default 64 KiB
}

TEST(CpuFiberStackTest, AnOverflowFaultsOnTheGuardPageAndEndsTheLaunchWithAnError) {
  std::vector<int64> out(4, 0);
  auto view = viewOf(out);
  void* args[] = {&view};
  // The fault on the guard page is caught (cpu/KernelFault.h, on the worker's alternate signal
  // stack) and the launch ends with an error naming the kernel and the block.
  try {
    cpuTestEngine().launch(fiberKernel("overflow", overflowingThread), Dim3{1}, Dim3{4}, 0, 0,
                           args);
    ADD_FAILURE() << "the overflowing launch returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Kernel);
    EXPECT_NE(std::string(e.what()).find("kernel `overflow`: a thread of block (0, 0, 0)"),
              std::string::npos)
        << e.what();
  }
  // Recursion that fits runs normally.
  cpuTestEngine().launch(fiberKernel("shallow", shallowThread), Dim3{2}, Dim3{4}, 0, 0, args);
  EXPECT_EQ(out[3], 16 * 17 / 2);
}

} // namespace
} // namespace pyk::cpu::testing
