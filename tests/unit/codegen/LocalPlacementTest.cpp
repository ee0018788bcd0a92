// LocalPlacement: pass 8 of the CPU pipeline: which locals of a split kernel live per thread, which
// once per block, which inside their region.
#include <gtest/gtest.h>

#include "SplitPasses.h"

namespace pyk::codegen {
namespace {

using test::SplitPass;
using test::SplitPasses;
using test::TypedKernel;

TEST(LocalPlacement, CarriedValuesPerThreadUniformOnesPerBlock) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(a, out, n):
    tile = cuda.shared.array(64, float32)
    tx = cuda.threadIdx.x
    half = n // 2
    acc = 0.0
    for t in range(n // 64):
        tile[tx] = 0.0
        offset = t * 64
        stop = offset + 64
        tile[tx] = a[offset + tx]
        cuda.syncthreads()
        acc += tile[63 - tx] * half + offset + stop
        cuda.syncthreads()
    last = tile[0]
    out[cuda.grid(1)] = acc + last
)",
                "k", "void(float32[::1], float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::LocalPlacement);
  ASSERT_TRUE(passes.regions) << passes.whyNot;
  const LocalPlacement& p = passes.placement;
  // `acc` carries a thread's sum from region to region; `offset` and `stop` are the same in
  // every thread and computed from the loop's counter (and `stop` from `offset`); `t` counts a
  // block-level loop. `half`, uniform and assigned once in the first region, is rematerialized
  // with `tx` and `tile`; `last` lives in its region.
  EXPECT_EQ(k.names(p.perThread), std::set<std::string>{"acc"});
  EXPECT_EQ(k.names(p.perBlock), (std::set<std::string>{"offset", "stop", "t"}));
  EXPECT_EQ(k.names(passes.plan.rematerializedLocals),
            (std::set<std::string>{"half", "tile", "tx"}));
  EXPECT_EQ(k.names(p.assignedInRegion),
            (std::set<std::string>{"tile", "tx", "half", "acc", "offset", "stop", "last"}));
  EXPECT_TRUE(p.hoistedTargets.empty());
  EXPECT_FALSE(hoistedLocalWrittenByThreads(p));
  EXPECT_EQ(placementConflict(k.irEntry(), {k.local("t")}, p, passes.plan), "");
}

TEST(LocalPlacement, UniformLocalsBlockLevelControlReads) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    m = n
    m += 1
    a[tx] = m
    stride = n
    cuda.syncthreads()
    if m > 3:
        cuda.syncthreads()
        a[tx] += 1
    while stride > 0:
        cuda.syncthreads()
        stride //= 2
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::LocalPlacement);
  ASSERT_TRUE(passes.regions) << passes.whyNot;
  const LocalPlacement& p = passes.placement;
  // The `if` reads `m`, which depends on itself: per thread (each thread's copy is the same).
  // `stride` is hoisted out of its regions: the block alone writes it.
  EXPECT_EQ(k.names(p.perThread), std::set<std::string>{"m"});
  EXPECT_EQ(k.names(p.perBlock), std::set<std::string>{"stride"});
  EXPECT_EQ(k.names(p.hoistedTargets), std::set<std::string>{"stride"});
}

TEST(LocalPlacement, AValueCarriedRoundABlockLevelLoopIsPerThread) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    for t in range(n):
        cuda.syncthreads()
        if t == 0:
            prev = 0.0
        a[tx] += prev
        prev = a[tx]
        fresh = a[tx] * 2
        a[tx] = fresh
)",
                "k", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::LocalPlacement);
  ASSERT_TRUE(passes.regions) << passes.whyNot;
  const LocalPlacement& p = passes.placement;
  // One region uses `prev`, but reads it before assigning it on some paths: the value the
  // thread left on the loop's previous trip. `fresh` is assigned before every read.
  EXPECT_EQ(k.names(p.perThread), std::set<std::string>{"prev"});
  EXPECT_EQ(k.names(p.perBlock), std::set<std::string>{"t"});
}

} // namespace
} // namespace pyk::codegen
