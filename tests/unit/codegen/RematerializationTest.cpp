// Rematerialization: pass 5 of the CPU pipeline: the first region's assignments each thread can
// compute again in every later region instead of keeping their values per thread.
#include <gtest/gtest.h>

#include "SplitPasses.h"
#include "codegen/cpu/Rematerialization.h"

namespace pyk::codegen {
namespace {

using test::SplitPass;
using test::SplitPasses;
using test::TypedKernel;

TEST(Rematerialization, ThreadPureValuesAssignedOnceInTheFirstRegion) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(a, out, n):
    tx = cuda.threadIdx.x
    col, row = cuda.grid(2)
    inside = row < n and col < n
    v = a[tx]
    j = tx + 1
    w = float32(tx) * 2
    twice = tx
    twice = tx + 1
    cuda.syncthreads()
    late = cuda.threadIdx.y
    out[row, col] = v + j + w + late + twice
)",
                "k", "void(float32[::1], float32[:, ::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  SplitPasses passes(k, SplitPass::Rematerialization);
  ASSERT_TRUE(passes.regions) << passes.whyNot;
  const BarrierSplitPlan& plan = passes.plan;
  // `v` reads memory; `twice` is assigned twice; `late` is not in the first region.
  EXPECT_EQ(k.names(plan.rematerializedLocals),
            (std::set<std::string>{"tx", "col", "row", "inside", "j", "w"}));
  std::vector<std::string> statements;
  for (const ir::Stmt* s : plan.rematerialized)
    statements.emplace_back(k.lineOf(s));
  EXPECT_EQ(statements, (std::vector<std::string>{
                            "tx = cuda.threadIdx.x", "col, row = cuda.grid(2)",
                            "inside = row < n and col < n", "j = tx + 1", "w = float32(tx) * 2"}));

  markRematerializingRegion(passes.plan);
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_TRUE(plan.steps[0].definesRematerialized);
  EXPECT_FALSE(plan.steps[1].definesRematerialized);
}

TEST(Rematerialization, NothingWhenTheKernelBeginsWithBlockLevelControl) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    for t in range(n):
        cuda.syncthreads()
        tx = cuda.threadIdx.x
        a[tx] = t
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const SplitPasses passes(k, SplitPass::Rematerialization);
  ASSERT_TRUE(passes.regions) << passes.whyNot;
  EXPECT_TRUE(passes.plan.rematerialized.empty());
  EXPECT_TRUE(passes.plan.rematerializedLocals.empty());
}

} // namespace
} // namespace pyk::codegen
