// RegionDistribution: regions cut before and after each statement with thread bounds; the
// rematerialized assignments stay in the region where the source has them.
#include "codegen/cpu/RegionDistribution.h"

#include <algorithm>

#include "codegen/cpu/ThreadBounds.h"

namespace pyk::codegen {

namespace {

class RegionDistribution {
public:
  RegionDistribution(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                     const BarrierSplitPlan& plan)
      : plan_(plan), bounds_(kernel, uniformity, plan, false) {}

  void distribute(std::vector<SplitStep>& list) const {
    std::vector<SplitStep> out;
    for (SplitStep& s : list) {
      distribute(s.body);
      distribute(s.orelse);
      if (s.kind != SplitStep::Kind::Region) {
        out.push_back(std::move(s));
        continue;
      }
      std::vector<SplitStep> parts = partsOf(s);
      // The rematerialized assignments must stay in the region where the source has them.
      bool keep = parts.size() <= 1;
      for (const ir::Stmt* r : plan_.rematerialized)
        if (holds(s, r) && !holds(parts[0], r))
          keep = true;
      if (keep) {
        out.push_back(std::move(s));
        continue;
      }
      for (SplitStep& part : parts) {
        part.narrowing.clear();
        out.push_back(std::move(part));
      }
    }
    list = std::move(out);
  }

private:
  static bool holds(const SplitStep& region, const ir::Stmt* st) {
    return std::any_of(
        region.statements.begin(), region.statements.end(),
        [&](const RegionStatement& s) { return s.guard == nullptr && s.statement == st; });
  }

  // Whether a statement of `region` has thread bounds (before the locals are placed).
  template <class Statement>
  bool bounded(const Statement& st, const SplitStep& region) const {
    return bounds_.of(st, region).has_value();
  }

  // Whether `if P: S1; S2; ...` can run as `if P: S1`, `if P: S2`, ...: a body of several
  // statements, one with bounds, and a test that only computes from names the body leaves alone.
  bool distributable(const ir::If* i, const SplitStep& region) const {
    if (!i->otherwise.empty() || i->then.size() <= 1 ||
        !ThreadBounds::sideEffectFree(i->condition) ||
        std::none_of(i->then.begin(), i->then.end(),
                     [&](const ir::Stmt* b) { return bounded(b, region); }))
      return false;
    bool assigned = false;
    ir::forEachNode(static_cast<const ir::Node*>(i->condition), [&](const ir::Node* n) {
      if (const std::optional<sema::VariableId> v = readOf(n))
        ir::forEachNode(i->then,
                        [&](const ir::Node* m) { assigned = assigned || storeOf(m) == v; });
    });
    return !assigned;
  }

  // The region's statements (distributed) cut into parts: each statement with bounds alone, the
  // statements between them together; a first part of rematerialized assignments alone joins
  // the next.
  std::vector<SplitStep> partsOf(const SplitStep& s) const {
    std::vector<RegionStatement> expanded;
    for (const RegionStatement& st : s.statements) {
      const auto* i = st.guard == nullptr ? st.statement->as<ir::If>() : nullptr;
      if (i == nullptr || !distributable(i, s)) {
        expanded.push_back(st);
        continue;
      }
      for (const ir::Stmt* b : i->then)
        expanded.push_back({b, i});
    }
    std::vector<SplitStep> parts;
    for (const RegionStatement& st : expanded) {
      const bool alone = bounded(st, s);
      if (alone || parts.empty() || !parts.back().narrowing.empty())
        parts.emplace_back();
      parts.back().statements.push_back(st);
      if (alone)
        parts.back().narrowing.emplace_back(); // marks it alone; RegionNarrowing fills it in
    }
    // A part of rematerialized assignments alone would compute what every later region
    // computes again: it joins the next.
    auto rematerializedOnly = [&](const SplitStep& part) {
      return std::all_of(part.statements.begin(), part.statements.end(),
                         [&](const RegionStatement& st) { return plan_.isRematerialized(st); });
    };
    if (parts.size() > 1 && rematerializedOnly(parts[0])) {
      parts[1].statements.insert(parts[1].statements.begin(), parts[0].statements.begin(),
                                 parts[0].statements.end());
      parts.erase(parts.begin());
    }
    return parts;
  }

  const BarrierSplitPlan& plan_;
  ThreadBounds bounds_;
};

} // namespace

void distributeRegions(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                       BarrierSplitPlan& plan) {
  RegionDistribution(kernel, uniformity, plan).distribute(plan.steps);
}

} // namespace pyk::codegen
