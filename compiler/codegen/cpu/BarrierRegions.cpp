// BarrierRegions: statements without barriers gather into regions; a bare `cuda.syncthreads()`
// ends one; a statement holding barriers (or a grid-stride loop, or, for a constant block shape,
// a short uniform loop, run in lockstep) becomes a block-level step whose bodies are cut the
// same way.
#include "codegen/cpu/BarrierRegions.h"

#include "codegen/cpu/GridStrideLoops.h"
#include "codegen/cpu/ThreadModelScan.h"

namespace pyk::codegen {

namespace {

// A break or continue of this loop (not of one nested in it).
bool jumpsOutOf(const std::vector<ir::Stmt*>& body) {
  return !ownJumpsOf<ir::Break>(body).empty() || !ownJumpsOf<ir::Continue>(body).empty();
}

// Cuts bodies into steps; a statement holding barriers becomes a block-level step (false, with
// the reason, when the block cannot run it).
class StepFormation {
public:
  StepFormation(const UniformityAnalysis& uniformity, const GridStrideLoops* gridStride,
                BarrierRegions& out, std::string& whyNot, bool lockstepLoops)
      : uniformity_(uniformity), gridStride_(gridStride), out_(out), whyNot_(whyNot),
        lockstepLoops_(lockstepLoops) {}

  bool steps(const std::vector<ir::Stmt*>& body, std::vector<SplitStep>& out) {
    SplitStep* region = nullptr;
    for (const ir::Stmt* s : body) {
      if (isBareBarrier(s)) {
        region = nullptr;
        continue;
      }
      if (isReduction(s)) { // `v = syncthreads_count(p)`: the block's reduction between regions
        region = nullptr;
        SplitStep step;
        step.kind = SplitStep::Kind::Reduction;
        step.control = s;
        out.push_back(std::move(step));
        continue;
      }
      if (const auto* f = s->as<ir::ForRange>()) {
        if (const int axis = gridStride_ != nullptr ? gridStride_->axisOf(f) : -1; axis >= 0) {
          // a grid-stride loop, in lockstep
          SplitStep step;
          step.kind = SplitStep::Kind::For;
          step.control = s;
          step.strideAxis = axis;
          if (!steps(f->body, step.body))
            return false;
          // A `continue` ends the thread's round: its thread loop returns, which skips the rest
          // of the body only when the body is that one loop.
          const bool oneRegion =
              step.body.size() == 1 && step.body[0].kind == SplitStep::Kind::Region;
          if (oneRegion || ownJumpsOf<ir::Continue>(f->body).empty()) {
            region = nullptr;
            out_.strideCounters.insert(f->target->as<ir::LocalTarget>()->variable.variable);
            for (const ir::Expr* bound : {f->start, f->stop, f->step})
              out_.controls.push_back(bound);
            out.push_back(std::move(step));
            continue;
          }
        }
      }
      const bool blockLevel = firstIntrinsicCall(s, sema::intrinsic_flags::Barrier) != nullptr ||
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
      if (!blockLevelStep(s, step))
        return false;
      out.push_back(std::move(step));
    }
    return true;
  }

private:
  bool blockLevelStep(const ir::Stmt* s, SplitStep& step) {
    if (const auto* r = s->as<ir::ForRange>())
      return forRange(r, step);
    if (const auto* w = s->as<ir::While>())
      return whileLoop(w, step);
    if (const auto* i = s->as<ir::If>())
      return branch(i, step);
    if (s->is<ir::ForEach>()) {
      whyNot_ = "a barrier inside the `for` at " + sourcePosition(s) +
                " (only `for name in range(...)` without break, continue or else is split)";
      return false;
    }
    // Any other statement holding a barrier.
    const ir::IntrinsicCall* c = firstIntrinsicCall(s, sema::intrinsic_flags::Barrier);
    whyNot_ = "`" + intrinsicNameOf(c) + "` at " + sourcePosition(c) +
              (c->args.empty() ? " inside a statement the CPU backend does not split"
                               : " (a barrier with a value)");
    return false;
  }

  bool forRange(const ir::ForRange* f, SplitStep& step) {
    const auto* target = f->target->as<ir::LocalTarget>();
    if (target == nullptr || !f->otherwise.empty() || jumpsOutOf(f->body)) {
      whyNot_ = "a barrier inside the `for` at " + sourcePosition(f) +
                " (only `for name in range(...)` without break, continue or else is split)";
      return false;
    }
    for (const ir::Expr* bound : {f->start, f->stop, f->step})
      if (bound != nullptr && !uniformControl(bound, f, "for"))
        return false;
    step.kind = SplitStep::Kind::For;
    out_.loopCounters.insert(target->variable.variable);
    for (const ir::Expr* bound : {f->start, f->stop, f->step})
      if (bound != nullptr)
        out_.controls.push_back(bound);
    return steps(f->body, step.body);
  }

  bool whileLoop(const ir::While* w, SplitStep& step) {
    if (!w->otherwise.empty() || jumpsOutOf(w->body)) {
      whyNot_ = "a barrier inside the `while` at " + sourcePosition(w) +
                " (a loop with break, continue or else is not split)";
      return false;
    }
    if (!uniformControl(w->condition, w, "while"))
      return false;
    step.kind = SplitStep::Kind::While;
    out_.controls.push_back(w->condition);
    return steps(w->body, step.body);
  }

  bool branch(const ir::If* i, SplitStep& step) {
    if (!uniformControl(i->condition, i, "if"))
      return false;
    step.kind = SplitStep::Kind::If;
    out_.controls.push_back(i->condition);
    return steps(i->then, step.body) && steps(i->otherwise, step.orelse);
  }

  // A barrier-free `for name in range(...)` with uniform bounds, no break, continue or else, and
  // a body of at most 8 assignments (formBarrierRegions' lockstepLoops).
  bool isLockstepLoop(const ir::Stmt* s) const {
    const auto* f = s->as<ir::ForRange>();
    if (f == nullptr || firstIntrinsicCall(s, sema::intrinsic_flags::Barrier) != nullptr)
      return false;
    if (!f->target->is<ir::LocalTarget>() || !f->otherwise.empty() || f->body.empty() ||
        f->body.size() > 8)
      return false;
    for (const ir::Expr* bound : {f->start, f->stop, f->step})
      if (!uniformity_.uniform(bound))
        return false;
    // Assignments only: an expression statement may print, whose order would change.
    for (const ir::Stmt* b : f->body) {
      const auto* store = b->as<ir::Store>();
      if (!b->is<ir::Assign>() && (store == nullptr || !store->augmented))
        return false;
    }
    return true;
  }

  // `v = syncthreads_count(p)` into a local, nothing else waiting in `p`.
  static bool isReduction(const ir::Stmt* s) {
    const auto* a = s->as<ir::Assign>();
    const auto* c = a != nullptr ? a->value->as<ir::IntrinsicCall>() : nullptr;
    return c != nullptr && a->targets.size() == 1 && a->targets[0]->is<ir::LocalTarget>() &&
           sema::intrinsicInfo(c->intrinsic).has(sema::intrinsic_flags::BlockReduction) &&
           firstIntrinsicCall(c->args[0], sema::intrinsic_flags::Barrier) == nullptr;
  }

  static bool isBareBarrier(const ir::Stmt* s) {
    const auto* e = s->as<ir::Evaluate>();
    const auto* c = e ? e->value->as<ir::IntrinsicCall>() : nullptr;
    return c != nullptr && c->args.empty() && c->intrinsic == sema::Intrinsic::Syncthreads;
  }

  bool uniformControl(const ir::Expr* e, const ir::Stmt* s, const char* what) {
    if (const ir::IntrinsicCall* c = firstIntrinsicCall(e, sema::intrinsic_flags::Barrier)) {
      whyNot_ = "`" + intrinsicNameOf(c) + "` at " + sourcePosition(c) + " in the header of `" +
                what + "` at " + sourcePosition(s) + ", which the block runs as a whole";
      return false;
    }
    if (uniformity_.uniform(e))
      return true;
    whyNot_ = std::string("a barrier under `") + what + "` at " + sourcePosition(s) +
              " whose condition may differ between threads";
    return false;
  }

  const UniformityAnalysis& uniformity_;
  const GridStrideLoops* gridStride_; // null: grid-stride loops stay in their regions
  BarrierRegions& out_;
  std::string& whyNot_;
  bool lockstepLoops_;
};

} // namespace

std::optional<BarrierRegions> formBarrierRegions(const ir::Function& kernel,
                                                 const UniformityAnalysis& uniformity,
                                                 std::string& whyNot, bool lockstepLoops,
                                                 bool gridStrideLoops) {
  BarrierRegions regions;
  const GridStrideLoops gridStride(kernel, uniformity);
  if (!StepFormation(uniformity, gridStrideLoops ? &gridStride : nullptr, regions, whyNot,
                     lockstepLoops)
           .steps(kernel.body, regions.steps))
    return std::nullopt;
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    regions.hasReturn = regions.hasReturn || n->is<ir::Return>();
  });
  return regions;
}

} // namespace pyk::codegen
