// RegionDistribution: regions cut before and after each statement with thread bounds; the
// rematerialized assignments stay in the region where the source has them.
#include "codegen/RegionDistribution.h"

#include <algorithm>

#include "codegen/ThreadBounds.h"

namespace pyk::codegen {

namespace {

class RegionDistribution {
public:
  RegionDistribution(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                     const BarrierSplitPlan& plan)
      : kernel_(kernel), plan_(plan), bounds_(kernel, uniformity, plan, false) {}

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
      for (const ast::Stmt* r : plan_.rematerialized)
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
  static bool holds(const SplitStep& region, const ast::Stmt* st) {
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
  bool distributable(const ast::If* i, const SplitStep& region) const {
    if (i->orelse.empty() && i->body.size() > 1 && ThreadBounds::sideEffectFree(i->test) &&
        std::any_of(i->body.begin(), i->body.end(),
                    [&](const ast::Stmt* b) { return bounded(b, region); })) {
      const sema::FunctionScope& scope = kernel_.function->scope;
      bool assigned = false;
      ast::forEachNode(i->test, [&](const ast::Node* n) {
        const auto* x = n->as<ast::Name>();
        const std::optional<size_t> local = x != nullptr ? localIndex(scope, x) : std::nullopt;
        if (local)
          for (const ast::Stmt* b : i->body)
            ast::forEachNode(b, [&](const ast::Node* m) {
              if (isLocal(scope, m, *local) && m->as<ast::Name>()->ctx != ast::ExprContext::Load)
                assigned = true;
            });
      });
      return !assigned;
    }
    return false;
  }

  // The region's statements (distributed) cut into parts: each statement with bounds alone, the
  // statements between them together; a first part of rematerialized assignments alone joins
  // the next.
  std::vector<SplitStep> partsOf(const SplitStep& s) const {
    std::vector<RegionStatement> expanded;
    for (const RegionStatement& st : s.statements) {
      const auto* i = st.guard == nullptr ? st.statement->as<ast::If>() : nullptr;
      if (i == nullptr || !distributable(i, s)) {
        expanded.push_back(st);
        continue;
      }
      for (const ast::Stmt* b : i->body)
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

  const sema::Specialization& kernel_;
  const BarrierSplitPlan& plan_;
  ThreadBounds bounds_;
};

} // namespace

void distributeRegions(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                       BarrierSplitPlan& plan) {
  RegionDistribution(kernel, uniformity, plan).distribute(plan.steps);
}

} // namespace pyk::codegen
