// RegionNarrowing: a region's box, the union of its statements' bound alternatives; the body a
// box makes exact.
#include "codegen/cpu/RegionNarrowing.h"

#include "codegen/cpu/ThreadBounds.h"

namespace pyk::codegen {

namespace {

class RegionNarrowing {
public:
  RegionNarrowing(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                  const BarrierSplitPlan& plan)
      : plan_(plan), bounds_(kernel, uniformity, plan, true) {}

  void narrow(std::vector<SplitStep>& list) const {
    for (SplitStep& s : list) {
      narrow(s.body);
      narrow(s.orelse);
      if (s.kind != SplitStep::Kind::Region)
        continue;
      ThreadBounds::Alternatives narrowing;
      bool narrowed = true;
      for (const RegionStatement& st : s.statements) {
        if (plan_.isRematerialized(st))
          continue;
        std::optional<ThreadBounds::Alternatives> bounds = bounds_.of(st, s);
        narrowed = narrowed && bounds.has_value(); // else a statement every thread may run
        if (bounds)
          narrowing.insert(narrowing.end(), bounds->begin(), bounds->end());
      }
      if (narrowed) {
        s.narrowing = std::move(narrowing);
        s.exactBody = exactBodyOf(s);
      }
    }
  }

private:
  // An `if` without `else` as a test and a body: a statement's own, or a guard's around a
  // distributed statement.
  struct Conditional {
    const ir::Expr* test = nullptr;
    std::vector<const ir::Stmt*> body;
  };
  static std::optional<Conditional> conditionalOf(const ir::Stmt* s) {
    const auto* i = s->as<ir::If>();
    if (i == nullptr || !i->otherwise.empty())
      return std::nullopt;
    return Conditional{i->condition, {i->then.begin(), i->then.end()}};
  }

  // A narrowed region's statements without the tests its box makes always true (see
  // SplitStep::exactBody), or empty.
  std::vector<const ir::Stmt*> exactBodyOf(const SplitStep& s) const {
    const RegionStatement* only = nullptr;
    bool rematerializedAfter = false;
    for (const RegionStatement& st : s.statements) {
      if (plan_.isRematerialized(st)) {
        rematerializedAfter = rematerializedAfter || only != nullptr;
        continue;
      }
      if (only != nullptr)
        return {};
      only = &st;
      if (only->guard == nullptr && !only->statement->is<ir::If>())
        return {};
    }
    if (only == nullptr || rematerializedAfter)
      return {};
    std::optional<Conditional> outer = only->guard != nullptr
                                           ? Conditional{only->guard->condition, {only->statement}}
                                           : conditionalOf(only->statement);
    // Every alternative of the box holds the bounds of each test on the way in, so even the hull
    // of several lies inside the box an exact test admits: such a test always holds there.
    if (!outer || !bounds_.exactTest(outer->test, s))
      return {};
    Conditional inner = *outer;
    while (inner.body.size() == 1) {
      std::optional<Conditional> next = conditionalOf(inner.body[0]);
      if (!next || !bounds_.exactTest(next->test, s))
        break;
      inner = *next;
    }
    return inner.body;
  }

  const BarrierSplitPlan& plan_;
  ThreadBounds bounds_;
};

} // namespace

void narrowRegions(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                   BarrierSplitPlan& plan) {
  RegionNarrowing(kernel, uniformity, plan).narrow(plan.steps);
}

} // namespace pyk::codegen
