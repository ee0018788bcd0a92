// NonNegativeAnalysis: which integer locals and values are never negative (an index known so
// skips Python's wrap of negative indices, on both backends).
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/emit/NonNegativeAnalysis.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

std::set<std::string> nonNegativeLocals(const TypedKernel& k) {
  const NonNegativeAnalysis analysis(k.irEntry());
  std::set<std::string> out;
  std::vector<std::string> names;
  for (const ir::Variable& v : k.irEntry().variables)
    if (!v.parameter)
      names.push_back(v.name);
  for (const std::string& name : names)
    if (analysis.nonNegativeVariable(k.variable(name)))
      out.insert(name);
  return out;
}

TEST(NonNegativeAnalysis, IndicesShapesAndTheirSumsProductsAndRemainders) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    tx = cuda.threadIdx.x
    i = cuda.grid(1)
    row, col = cuda.grid(2)
    width = a.shape[0]
    wrapped = i % n
    scaled = tx * 2 + width // 4
    before = i - 1
    shifted = n + tx
    least = min(tx, width)
    most = max(before, tx)
    x = 0.5
    a[i] = x + wrapped + scaled + before + shifted + least + most + row + col
)",
                "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  // `n` is a parameter of unknown sign: `i % n` takes its sign, `n + tx` may be negative;
  // `min` needs every argument non-negative, `max` one (of several). `x` is no integer.
  EXPECT_EQ(nonNegativeLocals(k),
            (std::set<std::string>{"tx", "i", "row", "col", "width", "scaled", "least", "most"}));
}

TEST(NonNegativeAnalysis, RangeCountersAndUnpacking) {
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a, n):
    for up in range(n):
        a[up] = 0
    for from_one in range(1, n, 2):
        a[from_one] = 0
    for from_minus in range(-1, n):
        a[from_minus] = 0
    for down in range(n, 0, -1):
        a[down] = 0
    p, q = 1, -1
    a[p + q] = 0
)",
                "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(nonNegativeLocals(k), (std::set<std::string>{"up", "from_one", "p"}));
}

TEST(NonNegativeAnalysis, ADecrementDemotesEveryReadOfTheLocal) {
  // `j` starts at an index and counts down: a later `-=` makes it possibly negative everywhere,
  // and `k2` (a copy of it, read before that statement in the source) with it.
  TypedKernel k(R"(
from numba import cuda

@cuda.jit
def k(a):
    j = cuda.threadIdx.x
    while j > 0:
        k2 = j
        a[k2] = 1
        j -= 1
    m = cuda.threadIdx.x
    m += 3
)",
                "k", "void(float32[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(nonNegativeLocals(k), (std::set<std::string>{"m"}));
  const NonNegativeAnalysis analysis(k.irEntry());
  EXPECT_FALSE(analysis.nonNegative(
      k.lowered<ir::Expr>(k.expression("a[k2]")->as<ast::Subscript>()->slice)));
  EXPECT_TRUE(
      analysis.nonNegative(k.lowered<ir::Expr>(k.expression("j > 0")))); // a boolean: 0 or 1
}

} // namespace
} // namespace pyk::codegen
