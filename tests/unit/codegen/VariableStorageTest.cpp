// VariableStorage: the C++ variables that hold a specialization's SSA versions: one per variable
// when its versions share a type, one per type otherwise, and the copies into phis held apart.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/emit/VariableStorage.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

const char* kVersionsSource = R"(from numba import cuda

@cuda.jit
def one_type(a, n):
    s = 0.0
    for i in range(n):
        s += a[i]
    a[0] = s

@cuda.jit
def accumulator(a, n):
    s = 0
    for i in range(n):
        s += a[i]
    a[0] = s

@cuda.jit
def straight(a, n):
    x = n
    a[0] = x // 2
    x = 2.5
    a[1] = x

@cuda.jit
def joined(a, n):
    if n > 0:
        x = 1
        a[2] = x // 2
    else:
        x = 2.5
    a[0] = x

@cuda.jit
def assigns_parameter(a, n):
    n = 0.5
    a[0] = n
)";

std::string slotsText(const TypedKernel& k, const std::string& variable) {
  const ir::Function& f = k.irEntry();
  const VariableStorage storage(f);
  for (size_t v = 0; v < f.variables.size(); ++v)
    if (f.variableName(v) == variable) {
      std::string out;
      for (const StorageSlot& s : storage.slotsOf(v))
        out += (out.empty() ? "" : ", ") + s.cppName + ": " + s.type.str();
      return out;
    }
  return "no such variable";
}

TEST(VariableStorage, OneTypeOneVariable) {
  TypedKernel k(kVersionsSource, "one_type", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(slotsText(k, "s"), "py_s: float64");
  EXPECT_FALSE(VariableStorage(k.irEntry()).anySplitVariable());
}

TEST(VariableStorage, AnIntegerStartOnlyFeedingAFloatPhiIsStoredAsTheFloat) {
  // numba types `s = 0` int64 and the loop's `s` float64; nothing reads the int64 version but
  // the loop's phi, so it is stored as float64 from the start: one variable.
  TypedKernel k(kVersionsSource, "accumulator", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(slotsText(k, "s"), "py_s: float64");
}

TEST(VariableStorage, StraightLineRetypingGetsAVariablePerType) {
  TypedKernel k(kVersionsSource, "straight", "void(float64[::1], int32)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(slotsText(k, "x"), "py_x: int32, pyv1_x: float64");
  EXPECT_TRUE(VariableStorage(k.irEntry()).anySplitVariable());
}

TEST(VariableStorage, APhiHeldApartGetsCopiesOnItsEdges) {
  TypedKernel k(kVersionsSource, "joined", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(slotsText(k, "x"), "py_x: int64, pyv1_x: float64");
  const VariableStorage storage(k.irEntry());
  const ir::Stmt* ifStatement = k.lowered<ir::Stmt>(k.spec().function->def->body.front());
  const auto& then = storage.copiesAt(sema::PhiEdge::IfThen, ifStatement);
  ASSERT_EQ(then.size(), 1u);
  EXPECT_EQ(then[0].from->cppName, "py_x");
  EXPECT_EQ(then[0].to->cppName, "pyv1_x");
  // The else branch's 2.5 is the phi's own type: stored there directly, no copy.
  EXPECT_TRUE(storage.copiesAt(sema::PhiEdge::IfElse, ifStatement).empty());
}

TEST(VariableStorage, AParameterKeepsItsOwnVariableFirst) {
  TypedKernel k(kVersionsSource, "assigns_parameter", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(slotsText(k, "n"), "py_n: int64, pyv1_n: float64");
}

} // namespace
} // namespace pyk::codegen
