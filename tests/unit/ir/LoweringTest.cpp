// Lowering: typed kernels as the typed IR — numba's conversions as casts, operators with the
// overload numba chose, intrinsics and value members as enums, SSA versions and phis, callees by
// their specialization, constants folded — verified, and what code generation does not cover
// reported as such.
#include "LoweredKernel.h"

namespace pyk::test {
namespace {

constexpr const char* kHeader = "import math\nfrom numba import cuda, float32, int32\n";

std::string kernel(const std::string& body) {
  return std::string(kHeader) + "@cuda.jit\ndef k(a, n):\n" + body;
}

TEST(Lowering, MixedIntegerArithmeticConvertsTheNarrowOperand) {
  LoweredKernel k(kernel("    x = cuda.threadIdx.x + n\n    a[0] = x\n"), "k",
                  "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const ir::Binary* add = k.first<ir::Binary>();
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op, ir::BinaryOp::Add);
  EXPECT_EQ(add->type.str(), "int64");
  const auto* cast = add->lhs->as<ir::Cast>();
  ASSERT_NE(cast, nullptr) << k.text();
  EXPECT_FALSE(cast->written);
  EXPECT_EQ(cast->value->type.str(), "int32");
  EXPECT_TRUE(cast->value->is<ir::IntrinsicValue>());
  EXPECT_EQ(cast->value->as<ir::IntrinsicValue>()->intrinsic, sema::Intrinsic::ThreadIdxX);
  EXPECT_TRUE(add->rhs->is<ir::Read>());
}

TEST(Lowering, PowersNameTheOverloadNumbaChose) {
  LoweredKernel k(kernel("    a[0] = a[1] ** 2\n    a[1] = a[2] ** 0.5\n    a[2] = n ** 2\n"), "k",
                  "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  std::vector<ir::BinaryOp> ops;
  for (const ir::Binary* b : k.all<ir::Binary>())
    ops.push_back(b->op);
  EXPECT_EQ(ops, (std::vector<ir::BinaryOp>{ir::BinaryOp::PowFloatInteger, ir::BinaryOp::PowFloat,
                                            ir::BinaryOp::PowInteger}));
}

TEST(Lowering, MathOnIntegersComputesInFloat64ThenConverts) {
  LoweredKernel k(kernel("    a[0] = math.sqrt(n)\n"), "k", "void(float32[::1], int32)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const ir::IntrinsicCall* sqrt = k.first<ir::IntrinsicCall>();
  ASSERT_NE(sqrt, nullptr);
  EXPECT_EQ(sqrt->intrinsic, sema::Intrinsic::MathSqrt);
  EXPECT_EQ(sqrt->type.str(), "float64");
  ASSERT_EQ(sqrt->args.size(), 1u);
  EXPECT_EQ(sqrt->args[0]->type.str(), "int64"); // numba's math.sqrt(int64) case
  const ir::Assign* store = k.first<ir::Assign>();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->targets[0]->type.str(), "float32"); // the item converts what it stores
}

TEST(Lowering, ArrayMetadataAndMethodsAreValueMembers) {
  LoweredKernel k(kernel("    a[0] = a.shape[0] + a.size\n"), "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  std::vector<sema::ValueMember> members;
  for (const ir::ArrayAttribute* a : k.all<ir::ArrayAttribute>())
    members.push_back(a->member);
  EXPECT_EQ(members,
            (std::vector<sema::ValueMember>{sema::ValueMember::Shape, sema::ValueMember::Size}));
  EXPECT_NE(k.first<ir::TupleSubscript>(), nullptr);
}

TEST(Lowering, AnIfJoinsTwoVersionsInAPhi) {
  LoweredKernel k(kernel("    x = 1\n    if n > 0:\n        x = 2.5\n    a[0] = x\n"), "k",
                  "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const ir::If* branch = k.first<ir::If>();
  ASSERT_NE(branch, nullptr);
  const ir::Version* phi = nullptr;
  for (const ir::Version& v : k.entry().versions)
    if (v.kind == ir::Version::Kind::Phi && k.entry().variableName(v.variable) == "x")
      phi = &v;
  ASSERT_NE(phi, nullptr) << k.text();
  EXPECT_EQ(phi->join, branch);
  EXPECT_FALSE(phi->loopHead);
  ASSERT_EQ(phi->inputs.size(), 2u);
  EXPECT_EQ(phi->inputs[0].edge, sema::PhiEdge::IfThen);
  EXPECT_EQ(phi->inputs[1].edge, sema::PhiEdge::IfElse);
  EXPECT_EQ(phi->type->str(), "float64");
  // The integer assigned first is its own version, of its own type.
  EXPECT_EQ(k.entry().versions[phi->inputs[1].version].type->str(), "int64");
}

TEST(Lowering, ACallNamesTheCalleesSpecialization) {
  LoweredKernel k(std::string(kHeader) +
                      "@cuda.jit(device=True)\ndef twice(x):\n    return x * 2\n"
                      "@cuda.jit\ndef k(a, n):\n    a[0] = twice(n)\n    a[1] = twice(a[1])\n",
                  "k", "void(float32[::1], int32)");
  ASSERT_TRUE(k.ok()) << k.errors();
  ASSERT_EQ(k.module().functions().size(), 3u); // k, twice(int32), twice(float32)
  std::vector<const ir::Call*> calls = k.all<ir::Call>();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NE(calls[0]->callee, calls[1]->callee);
  EXPECT_EQ(calls[0]->callee->description, "twice(int32) -> int64");
  EXPECT_EQ(calls[1]->callee->description, "twice(float32) -> float64");
  EXPECT_EQ(calls[0]->callee, k.module().functions()[1].get());
}

TEST(Lowering, SharedArraysHaveTheirShapeFolded) {
  LoweredKernel k(std::string(kHeader) + "TPB = 16\n@cuda.jit\ndef k(a, n):\n"
                                         "    s = cuda.shared.array((TPB, TPB + 1), float32)\n"
                                         "    s[0, 0] = a[0]\n",
                  "k", "void(float32[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  const ir::ArrayAllocation* s = k.first<ir::ArrayAllocation>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->intrinsic, sema::Intrinsic::SharedArray);
  EXPECT_EQ(s->shape, (ir::Shape{16, 17}));
  EXPECT_EQ(s->type.str(), "array(float32, 2d, C)");
}

TEST(Lowering, RangeLoopsKnowTheirConstantTrips) {
  LoweredKernel k(kernel("    for i in range(0, 16, 4):\n        a[i] = i\n"
                         "    for j in range(n):\n        a[j] = j\n"),
                  "k", "void(int64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  std::vector<const ir::ForRange*> loops = k.all<ir::ForRange>();
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0]->constantTrips, 4);
  EXPECT_EQ(loops[0]->stepSign, 1);
  EXPECT_EQ(loops[1]->constantTrips, -1);
  EXPECT_EQ(loops[1]->start, nullptr);
}

TEST(Lowering, TheWholeModuleVerifies) {
  LoweredKernel k(kernel("    t = (n, 2.5)\n    x, y = t\n    while x > 0:\n        x -= 1\n"
                         "        if x == 3:\n            break\n    else:\n        y = 0.0\n"
                         "    for i, v in enumerate(a):\n        a[i] = v + y\n"),
                  "k", "void(float64[::1], int64)");
  ASSERT_TRUE(k.ok()) << k.errors();
  EXPECT_EQ(ir::verify(k.module()), std::vector<std::string>{});
  EXPECT_NE(k.first<ir::EnumerateIteration>(), nullptr);
  EXPECT_NE(k.first<ir::UnpackTarget>(), nullptr);
}

TEST(Lowering, WhatCodeGenerationDoesNotCoverIsReportedLocated) {
  LoweredKernel k(kernel("    a[0] = (y := n)\n"), "k", "void(int64[::1], int64)");
  EXPECT_FALSE(k.ok());
  ASSERT_EQ(k.diagnostics().diagnostics().size(), 1u) << k.errors();
  const Diagnostic& d = k.diagnostics().diagnostics()[0];
  EXPECT_EQ(d.kind, DiagKind::CodegenNotSupported);
  EXPECT_EQ(d.message, "the expression `NamedExpr` is not supported by pyk's code generation yet");
  EXPECT_EQ(d.range.begin.line, 5u);
}

} // namespace
} // namespace pyk::test
