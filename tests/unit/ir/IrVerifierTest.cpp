// IrVerifier: malformed IR built by hand — operand types that disagree, a read of a version
// before it is defined, a break outside a loop, a call with the wrong arguments, a conversion
// to the type a value has, a bound value outside its spread call — each reported.
#include <gtest/gtest.h>

#include "ir/IrVerifier.h"

namespace pyk::test {
namespace {

using types::NumbaType;
using types::ScalarKind;

const NumbaType kInt64 = NumbaType::scalar(ScalarKind::Int64);
const NumbaType kInt32 = NumbaType::scalar(ScalarKind::Int32);

// A kernel `k(n: int64)` with one local `x`: versions n.0 (entry) and x.1 (def).
struct Fixture {
  ir::Module module;
  ir::Function* f = module.addFunction();

  Fixture() {
    f->name = "k";
    f->description = "k(int64) -> none";
    f->params = {kInt64};
    f->variables = {{"n", true, kInt64}, {"x", false, kInt64}};
    f->versions.resize(2);
    f->versions[0].kind = ir::Version::Kind::Entry;
    f->versions[0].variable = 0;
    f->versions[0].type = kInt64;
    f->versions[1].kind = ir::Version::Kind::Def;
    f->versions[1].variable = 1;
    f->versions[1].type = kInt64;
  }
  template <class T>
  T* expr(const NumbaType& t) {
    T* e = module.make<T>();
    e->type = t;
    return e;
  }
  ir::Read* read(size_t version) {
    auto* r = expr<ir::Read>(kInt64);
    r->variable = {f->versions[version].variable, version};
    return r;
  }
  ir::Literal* literal(int64_t v, const NumbaType& t = kInt64) {
    auto* l = expr<ir::Literal>(t);
    l->value = sema::ConstantValue::integer(v, t.scalarKind());
    return l;
  }
  ir::Stmt* assignX(ir::Expr* value) {
    auto* target = module.make<ir::LocalTarget>();
    target->type = kInt64;
    target->variable = {1, 1};
    auto* a = module.make<ir::Assign>();
    a->targets = {target};
    a->value = value;
    return a;
  }
  ir::Stmt* evaluate(ir::Expr* value) {
    auto* e = module.make<ir::Evaluate>();
    e->value = value;
    return e;
  }
  std::vector<std::string> problems() { return ir::verify(module); }
};

TEST(IrVerifier, AWellFormedBodyHasNoProblems) {
  Fixture t;
  auto* add = t.expr<ir::Binary>(kInt64);
  add->op = ir::BinaryOp::Add;
  add->lhs = t.read(0);
  add->rhs = t.literal(1);
  t.f->body = {t.assignX(add), t.evaluate(t.read(1))};
  EXPECT_EQ(t.problems(), std::vector<std::string>{});
}

TEST(IrVerifier, OperandsOfAnotherTypeThanTheOperationAreReported) {
  Fixture t;
  auto* add = t.expr<ir::Binary>(kInt64);
  add->op = ir::BinaryOp::Add;
  add->lhs = t.read(0);
  add->rhs = t.literal(1, kInt32); // numba's overload converts it first: a Cast is missing
  t.f->body = {t.assignX(add)};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("the right operand is `int32`, not `int64`"), std::string::npos)
      << t.problems()[0];
}

TEST(IrVerifier, AReadBeforeItsAssignmentIsReported) {
  Fixture t;
  t.f->body = {t.evaluate(t.read(1)), t.assignX(t.literal(2))};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("reads x.1 where it is not defined"), std::string::npos)
      << t.problems()[0];
}

TEST(IrVerifier, AVersionAssignedInOneBranchIsSeenAfterTheJoin) {
  Fixture t; // numba makes no phi where the other path leaves the variable unassigned
  auto* test = t.expr<ir::Literal>(NumbaType::scalar(ScalarKind::Boolean));
  test->value = sema::ConstantValue::boolean(true);
  auto* branch = t.module.make<ir::If>();
  branch->condition = test;
  branch->then = {t.assignX(t.literal(1))};
  t.f->body = {branch, t.evaluate(t.read(1))};
  EXPECT_EQ(t.problems(), std::vector<std::string>{});
}

TEST(IrVerifier, BreakOutsideALoopIsReported) {
  Fixture t;
  t.f->body = {t.module.make<ir::Break>()};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("outside a loop"), std::string::npos);
}

TEST(IrVerifier, ACallWithTheWrongArgumentsIsReported) {
  Fixture t;
  ir::Function* callee = t.module.addFunction();
  callee->name = "g";
  callee->description = "g(int64) -> int64";
  callee->kind = types::CompiledFunctionKind::DeviceFunction;
  callee->params = {kInt64};
  callee->returnType = kInt64;
  auto* call = t.expr<ir::Call>(kInt64);
  call->callee = callee;
  call->args = {t.literal(1, kInt32)};
  t.f->body = {t.evaluate(call)};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("an argument is `int32`, not `int64`"), std::string::npos)
      << t.problems()[0];
}

TEST(IrVerifier, AnImplicitConversionToTheSameTypeIsReported) {
  Fixture t;
  auto* cast = t.expr<ir::Cast>(kInt64);
  cast->value = t.read(0);
  t.f->body = {t.evaluate(cast)};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("converts a value to the type it has"), std::string::npos);
  cast->written = true; // `int64(n)` as the source writes it is no problem
  EXPECT_EQ(t.problems(), std::vector<std::string>{});
}

TEST(IrVerifier, ABoundValueOutsideItsSpreadCallIsReported) {
  Fixture t;
  auto* bound = t.expr<ir::Bound>(kInt64);
  bound->binding = 0;
  t.f->body = {t.evaluate(bound)};
  ASSERT_EQ(t.problems().size(), 1u);
  EXPECT_NE(t.problems()[0].find("outside its spread call"), std::string::npos);
}

} // namespace
} // namespace pyk::test
