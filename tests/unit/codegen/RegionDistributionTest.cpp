// RegionDistribution: pass 6 of the CPU pipeline: statements with thread bounds get regions of
// their own; an `if` whose body holds one is distributed into guarded statements, without
// synthesizing any AST node.
#include <gtest/gtest.h>

#include "SplitPasses.h"

namespace pyk::codegen {
namespace {

using test::SplitPass;
using test::SplitPasses;
using test::stepsAfter;
using test::TypedKernel;

TEST(RegionDistribution, AnIfWhoseBodyHoldsBoundedStatementsIsDistributed) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(a, out, n):
    tile = cuda.shared.array(64, float32)
    tx = cuda.threadIdx.x
    i = cuda.grid(1)
    inside = i < n
    if inside:
        c = a[i]
        tile[tx] = c
        if tx == 0:
            tile[63] = c
        if i == n - 1:
            tile[62] = c
    cuda.syncthreads()
    if inside:
        out[i] = tile[tx]
)",
                "k", "void(float32[::1], float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::RegionDistribution);
  const BarrierSplitPlan& plan = passes.plan;
  // The rematerialized assignments stay first, with the first guarded statement; each guarded
  // statement is bounded by `inside` (a rematerialized `i < n`), so each is a region of its own.
  // After the barrier, the `if` of one statement is not distributed.
  EXPECT_EQ(k.stepsText(plan.steps),
            "region: tile = cuda.shared.array(64, float32); tx = cuda.threadIdx.x; "
            "i = cuda.grid(1); inside = i < n; [if inside:] c = a[i]\n"
            "region: [if inside:] tile[tx] = c\n"
            "region: [if inside:] if tx == 0:\n"
            "region: [if inside:] if i == n - 1:\n"
            "region: if inside:\n");
  // A guarded statement is the `if`'s own statement, under the `if` itself.
  const RegionStatement& guarded = plan.steps[1].statements[0];
  ASSERT_NE(guarded.guard, nullptr);
  const ir::If* source = guarded.guard;
  EXPECT_EQ(k.lineOf(source), "if inside:");
  EXPECT_EQ(guarded.statement, source->then[1]);
  // Distribution leaves the narrowing to RegionNarrowing.
  for (const SplitStep& s : plan.steps)
    EXPECT_TRUE(s.narrowing.empty());
}

TEST(RegionDistribution, AnIfWhoseBodyAssignsItsTestStaysWhole) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    m = n
    if m > 0:
        m = 0
        if tx == 0:
            a[0] = 1
    cuda.syncthreads()
    a[tx] += m
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(stepsAfter(k, SplitPass::RegionDistribution),
            "region: tx = cuda.threadIdx.x; m = n; if m > 0:\n"
            "region: a[tx] += m\n");
}

TEST(RegionDistribution, BoundedStatementsBetweenOthersAreCutOut) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    a[tx] = 0
    if tx < n:
        a[tx] = 1
    a[tx] += 2
    a[tx] += 3
    cuda.syncthreads()
    a[tx] *= 2
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(stepsAfter(k, SplitPass::RegionDistribution),
            "region: tx = cuda.threadIdx.x; a[tx] = 0\n"
            "region: if tx < n:\n"
            "region: a[tx] += 2; a[tx] += 3\n"
            "region: a[tx] *= 2\n");
}

} // namespace
} // namespace pyk::codegen
