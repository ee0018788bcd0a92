// BarrierInlining: calls of device functions that wait at barriers written into a copy of the
// kernel, which the verifier accepts and the split then plans; barriers with a value given a
// statement of their own; the calls it cannot inline left, with the reason.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/BarrierInlining.h"
#include "codegen/cpu/CpuPipeline.h"
#include "ir/IrVerifier.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

constexpr const char* kSource = R"(from numba import cuda, int32

@cuda.jit(device=True)
def reduce(sm, v):
    t = cuda.threadIdx.x
    sm[t] = v
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            sm[t] += sm[t + s]
        cuda.syncthreads()
        s //= 2
    v = sm[0]
    cuda.syncthreads()
    return v

@cuda.jit(device=True)
def twice(sm, v):
    return reduce(sm, reduce(sm, v))

@cuda.jit(device=True)
def plain(x):
    return x + 1

@cuda.jit
def k(a):
    sm = cuda.shared.array(64, int32)
    i = cuda.grid(1)
    a[i] = twice(sm, a[i]) + plain(cuda.syncthreads_count(a[i] > 0))
)";

// The variables of `f` whose names start with `prefix`.
int variablesNamed(const ir::Function& f, const std::string& prefix) {
  int n = 0;
  for (const ir::Variable& v : f.variables)
    n += v.name.rfind(prefix, 0) == 0;
  return n;
}

TEST(BarrierInlining, InlinesEveryWaitingCallIntoAVerifiedCopy) {
  TypedKernel k(kSource, "k", "void(int32[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  const InlinedBarrierCalls inlined = inlineBarrierCalls(k.irModule());
  ASSERT_NE(inlined.module, nullptr) << inlined.whyNot;
  const ir::Function& copy = inlined.module->entry();
  EXPECT_TRUE(ir::verify(k.irModule(), copy).empty()) << ir::verify(k.irModule(), copy).front();
  // The module lowering made is left as it was.
  EXPECT_EQ(k.irEntry().variables.size(), 3u); // a, sm, i
  // `twice` once, `reduce` twice (its locals named apart), `plain` still called.
  EXPECT_EQ(variablesNamed(copy, "twice."), 3);    // sm, v, return
  EXPECT_EQ(variablesNamed(copy, "reduce.2."), 5); // sm, v, t, s, return
  EXPECT_EQ(variablesNamed(copy, "syncthreads_count."), 1);
  int waitingCalls = 0, plainCalls = 0;
  ir::forEachNode(copy.body, [&](const ir::Node* n) {
    if (const auto* c = n->as<ir::Call>())
      (c->callee->name == "plain" ? plainCalls : waitingCalls) += 1;
  });
  EXPECT_EQ(waitingCalls, 0);
  EXPECT_EQ(plainCalls, 1);

  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  EXPECT_EQ(plan.mode, CpuExecutionMode::Split) << plan.fiberReason;
  ASSERT_NE(plan.inlined, nullptr);
  EXPECT_EQ(&plan.splitKernel(k.irModule()), &plan.inlined->entry());
}

TEST(BarrierInlining, LeavesAKernelWithoutWaitingCallsAlone) {
  TypedKernel k(kSource, "k", "void(int32[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  TypedKernel loop("from numba import cuda\n\n@cuda.jit\ndef k(a):\n    a[cuda.grid(1)] = 1\n", "k",
                   "void(int32[::1])");
  ASSERT_TRUE(loop.ok()) << loop.errors();
  const InlinedBarrierCalls none = inlineBarrierCalls(loop.irModule());
  EXPECT_EQ(none.module, nullptr);
  EXPECT_EQ(none.whyNot, "");
  EXPECT_EQ(planCpuExecution(loop.irModule()).inlined, nullptr);
}

TEST(BarrierInlining, SaysWhyACallStaysACall) {
  const std::string source = std::string(kSource) + R"(
@cuda.jit
def waits_in_while(a):
    sm = cuda.shared.array(64, int32)
    while reduce(sm, a[0]) > 3:
        a[0] -= 1
)";
  TypedKernel k(source, "waits_in_while", "void(int32[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  const InlinedBarrierCalls inlined = inlineBarrierCalls(k.irModule());
  EXPECT_EQ(inlined.module, nullptr);
  EXPECT_EQ(inlined.whyNot, "the call of `reduce` at 35:11 (which waits at `cuda.syncthreads` at "
                            "7:5) is in a `while` test, evaluated at each trip, which the CPU "
                            "backend does not inline");
  const CpuExecutionPlan plan = planCpuExecution(k.irModule());
  EXPECT_EQ(plan.mode, CpuExecutionMode::Fiber);
  EXPECT_EQ(plan.fiberReason, inlined.whyNot);
}

} // namespace
} // namespace pyk::codegen
