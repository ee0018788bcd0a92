// BarrierRegions: pass 4 of the CPU pipeline: the body cut at barriers into regions and block-level
// control, or why it cannot be.
#include <gtest/gtest.h>

#include "SplitPasses.h"
#include "codegen/cpu/BarrierRegions.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {
namespace {

using test::SplitPass;
using test::SplitPasses;
using test::TypedKernel;

TEST(BarrierRegions, ALoopWithBarriersRunsAtBlockLevel) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def tiled(a, out, n):
    tile = cuda.shared.array(64, float32)
    tx = cuda.threadIdx.x
    acc = 0.0
    for t in range(n // 64):
        tile[tx] = a[t * 64 + tx]
        cuda.syncthreads()
        acc += tile[63 - tx]
        cuda.syncthreads()
    out[cuda.grid(1)] = acc
)",
                "tiled", "void(float32[::1], float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::BarrierRegions);
  const std::optional<BarrierRegions>& regions = passes.regions;
  ASSERT_TRUE(regions) << passes.whyNot;
  EXPECT_EQ(k.stepsText(regions->steps),
            "region: tile = cuda.shared.array(64, float32); tx = cuda.threadIdx.x; acc = 0.0\n"
            "for t in range(n // 64):\n"
            "  region: tile[tx] = a[t * 64 + tx]\n"
            "  region: acc += tile[63 - tx]\n"
            "region: out[cuda.grid(1)] = acc\n");
  EXPECT_EQ(k.names(regions->loopCounters), std::set<std::string>{"t"});
  ASSERT_EQ(regions->controls.size(), 1u);
  EXPECT_EQ(k.sourceOf(regions->controls[0]), "n // 64"); // the range's bound
  EXPECT_FALSE(regions->hasReturn);
}

// For a known block shape, a short uniform loop of assignments runs in lockstep (a block-level
// step); a loop whose bound may differ between threads, or whose body holds more than
// assignments, stays inside its region.
TEST(BarrierRegions, ShortUniformLoopsRunInLockstepForAKnownShape) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(a, out, n):
    tile = cuda.shared.array(64, float32)
    tx = cuda.threadIdx.x
    tile[tx] = a[tx]
    cuda.syncthreads()
    acc = 0.0
    for j in range(16):
        acc += tile[j] * tile[tx]
    for j in range(tx):
        acc += 1.0
    for j in range(n):
        if j > tx:
            acc += 2.0
    out[tx] = acc
)",
                "k", "void(float32[::1], float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const UniformityAnalysis uniformity(k.irEntry());
  std::string whyNot;
  const std::optional<BarrierRegions> shaped =
      formBarrierRegions(k.irEntry(), uniformity, whyNot, /*lockstepLoops=*/true);
  ASSERT_TRUE(shaped) << whyNot;
  EXPECT_EQ(k.stepsText(shaped->steps),
            "region: tile = cuda.shared.array(64, float32); tx = cuda.threadIdx.x; "
            "tile[tx] = a[tx]\n"
            "region: acc = 0.0\n"
            "for j in range(16):\n"
            "  region: acc += tile[j] * tile[tx]\n"
            "region: for j in range(tx):; for j in range(n):; out[tx] = acc\n");
  const std::optional<BarrierRegions> any = formBarrierRegions(k.irEntry(), uniformity, whyNot);
  ASSERT_TRUE(any) << whyNot;
  EXPECT_EQ(any->steps.size(), 2u); // the loops inside the second region
}

TEST(BarrierRegions, WhileAndIfWithUniformTestsAndAnEarlyReturn) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def reduce(a, n):
    s = cuda.shared.array(128, float32)
    tx = cuda.threadIdx.x
    if tx >= n:
        return
    s[tx] = a[tx]
    cuda.syncthreads()
    stride = 64
    while stride > 0:
        if tx < stride:
            s[tx] += s[tx + stride]
        cuda.syncthreads()
        stride //= 2
    if n > 1:
        cuda.syncthreads()
    else:
        a[0] = s[0]
)",
                "reduce", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::BarrierRegions);
  const std::optional<BarrierRegions>& regions = passes.regions;
  ASSERT_TRUE(regions) << passes.whyNot;
  EXPECT_EQ(k.stepsText(regions->steps),
            "region: s = cuda.shared.array(128, float32); tx = cuda.threadIdx.x; if tx >= n:; "
            "s[tx] = a[tx]\n"
            "region: stride = 64\n"
            "while stride > 0:\n"
            "  region: if tx < stride:\n"
            "  region: stride //= 2\n"
            "if n > 1:\n"
            "else:\n"
            "  region: a[0] = s[0]\n");
  EXPECT_EQ(regions->loopCounters, LocalSet{});
  ASSERT_EQ(regions->controls.size(), 2u);
  EXPECT_EQ(k.sourceOf(regions->controls[0]), "stride > 0");
  EXPECT_EQ(k.sourceOf(regions->controls[1]), "n > 1");
  EXPECT_TRUE(regions->hasReturn);
}

// Why the body of `kernel` (in `body`, after `tx = cuda.threadIdx.x`) cannot be cut.
std::string whyNotCut(const std::string& body) {
  TypedKernel k("from numba import cuda\n\n@cuda.jit\ndef kernel(a, n):\n"
                "    tx = cuda.threadIdx.x\n" +
                    body,
                "kernel", "void(int32[::1], int64)");
  if (!k.ok())
    return "does not compile: " + k.errors();
  const SplitPasses passes(k, SplitPass::BarrierRegions);
  return passes.regions ? "cut" : passes.whyNot;
}

TEST(BarrierRegions, BarriersTheBlockCannotRunAsASteps) {
  EXPECT_EQ(whyNotCut("    if tx < n:\n        cuda.syncthreads()\n"),
            "a barrier under `if` at 6:5 whose condition may differ between threads");
  EXPECT_EQ(whyNotCut("    while a[0] < n:\n        cuda.syncthreads()\n"),
            "a barrier under `while` at 6:5 whose condition may differ between threads");
  EXPECT_EQ(whyNotCut("    for i in range(tx):\n        cuda.syncthreads()\n"),
            "a barrier under `for` at 6:5 whose condition may differ between threads");
  EXPECT_EQ(whyNotCut("    for i in range(n):\n        cuda.syncthreads()\n        if i == 3:\n"
                      "            break\n"),
            "a barrier inside the `for` at 6:5 (only `for name in range(...)` without break, "
            "continue or else is split)");
  EXPECT_EQ(whyNotCut("    while n > 0:\n        cuda.syncthreads()\n        continue\n"),
            "a barrier inside the `while` at 6:5 (a loop with break, continue or else is not "
            "split)");
  EXPECT_EQ(whyNotCut("    a[tx] = cuda.syncthreads_count(tx > 3)\n"),
            "`cuda.syncthreads_count` at 6:13 (a barrier with a value)");
  // A break of a loop nested in the block-level one is that loop's own.
  EXPECT_EQ(whyNotCut("    for i in range(n):\n        cuda.syncthreads()\n"
                      "        for j in range(4):\n            break\n"),
            "cut");
}

} // namespace
} // namespace pyk::codegen
