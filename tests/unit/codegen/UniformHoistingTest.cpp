// UniformHoisting: pass 7 of the CPU pipeline: uniform assignments that begin or end a region run
// once for the block.
#include <gtest/gtest.h>

#include "SplitPasses.h"

namespace pyk::codegen {
namespace {

using test::SplitPass;
using test::SplitPasses;
using test::stepsAfter;
using test::TypedKernel;

TEST(UniformHoisting, LeadingAndTrailingUniformAssignmentsLeaveTheThreadLoop) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit
def k(a, n):
    s = cuda.shared.array(128, float32)
    tx = cuda.threadIdx.x
    s[tx] = a[tx]
    stride = cuda.blockDim.x // 2
    cuda.syncthreads()
    while stride > 0:
        if tx < stride:
            s[tx] += s[tx + stride]
        cuda.syncthreads()
        stride //= 2
    if tx == 0:
        a[cuda.blockIdx.x] = s[0]
)",
                "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  // The rematerialized `s` and `tx` stay where they are (and keep `stride` from leading the
  // region).
  EXPECT_EQ(stepsAfter(k, SplitPass::UniformHoisting),
            "region: s = cuda.shared.array(128, float32); tx = cuda.threadIdx.x; "
            "s[tx] = a[tx]\n"
            "uniform: stride = cuda.blockDim.x // 2\n"
            "while stride > 0:\n"
            "  region: if tx < stride:\n"
            "  uniform: stride //= 2\n"
            "region: if tx == 0:\n");
}

TEST(UniformHoisting, UniformAssignmentsBetweenThreadStatementsStay) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    cuda.syncthreads()
    a[tx] = 0
    h = n * 2
    a[tx] += h
    g = cuda.gridDim.x + tx
    cuda.syncthreads()
    a[tx] += g
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  // `g` ends the region but is not uniform.
  EXPECT_EQ(stepsAfter(k, SplitPass::UniformHoisting),
            "region: tx = cuda.threadIdx.x\n"
            "region: a[tx] = 0; h = n * 2; a[tx] += h; g = cuda.gridDim.x + tx\n"
            "region: a[tx] += g\n");
}

} // namespace
} // namespace pyk::codegen
