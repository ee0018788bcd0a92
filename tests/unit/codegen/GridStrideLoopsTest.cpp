// GridStrideLoops: which `for` loops of a split kernel the block runs in lockstep, read off the
// forms numba users write a grid-stride or block-stride loop in.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/CpuPipeline.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

std::string stepsOf(const char* source, const char* signature) {
  TypedKernel k(source, "k", signature);
  if (!k.ok())
    return "error: " + k.errors();
  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  if (!plan.split)
    return "no split: " + plan.fiberReason;
  return k.stepsText(plan.split->steps);
}

TEST(GridStrideLoops, TheFormsOfAStartOffsetByTheThreadIndex) {
  const std::string steps = stepsOf(R"(
from numba import cuda, float32

@cuda.jit
def k(a, out):
    sh = cuda.shared.array(64, float32)
    tx = cuda.threadIdx.x
    for b in range(tx, 64, cuda.blockDim.x):
        sh[b] = 0
    cuda.syncthreads()
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, a.size, stride):
        out[i] = a[i]
    for j in range(cuda.grid(1), a.size, cuda.blockDim.x * cuda.gridDim.x):
        out[j] += sh[tx]
    base = cuda.blockIdx.x * cuda.blockDim.x
    for m in range(base + tx, a.size, 2 * cuda.gridDim.x):
        out[m] += 1
    y, x = cuda.grid(2)
    for n in range(x, a.size, cuda.gridsize(2)[1]):
        out[n] += 2
)",
                                    "void(float32[::1], float32[::1])");
  for (const char* loop : {"for b in range(tx, 64, cuda.blockDim.x): <lockstep x>",
                           "for i in range(start, a.size, stride): <lockstep x>",
                           "cuda.blockDim.x * cuda.gridDim.x): <lockstep x>",
                           "for m in range(base + tx, a.size, 2 * cuda.gridDim.x): <lockstep x>",
                           "for n in range(x, a.size, cuda.gridsize(2)[1]): <lockstep y>"})
    EXPECT_NE(steps.find(loop), std::string::npos) << loop << " in " << steps;
}

TEST(GridStrideLoops, LoopsTheThreadsCannotTakeInLockstep) {
  const std::string steps = stepsOf(R"(
from numba import cuda

@cuda.jit
def k(a, out, s):
    tx = cuda.threadIdx.x
    i = cuda.grid(1)
    for p in range(i, a.size, s):
        out[p] = a[p]
    for q in range(i, 0, -cuda.gridsize(1)):
        out[q] += 1
    for r in range(i * 2, a.size, cuda.gridsize(1)):
        out[r] += 2
    for t in range(i, a[0], cuda.gridsize(1)):
        out[t] += 3
    for u in range(i, a.size, cuda.gridsize(1)):
        if a[u] > 5:
            break
        out[u] += 4
    last = 0
    for v in range(i, a.size, cuda.gridsize(1)):
        last = v
    for w in range(i, a.size, cuda.gridsize(1)):
        out[w] += 5
    out[i] += w
)",
                                    "void(int64[::1], int64[::1], int64)");
  // A step of unknown sign, a negative one, a start that is not the index plus a uniform value,
  // a stop that differs between threads, a counter read after its loop: each loop stays in its
  // region. A break (a thread leaves the rounds) and a local assigned in one (`last`) are fine.
  for (const char* loop : {"for p ", "for q ", "for r ", "for t ", "for w "}) {
    const size_t at = steps.find(loop);
    ASSERT_NE(at, std::string::npos) << loop << " in " << steps;
    EXPECT_EQ(steps.substr(at, steps.find('\n', at) - at).find("<lockstep"), std::string::npos)
        << steps;
  }
  for (const char* loop : {"for u in range(i, a.size, cuda.gridsize(1)): <lockstep x>",
                           "for v in range(i, a.size, cuda.gridsize(1)): <lockstep x>"})
    EXPECT_NE(steps.find(loop), std::string::npos) << loop << " in " << steps;
}

} // namespace
} // namespace pyk::codegen
