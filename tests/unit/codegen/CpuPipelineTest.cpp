// CpuPipeline: the passes together: the mode of a kernel, its split plan, and the reasons a
// split falls back to fibers.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/CpuPipeline.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

// The plan of `kernel` (defined by `body`, after `tx = cuda.threadIdx.x`).
CpuExecutionPlan planOf(const std::string& body) {
  TypedKernel k("from numba import cuda, float32\n\n@cuda.jit\ndef kernel(a, n):\n"
                "    tx = cuda.threadIdx.x\n" +
                    body,
                "kernel", "void(float32[::1], int64)");
  EXPECT_TRUE(k.ok()) << k.errors();
  if (!k.ok())
    return {};
  return planCpuExecution(k.irModule());
}

TEST(CpuPipeline, ModesAndFiberReasons) {
  EXPECT_EQ(planOf("    a[tx] = 1\n").mode, CpuExecutionMode::Loop);
  EXPECT_FALSE(planOf("    a[tx] = 1\n").split.has_value());
  // A loop whose body is one test of the thread's index runs the box the test admits.
  const CpuExecutionPlan guarded = planOf("    if tx < n:\n        a[tx] = 1\n");
  EXPECT_EQ(guarded.mode, CpuExecutionMode::Loop);
  ASSERT_TRUE(guarded.split.has_value());
  ASSERT_EQ(guarded.split->steps.size(), 1u);
  EXPECT_FALSE(guarded.split->steps[0].exactParts.empty());
  // Not when something else happens outside the test, nor when a parameter is assigned.
  EXPECT_FALSE(planOf("    a[0] = 2\n    if tx < n:\n        a[tx] = 1\n").split.has_value());
  EXPECT_FALSE(planOf("    n = n - 1\n    if tx < n:\n        a[tx] = 1\n").split.has_value());
  const CpuExecutionPlan split = planOf("    a[tx] = 1\n    cuda.syncthreads()\n    a[tx] += 1\n");
  EXPECT_EQ(split.mode, CpuExecutionMode::Split);
  ASSERT_TRUE(split.split.has_value());
  EXPECT_FALSE(split.split->hasReturn);

  const CpuExecutionPlan divergent = planOf("    if tx < n:\n        cuda.syncthreads()\n");
  EXPECT_EQ(divergent.mode, CpuExecutionMode::Fiber);
  EXPECT_FALSE(divergent.split.has_value());
  EXPECT_EQ(divergent.fiberReason,
            "a barrier under `if` at 6:5 whose condition may differ between threads");

  // A local of two types split (two C++ variables per thread), but not joined at block level.
  const CpuExecutionPlan retyped =
      planOf("    x = tx\n    a[x] = 1\n    cuda.syncthreads()\n    x = 2.5\n    a[tx] += x\n");
  EXPECT_EQ(retyped.mode, CpuExecutionMode::Split) << retyped.fiberReason;
  EXPECT_EQ(planOf("    if n > 0:\n        x = tx\n        a[x] = 1\n        cuda.syncthreads()\n"
                   "    else:\n        x = 2.5\n        cuda.syncthreads()\n    a[tx] = x\n")
                .fiberReason,
            "`x` takes the types int32 and float64 (numba types each assignment on its own), "
            "joined after the block-level statement at 6:5, whose edges the split does not "
            "convert");

  // A grid-stride loop that would join such a local at block level stays in its region (the
  // split is planned again without grid-stride loops in lockstep), not on fibers.
  const CpuExecutionPlan strided = planOf("    x = tx\n    a[x] = 1\n    cuda.syncthreads()\n"
                                          "    for i in range(tx, n, cuda.blockDim.x):\n"
                                          "        x = 2.5\n    a[tx] = x\n");
  EXPECT_EQ(strided.mode, CpuExecutionMode::Split) << strided.fiberReason;
  ASSERT_TRUE(strided.split.has_value());
  EXPECT_FALSE(hasGridStrideLoop(strided.split->steps));
  EXPECT_TRUE(hasGridStrideLoop(planOf("    a[tx] = 1\n    cuda.syncthreads()\n"
                                       "    for i in range(tx, n, cuda.blockDim.x):\n"
                                       "        a[i] += 2.5\n")
                                    .split->steps));

  // A block-level loop's counter that threads assign.
  EXPECT_EQ(planOf("    for t in range(n):\n        cuda.syncthreads()\n        a[tx] = t\n"
                   "        t = 5\n        a[tx] += t\n")
                .fiberReason,
            "the counter `t` of a loop with a barrier is assigned in the loop");
  // A local array lives in its region's stack frame.
  EXPECT_EQ(planOf("    tmp = cuda.local.array(4, float32)\n    tmp[0] = a[tx]\n"
                   "    cuda.syncthreads()\n    a[tx] = tmp[0]\n")
                .fiberReason,
            "the local array `tmp` at 6:5 is used on both sides of a barrier");
}

TEST(CpuPipeline, AHoistedLocalThreadsAlsoWritePlansAgainWithoutHoisting) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    a[tx] = 0
    x = n
    cuda.syncthreads()
    a[tx] = 1
    x = n + 1
    a[tx] += x
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  ASSERT_EQ(plan.mode, CpuExecutionMode::Split) << plan.fiberReason;
  // Hoisted, `x = n` would write once for the block what the second region's threads write too:
  // nothing is hoisted, and `x` lives inside each region.
  EXPECT_EQ(k.stepsText(plan.split->steps), "region: tx = cuda.threadIdx.x; a[tx] = 0; x = n\n"
                                            "region: a[tx] = 1; x = n + 1; a[tx] += x\n");
  EXPECT_EQ(plan.split->perThread, LocalSet{});
  EXPECT_EQ(plan.split->perBlock, LocalSet{});
  EXPECT_EQ(k.names(plan.split->rematerializedLocals), std::set<std::string>{"tx"});
}

TEST(CpuPipeline, EarlyExits) {
  const CpuExecutionPlan plan =
      planOf("    if tx >= n:\n        return\n    cuda.syncthreads()\n    a[tx] = 1\n");
  ASSERT_EQ(plan.mode, CpuExecutionMode::Split) << plan.fiberReason;
  EXPECT_TRUE(plan.split->hasReturn);
}

} // namespace
} // namespace pyk::codegen
