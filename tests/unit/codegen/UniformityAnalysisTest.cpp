// UniformityAnalysis: pass 3 of the CPU pipeline: which locals and values are the same in every
// thread of a block.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

// The names of the kernel's uniform locals.
std::set<std::string> uniformLocals(const TypedKernel& k) {
  const UniformityAnalysis uniformity(k.irEntry());
  std::set<std::string> out;
  std::vector<std::string> names;
  for (const ir::Variable& v : k.irEntry().variables)
    if (!v.parameter)
      names.push_back(v.name);
  for (const std::string& name : names)
    if (uniformity.uniformVariable(k.local(name)))
      out.insert(name);
  return out;
}

TEST(UniformityAnalysis, BlockValuesAreUniformThreadValuesAreNot) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    width = a.shape[0]
    half = n // 2
    i = base + tx
    g = cuda.grid(1)
    item = a[0]
    a[i] = item + half + width + g
)",
                "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  // Array items are memory: never assumed uniform, even at a uniform index.
  EXPECT_EQ(uniformLocals(k), (std::set<std::string>{"base", "width", "half"}));
}

TEST(UniformityAnalysis, AssignmentUnderThreadDependentControlIsNotUniform) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    inside = 0
    if tx < n:
        inside = 1
    outside = 0
    if n > 4:
        outside = 1
    for j in range(n):
        a[j] = inside + outside
    for t in range(tx):
        a[t] = 0
    stop = 0
    while stop < n:
        stop += 1
        if stop == 3:
            break
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  // `inside` is assigned only by some threads; `t` counts up to a thread's own index; `stop` is
  // assigned in a loop some threads may leave early (a break).
  EXPECT_EQ(uniformLocals(k), (std::set<std::string>{"outside", "j"}));
}

TEST(UniformityAnalysis, ADemotionReachesReadsBeforeTheAssignmentThatCausesIt) {
  // `copy` reads `carry` before the loop's second statement makes it thread-dependent: only a
  // second pass over the body sees that, and `echo` needs a third.
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    carry = 0
    copy = 0
    echo = 0
    for j in range(n):
        echo = copy
        copy = carry
        carry = cuda.threadIdx.x
    a[0] = echo
)",
                "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(uniformLocals(k), (std::set<std::string>{"j"}));
}

TEST(UniformityAnalysis, Expressions) {
  TypedKernel k(R"(
from numba import cuda, float32

@cuda.jit(device=True)
def f(x):
    return x + 1

@cuda.jit
def k(a, n):
    s = n * 2
    a[0] = float32(s) + a.shape[0] + cuda.threadIdx.x + f(n) + a[n] + min(s, n)
)",
                "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const UniformityAnalysis uniformity(k.irEntry());
  EXPECT_TRUE(uniformity.uniform(k.irExpression("float32(s)"))); // a cast of a uniform value
  EXPECT_TRUE(uniformity.uniform(k.irExpression("a.shape[0]")));
  EXPECT_TRUE(uniformity.uniform(k.irExpression("min(s, n)")));
  EXPECT_FALSE(uniformity.uniform(k.irExpression("cuda.threadIdx.x")));
  EXPECT_FALSE(uniformity.uniform(k.irExpression("f(n)"))); // a device function may read memory
  EXPECT_FALSE(uniformity.uniform(k.irExpression("a[n]")));
  EXPECT_TRUE(uniformity.uniformVariable(k.local("s")));
}

} // namespace
} // namespace pyk::codegen
