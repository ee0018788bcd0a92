// RegionNarrowing: pass 9 of the CPU pipeline: the box of threads each region runs over, and the
// tests the box makes exact.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/CpuPipeline.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

TEST(RegionNarrowing, BoxesFromComparisonsOfThreadIndices) {
  TypedKernel k(R"(
from numba import cuda, int32

@cuda.jit
def k(out, n):
    sh = cuda.shared.array((8, 16), int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sh[ty, tx] = 0
    cuda.syncthreads()
    if tx < n:
        sh[ty, tx] += 1
    cuda.syncthreads()
    if n > tx and ty == 0:
        sh[ty, tx] += 2
    cuda.syncthreads()
    if 2 <= tx <= n:
        sh[ty, tx] += 3
    cuda.syncthreads()
    if tx == n - 1:
        sh[ty, tx] += 4
    if ty >= 6:
        sh[ty, tx] += 5
    cuda.syncthreads()
    if tx < n or ty == 0:
        sh[ty, tx] += 6
    cuda.syncthreads()
    out[ty, tx] = sh[ty, tx]
)",
                "k", "void(int32[:, ::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  ASSERT_EQ(plan.mode, CpuExecutionMode::Split) << plan.fiberReason;
  // `n > tx` reads as `tx < n`; a chain gives a bound per link; two bounded `if`s get a region
  // each; `or` gives alternatives.
  EXPECT_EQ(k.stepsText(plan.split->steps),
            "region: sh = cuda.shared.array((8, 16), int32); tx = cuda.threadIdx.x; "
            "ty = cuda.threadIdx.y; sh[ty, tx] = 0\n"
            "region: if tx < n: <box: tx < n>\n"
            "region: if n > tx and ty == 0: <box: tx < n & ty == 0>\n"
            "region: if 2 <= tx <= n: <box: tx >= 2 & tx <= n>\n"
            "region: if tx == n - 1: <box: tx == n - 1>\n"
            "region: if ty >= 6: <box: ty >= 6>\n"
            "region: if tx < n or ty == 0: <box: tx < n | ty == 0>\n"
            "region: out[ty, tx] = sh[ty, tx]\n");
  // Where the box is exactly what the test admits, the region runs the `if`'s body alone;
  // an `or` (a hull of two boxes) keeps its test.
  std::vector<std::string> exact;
  for (const SplitStep& s : plan.split->steps)
    exact.push_back(s.exactParts.empty() ? "-"
                                         : std::string(k.lineOf(s.exactParts[0].statements[0])));
  EXPECT_EQ(exact,
            (std::vector<std::string>{"-", "sh[ty, tx] += 1", "sh[ty, tx] += 2", "sh[ty, tx] += 3",
                                      "sh[ty, tx] += 4", "sh[ty, tx] += 5", "-", "-"}));
}

TEST(RegionNarrowing, GridIndicesAndDistributedStatements) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(field, out, nrows):
    band = cuda.shared.array((4, 32), float32)
    col, row = cuda.grid(2)
    ty = cuda.threadIdx.y
    if row < nrows:
        band[ty, 0] = field[row, col]
        if ty == 3 or row == nrows - 1:
            band[ty, 1] = field[row, col]
    cuda.syncthreads()
    if row < nrows:
        out[row, col] = band[ty, 0] + band[ty, 1]
)",
                "k", "void(float32[:, ::1], float32[:, ::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  ASSERT_EQ(plan.mode, CpuExecutionMode::Split) << plan.fiberReason;
  // `row` is the grid index on y; a distributed statement's box has its guard's bounds, and
  // those of an `if` it is (an `or`: one alternative each).
  EXPECT_EQ(k.stepsText(plan.split->steps),
            "region: band = cuda.shared.array((4, 32), float32); col, row = cuda.grid(2); "
            "ty = cuda.threadIdx.y; [if row < nrows:] band[ty, 0] = field[row, col] "
            "<box: gy < nrows>\n"
            "region: [if row < nrows:] if ty == 3 or row == nrows - 1: "
            "<box: gy < nrows & ty == 3 | gy < nrows & gy == nrows - 1>\n"
            "region: if row < nrows: <box: gy < nrows>\n");
  ASSERT_EQ(plan.split->steps.size(), 3u);
  EXPECT_EQ(k.lineOf(plan.split->steps[0].exactParts.at(0).statements.at(0)),
            "band[ty, 0] = field[row, col]");
  // The `or` is no exact test: the region keeps it.
  ASSERT_EQ(plan.split->steps[1].exactParts.size(), 1u);
  ASSERT_EQ(plan.split->steps[1].exactParts[0].statements.size(), 1u);
  EXPECT_EQ(k.lineOf(plan.split->steps[1].exactParts[0].statements[0]),
            "if ty == 3 or row == nrows - 1:");
  EXPECT_EQ(k.lineOf(plan.split->steps[2].exactParts.at(0).statements.at(0)),
            "out[row, col] = band[ty, 0] + band[ty, 1]");
}

} // namespace
} // namespace pyk::codegen
