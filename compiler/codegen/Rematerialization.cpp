// Rematerialization: thread-pure values (uniform values, the thread's own indices, and
// rematerialized locals, combined without reading memory) assigned once.
#include "codegen/Rematerialization.h"

#include <algorithm>
#include <map>

#include "syntax/ResultVisitor.h"

namespace pyk::codegen {

namespace {

// Whether each thread computes an expression alike whenever it computes it: uniform values, the
// thread's own indices, and the locals already rematerialized, combined without reading memory.
class ThreadPureValue : public ast::ExprVisitor<ThreadPureValue, bool> {
public:
  ThreadPureValue(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                  const LocalSet& rematerialized)
      : kernel_(kernel), uniformity_(uniformity), rematerialized_(rematerialized) {}

  bool pure(const ast::Expr* e) { return e == nullptr || uniformity_.uniform(e) || visit(e); }

  bool visitName(const ast::Name* n) {
    std::optional<size_t> local = localIndex(kernel_.function->scope, n);
    return local && rematerialized_.count(*local) != 0;
  }

  bool visitAttribute(const ast::Attribute* a) {
    if (const sema::Intrinsic id = kernel_.intrinsicOf(a); id != sema::Intrinsic::None)
      return sema::intrinsicInfo(id).has(sema::intrinsic_flags::ThreadIndex);
    if (!sema::qualifiedApiName(kernel_.function->scope, a).empty())
      return false;
    return pure(a->value) && (a->attr == "real" || a->attr == "imag");
  }

  bool visitSubscript(const ast::Subscript* s) {
    const sema::NumbaType* t = kernel_.typeOf(s->value);
    return t != nullptr && t->isTuple() && pure(s->value) && pure(s->slice);
  }

  bool visitCall(const ast::Call* c) {
    if (!callOfArgumentsAlone(kernel_, c, sema::intrinsic_flags::ThreadPure))
      return false;
    for (const ast::Expr* a : c->args)
      if (!pure(a))
        return false;
    return c->keywords.empty();
  }

  // Operators, conditional expressions and tuples: pure when every operand is.
  bool visitBinOp(const ast::BinOp* e) { return operandsPure(e); }
  bool visitUnaryOp(const ast::UnaryOp* e) { return operandsPure(e); }
  bool visitBoolOp(const ast::BoolOp* e) { return operandsPure(e); }
  bool visitCompare(const ast::Compare* e) { return operandsPure(e); }
  bool visitIfExp(const ast::IfExp* e) { return operandsPure(e); }
  bool visitTuple(const ast::Tuple* e) { return operandsPure(e); }

private:
  bool operandsPure(const ast::Expr* e) {
    bool all = true;
    ast::forEachChild(const_cast<ast::Expr*>(e), [&](ast::Node* child) {
      if (all && child != nullptr)
        all = pure(static_cast<const ast::Expr*>(child));
    });
    return all;
  }

  const sema::Specialization& kernel_;
  const UniformityAnalysis& uniformity_;
  const LocalSet& rematerialized_;
};

} // namespace

Rematerialization findRematerialization(const sema::Specialization& kernel,
                                        const UniformityAnalysis& uniformity,
                                        const std::vector<SplitStep>& steps) {
  Rematerialization out;
  if (steps.empty() || steps[0].kind != SplitStep::Kind::Region)
    return out;
  const sema::FunctionScope& scope = kernel.function->scope;
  // How many statements bind each local (assignments, augmented ones, loop targets).
  std::map<size_t, int> bindings;
  ast::forEachNode(kernel.function->def, [&](const ast::Node* n) {
    if (const auto* x = n->as<ast::Name>(); x && x->ctx == ast::ExprContext::Store)
      if (std::optional<size_t> local = localIndex(scope, x))
        ++bindings[*local];
  });
  for (const RegionStatement& st : steps[0].statements) {
    const auto* a = st.statement->as<ast::Assign>();
    if (a == nullptr || a->targets.size() != 1)
      continue;
    std::vector<size_t> locals;
    bool plain = true;
    auto collect = [&](const ast::Expr* t) {
      const auto* n = t->as<ast::Name>();
      std::optional<size_t> local = n != nullptr ? localIndex(scope, n) : std::nullopt;
      if (local)
        locals.push_back(*local);
      else
        plain = false;
    };
    if (const auto* tuple = a->targets[0]->as<ast::Tuple>())
      for (const ast::Expr* e : tuple->elts)
        collect(e);
    else
      collect(a->targets[0]);
    if (!plain || !ThreadPureValue(kernel, uniformity, out.locals).pure(a->value))
      continue;
    if (!std::all_of(locals.begin(), locals.end(), [&](size_t l) { return bindings[l] == 1; }))
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
