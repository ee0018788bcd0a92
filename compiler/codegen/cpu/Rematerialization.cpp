// Rematerialization: thread-pure values (uniform values, the thread's own indices, and
// rematerialized locals, combined without reading memory) assigned once.
#include "codegen/cpu/Rematerialization.h"

#include <algorithm>
#include <map>

#include "ir/IrVisitor.h"

namespace pyk::codegen {

namespace {

// Whether each thread computes an expression alike whenever it computes it: uniform values, the
// thread's own indices, and the locals already rematerialized, combined without reading memory.
class ThreadPureValue : public ir::ExprVisitor<ThreadPureValue, bool> {
public:
  ThreadPureValue(const UniformityAnalysis& uniformity, const LocalSet& rematerialized)
      : uniformity_(uniformity), rematerialized_(rematerialized) {}

  bool pure(const ir::Expr* e) { return e == nullptr || uniformity_.uniform(e) || visit(e); }

  bool visitRead(const ir::Read* r) { return rematerialized_.count(r->variable.variable) != 0; }
  bool visitIntrinsicValue(const ir::IntrinsicValue* v) {
    return sema::intrinsicInfo(v->intrinsic).has(sema::intrinsic_flags::ThreadIndex);
  }
  bool visitComplexPart(const ir::ComplexPart* p) { return pure(p->value); }
  // Items of a tuple (a named tuple's fields are not followed).
  bool visitTupleElement(const ir::TupleElement* t) { return !t->byField && pure(t->tuple); }
  bool visitTupleSubscript(const ir::TupleSubscript* t) { return pure(t->tuple) && pure(t->index); }
  bool visitCast(const ir::Cast* c) { return pure(c->value); }
  bool visitIntrinsicCall(const ir::IntrinsicCall* c) {
    return callOfArgumentsAlone(c, sema::intrinsic_flags::ThreadPure) && operandsPure(c);
  }
  // Operators, conditional expressions and tuples: pure when every operand is.
  bool visitBinary(const ir::Binary* e) { return operandsPure(e); }
  bool visitDatetimeOperation(const ir::DatetimeOperation* e) { return operandsPure(e); }
  bool visitUnary(const ir::Unary* e) { return operandsPure(e); }
  bool visitNot(const ir::Not* e) { return operandsPure(e); }
  bool visitCompare(const ir::Compare* e) { return operandsPure(e); }
  bool visitIdentityTest(const ir::IdentityTest* e) { return operandsPure(e); }
  bool visitLogical(const ir::Logical* e) { return operandsPure(e); }
  bool visitLogicalValue(const ir::LogicalValue* e) { return operandsPure(e); }
  bool visitConditional(const ir::Conditional* e) { return operandsPure(e); }
  bool visitMakeTuple(const ir::MakeTuple* e) { return !e->type.isNamedTuple() && operandsPure(e); }

private:
  bool operandsPure(const ir::Expr* e) {
    bool all = true;
    ir::forEachChild(static_cast<const ir::Node*>(e), [&](const ir::Node* child) {
      all = all && pure(static_cast<const ir::Expr*>(child));
    });
    return all;
  }

  const UniformityAnalysis& uniformity_;
  const LocalSet& rematerialized_;
};

} // namespace

Rematerialization findRematerialization(const ir::Function& kernel,
                                        const UniformityAnalysis& uniformity,
                                        const std::vector<SplitStep>& steps) {
  Rematerialization out;
  if (steps.empty() || steps[0].kind != SplitStep::Kind::Region)
    return out;
  // How many statements bind each local (assignments, augmented ones, loop targets).
  std::map<sema::VariableId, int> bindings;
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    if (const std::optional<sema::VariableId> v = storeOf(n))
      ++bindings[*v];
  });
  for (const RegionStatement& st : steps[0].statements) {
    const auto* a = st.statement->as<ir::Assign>();
    if (a == nullptr || a->targets.size() != 1)
      continue;
    std::vector<sema::VariableId> locals;
    bool plain = true;
    auto collect = [&](const ir::Target* t) {
      const std::optional<sema::VariableId> v = storeOf(t);
      if (v && !kernel.variables[*v].parameter)
        locals.push_back(*v);
      else
        plain = false;
    };
    if (const auto* unpack = a->targets[0]->as<ir::UnpackTarget>())
      for (const ir::Target* e : unpack->elements)
        collect(e);
    else
      collect(a->targets[0]);
    if (!plain || !ThreadPureValue(uniformity, out.locals).pure(a->value))
      continue;
    if (!std::all_of(locals.begin(), locals.end(),
                     [&](sema::VariableId l) { return bindings[l] == 1; }))
      continue;
    out.statements.push_back(st.statement);
    out.locals.insert(locals.begin(), locals.end());
  }
  return out;
}

void markRematerializingRegion(BarrierSplitPlan& plan) {
  if (plan.rematerialized.empty())
    return;
  for (SplitStep& step : plan.steps)
    if (step.kind == SplitStep::Kind::Region &&
        std::any_of(step.statements.begin(), step.statements.end(), [&](const RegionStatement& s) {
          return s.guard == nullptr && s.statement == plan.rematerialized[0];
        }))
      step.definesRematerialized = true;
}

} // namespace pyk::codegen
