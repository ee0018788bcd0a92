// BarrierRegions: statements without barriers gather into regions; a bare `cuda.syncthreads()`
// ends one; a statement holding barriers (or, for a constant block shape, a short uniform loop
// run in lockstep) becomes a block-level step whose bodies are cut the same way.
#include "codegen/BarrierRegions.h"

#include <functional>

#include "codegen/ThreadModelScan.h"
#include "syntax/ResultVisitor.h"

namespace pyk::codegen {

namespace {

// A break or continue of this loop (not of one nested in it).
bool jumpsOutOf(const std::vector<ast::Stmt*>& body) {
  bool found = false;
  std::function<void(const ast::Node*)> visit = [&](const ast::Node* n) {
    if (n->kind == ast::NodeKind::Break || n->kind == ast::NodeKind::Continue)
      found = true;
    if (n->kind == ast::NodeKind::For || n->kind == ast::NodeKind::While)
      return; // its own jumps
    ast::forEachChild(const_cast<ast::Node*>(n), [&](ast::Node* c) {
      if (c != nullptr)
        visit(c);
    });
  };
  for (const ast::Stmt* s : body)
    visit(s);
  return found;
}

// Cuts bodies into steps; a statement holding barriers becomes a block-level step through the
// visit of its kind (false, with the reason, when the block cannot run it).
class StepFormation : public ast::StmtVisitor<StepFormation, bool, SplitStep&> {
public:
  StepFormation(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                BarrierRegions& out, std::string& whyNot, bool lockstepLoops)
      : kernel_(kernel), uniformity_(uniformity), out_(out), whyNot_(whyNot),
        lockstepLoops_(lockstepLoops) {}

  bool steps(const std::vector<ast::Stmt*>& body, std::vector<SplitStep>& out) {
    SplitStep* region = nullptr;
    for (const ast::Stmt* s : body) {
      if (isBareBarrier(s)) {
        region = nullptr;
        continue;
      }
      const bool blockLevel =
          firstIntrinsicCall(kernel_, s, sema::intrinsic_flags::Barrier) != nullptr ||
          (lockstepLoops_ && isLockstepLoop(s));
      if (!blockLevel) {
        if (region == nullptr) {
          out.push_back(SplitStep{});
          region = &out.back();
        }
        region->statements.push_back({s});
        continue;
      }
      region = nullptr;
      SplitStep step;
      step.control = s;
      if (!visit(s, step))
        return false;
      out.push_back(std::move(step));
    }
    return true;
  }

  bool visitFor(const ast::For* f, SplitStep& step) {
    const auto* call = f->iter->as<ast::Call>();
    const auto* target = f->target->as<ast::Name>();
    if (call == nullptr || kernel_.intrinsicOf(call->func) != sema::Intrinsic::Range ||
        target == nullptr || !f->orelse.empty() || jumpsOutOf(f->body)) {
      whyNot_ = "a barrier inside the `for` at " + sourcePosition(f) +
                " (only `for name in range(...)` without break, continue or else is split)";
      return false;
    }
    for (const ast::Expr* a : call->args)
      if (!uniformControl(a, f, "for"))
        return false;
    step.kind = SplitStep::Kind::For;
    if (std::optional<size_t> local = localIndex(kernel_.function->scope, target))
      out_.loopCounters.insert(*local);
    out_.controls.push_back(call);
    return steps(f->body, step.body);
  }

  bool visitWhile(const ast::While* w, SplitStep& step) {
    if (!w->orelse.empty() || jumpsOutOf(w->body)) {
      whyNot_ = "a barrier inside the `while` at " + sourcePosition(w) +
                " (a loop with break, continue or else is not split)";
      return false;
    }
    if (!uniformControl(w->test, w, "while"))
      return false;
    step.kind = SplitStep::Kind::While;
    out_.controls.push_back(w->test);
    return steps(w->body, step.body);
  }

  bool visitIf(const ast::If* i, SplitStep& step) {
    if (!uniformControl(i->test, i, "if"))
      return false;
    step.kind = SplitStep::Kind::If;
    out_.controls.push_back(i->test);
    return steps(i->body, step.body) && steps(i->orelse, step.orelse);
  }

  // Any other statement holding a barrier.
  bool visitStmt(const ast::Stmt* s, SplitStep&) {
    const ast::Call* c = firstIntrinsicCall(kernel_, s, sema::intrinsic_flags::Barrier);
    whyNot_ = "`" + intrinsicNameOf(kernel_, c) + "` at " + sourcePosition(c) +
              (c->args.empty() ? " inside a statement the CPU backend does not split"
                               : " (a barrier with a value)");
    return false;
  }

private:
  // A barrier-free `for name in range(...)` with uniform bounds, no break, continue or else, and
  // a body of at most 8 assignments (formBarrierRegions' lockstepLoops).
  bool isLockstepLoop(const ast::Stmt* s) const {
    const auto* f = s->as<ast::For>();
    if (f == nullptr || firstIntrinsicCall(kernel_, s, sema::intrinsic_flags::Barrier) != nullptr)
      return false;
    const auto* call = f->iter->as<ast::Call>();
    if (call == nullptr || kernel_.intrinsicOf(call->func) != sema::Intrinsic::Range ||
        f->target->as<ast::Name>() == nullptr || !f->orelse.empty() || f->body.empty() ||
        f->body.size() > 8)
      return false;
    for (const ast::Expr* a : call->args)
      if (!uniformity_.uniform(a))
        return false;
    // Assignments only: an expression statement may print, whose order would change.
    for (const ast::Stmt* b : f->body)
      if (!b->is<ast::Assign>() && !b->is<ast::AugAssign>())
        return false;
    return true;
  }

  bool isBareBarrier(const ast::Stmt* s) const {
    const auto* e = s->as<ast::ExprStmt>();
    const ast::Call* c = e ? e->value->as<ast::Call>() : nullptr;
    return c != nullptr && c->args.empty() &&
           kernel_.intrinsicOf(c->func) == sema::Intrinsic::Syncthreads;
  }

  bool uniformControl(const ast::Expr* e, const ast::Stmt* s, const char* what) {
    if (uniformity_.uniform(e))
      return true;
    whyNot_ = std::string("a barrier under `") + what + "` at " + sourcePosition(s) +
              " whose condition may differ between threads";
    return false;
  }

  const sema::Specialization& kernel_;
  const UniformityAnalysis& uniformity_;
  BarrierRegions& out_;
  std::string& whyNot_;
  bool lockstepLoops_;
};

} // namespace

std::optional<BarrierRegions> formBarrierRegions(const sema::Specialization& kernel,
                                                 const UniformityAnalysis& uniformity,
                                                 std::string& whyNot, bool lockstepLoops) {
  BarrierRegions regions;
  if (!StepFormation(kernel, uniformity, regions, whyNot, lockstepLoops)
           .steps(kernel.function->def->body, regions.steps))
    return std::nullopt;
  ast::forEachNode(kernel.function->def, [&](const ast::Node* n) {
    regions.hasReturn = regions.hasReturn || n->kind == ast::NodeKind::Return;
  });
  return regions;
}

} // namespace pyk::codegen
