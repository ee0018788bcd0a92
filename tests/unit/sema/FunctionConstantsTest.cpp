// FunctionConstants: the parameters a body needs as constants, and how its names fold (numba's
// literal types: a parameter specialized for a constant, a variable last assigned a constant).
#include <gtest/gtest.h>

#include "../codegen/TypedKernel.h"
#include "sema/fold/FunctionConstants.h"

namespace pyk::sema {
namespace {

using test::Resolved;
using test::TypedKernel;

const char* kFunctionConstantsSource = R"(from numba import cuda, float32

@cuda.jit(device=True)
def tile(a, n, m, dt, flag):
    sm = cuda.shared.array((n, 2 * m), dt)
    local = cuda.local.array(shape=m, dtype=float32)
    if flag:
        a[0] = sm[0, 0] + local[0]

@cuda.jit(device=True)
def plain(a, n):
    a[0] = n

@cuda.jit
def k(a):
    w = 4
    size = w * 2
    t = cuda.threadIdx.x
    w = t
    a[0] = size + w
)";

const CompiledFunction& named(const Resolved& r, const std::string& name) {
  for (const CompiledFunction& f : r.module.functions)
    if (f.name == name)
      return f;
  ADD_FAILURE() << "no function " << name;
  return r.module.functions.front();
}

TEST(FunctionConstants, ParametersUsedInShapesNeedConstants) {
  Resolved r(kFunctionConstantsSource);
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(parametersNeedingConstants(named(r, "tile")),
            (std::vector<bool>{false, true, true, false, false}));
  EXPECT_EQ(parametersNeedingConstants(named(r, "plain")), (std::vector<bool>{false, false}));
}

// Folds the expression whose source is `text` in kernel `k`.
std::string foldIn(const TypedKernel& k, const std::string& text) {
  DiagnosticEngine quiet;
  ConstantFolder folder(k.module().symbols, quiet);
  folder.setLocalNames(functionLocalNames(k.spec(), folder));
  FoldResult r = folder.fold(k.expression(text));
  return r.isConstant() ? r.value().repr() : "not constant: " + r.reason();
}

TEST(FunctionConstants, VariablesFoldWhereLastAssignedAConstant) {
  TypedKernel k(kFunctionConstantsSource, "k", "void(int64[::1])");
  ASSERT_TRUE(k.ok()) << k.errors();
  // `size = w * 2` reads the version of `w` assigned 4; the last line reads the one assigned
  // the thread index.
  EXPECT_EQ(foldIn(k, "w * 2"), "8");
  EXPECT_EQ(foldIn(k, "size + w"), "not constant: `w` is a variable of the function");
}

} // namespace
} // namespace pyk::sema
