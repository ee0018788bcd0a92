// ThreadModelScan: pass 1 of the CPU pipeline (and ExecutionModeDecision, pass 2): the warp
// operations and barriers each reached function uses, and the mode they allow.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/ExecutionModeDecision.h"
#include "codegen/cpu/ThreadModelScan.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

const char* kThreadModelSource = R"(
from numba import cuda, int32

@cuda.jit(device=True)
def wait_here(s):
    cuda.syncthreads()
    return s[0]

@cuda.jit(device=True)
def plus_one(x):
    return x + 1

@cuda.jit
def plain(a):
    i = cuda.grid(1)
    a[i] = plus_one(a[i])

@cuda.jit
def tiled(a):
    s = cuda.shared.array(32, int32)
    s[cuda.threadIdx.x] = a[cuda.grid(1)]
    cuda.syncthreads()
    a[cuda.grid(1)] = s[31 - cuda.threadIdx.x]

@cuda.jit
def shuffled(a):
    i = cuda.grid(1)
    cuda.syncthreads()
    a[i] = cuda.shfl_down_sync(0xffffffff, a[i], 1)

@cuda.jit
def waits_in_a_call(a):
    s = cuda.shared.array(32, int32)
    a[cuda.grid(1)] = wait_here(s) + plus_one(a[0])
)";

TEST(ThreadModelScan, FindsEachFunctionsFirstBarrierAndWarpOperation) {
  TypedKernel k(kThreadModelSource, "waits_in_a_call", "void(int32[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  const std::vector<ThreadModelUse> uses = scanThreadModel(k.irModule(), k.irEntry());
  ASSERT_EQ(uses.size(), 3u);
  EXPECT_EQ(uses[0].function, &k.irEntry()); // the kernel first, then its callees
  EXPECT_EQ(uses[0].barrier, nullptr);
  int waits = 0;
  for (const ThreadModelUse& use : uses) {
    if (use.function->name == "wait_here") {
      ++waits;
      ASSERT_NE(use.barrier, nullptr);
      EXPECT_EQ(sourcePosition(use.barrier), "6:5");
      EXPECT_EQ(intrinsicNameOf(use.barrier), "cuda.syncthreads");
    } else {
      EXPECT_EQ(use.barrier, nullptr) << use.function->name;
    }
  }
  EXPECT_EQ(waits, 1);
  for (const ThreadModelUse& use : uses)
    EXPECT_EQ(use.warpOperation, nullptr);

  TypedKernel shuffled(kThreadModelSource, "shuffled", "void(int32[::1])");
  ASSERT_TRUE(shuffled.ok()) << shuffled.errors();
  const std::vector<ThreadModelUse> warp = scanThreadModel(shuffled.irModule(), shuffled.irEntry());
  ASSERT_EQ(warp.size(), 1u);
  ASSERT_NE(warp[0].warpOperation, nullptr);
  EXPECT_EQ(intrinsicNameOf(warp[0].warpOperation), "cuda.shfl_down_sync");
  ASSERT_NE(warp[0].barrier, nullptr);
  EXPECT_EQ(sourcePosition(warp[0].barrier), "28:5");
}

CpuExecutionPlan decide(const TypedKernel& k) {
  return decideExecutionMode(k.irEntry(), scanThreadModel(k.irModule(), k.irEntry()));
}

TEST(ExecutionModeDecision, LoopWithoutBarriersSplitWithThem) {
  TypedKernel plain(kThreadModelSource, "plain", "void(int32[::1])");
  ASSERT_TRUE(plain.ok()) << plain.errors();
  EXPECT_EQ(decide(plain).mode, CpuExecutionMode::Loop);
  EXPECT_EQ(decide(plain).fiberReason, "");

  TypedKernel tiled(kThreadModelSource, "tiled", "void(int32[::1])");
  ASSERT_TRUE(tiled.ok()) << tiled.errors();
  EXPECT_EQ(decide(tiled).mode, CpuExecutionMode::Split); // to be planned by the passes after
  EXPECT_FALSE(decide(tiled).split.has_value());
}

TEST(ExecutionModeDecision, FibersForWarpOperationsAndBarriersInDeviceFunctions) {
  TypedKernel shuffled(kThreadModelSource, "shuffled", "void(int32[::1])");
  ASSERT_TRUE(shuffled.ok()) << shuffled.errors();
  const CpuExecutionPlan warp = decide(shuffled);
  EXPECT_EQ(warp.mode, CpuExecutionMode::Fiber);
  EXPECT_EQ(warp.fiberReason, "the warp operation `cuda.shfl_down_sync` at 29:12");

  TypedKernel call(kThreadModelSource, "waits_in_a_call", "void(int32[::1])");
  ASSERT_TRUE(call.ok()) << call.errors();
  const CpuExecutionPlan barrier = decide(call);
  EXPECT_EQ(barrier.mode, CpuExecutionMode::Fiber);
  EXPECT_EQ(barrier.fiberReason, "`cuda.syncthreads` in the device function `wait_here` at 6:5");
}

TEST(ExecutionModeDecision, FibersForAParameterAssignedTo) {
  const char* source = R"(from numba import cuda, float32

@cuda.jit
def assigns_parameter(a, n):
    sm = cuda.shared.array(32, float32)
    n -= 1
    sm[cuda.threadIdx.x] = n
    cuda.syncthreads()
    a[cuda.threadIdx.x] = sm[0]

@cuda.jit
def retypes(a, n):
    sm = cuda.shared.array(32, float32)
    x = n
    sm[cuda.threadIdx.x] = x // 2
    cuda.syncthreads()
    x = 2.5
    a[cuda.threadIdx.x] = sm[0] + x
)";
  TypedKernel parameter(source, "assigns_parameter", "void(float32[::1], int64)");
  ASSERT_TRUE(parameter.ok()) << parameter.errors();
  EXPECT_EQ(decide(parameter).mode, CpuExecutionMode::Fiber);
  EXPECT_EQ(decide(parameter).fiberReason,
            "the parameter `n` is assigned to at 6:5, and split regions share the parameters "
            "between threads");

  // A local of two types is two C++ variables, which the split keeps (LocalPlacement refuses
  // only a join of them at block-level control).
  TypedKernel retyped(source, "retypes", "void(float32[::1], int32)");
  ASSERT_TRUE(retyped.ok()) << retyped.errors();
  EXPECT_EQ(decide(retyped).mode, CpuExecutionMode::Split);
}

} // namespace
} // namespace pyk::codegen
