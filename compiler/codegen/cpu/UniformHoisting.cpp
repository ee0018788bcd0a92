// UniformHoisting: a region's leading and trailing uniform assignments become Uniform steps
// before and after it.
#include "codegen/cpu/UniformHoisting.h"

#include "codegen/cpu/ThreadModelScan.h"

namespace pyk::codegen {

namespace {

class UniformHoisting {
public:
  UniformHoisting(const UniformityAnalysis& uniformity, const BarrierSplitPlan& plan)
      : uniformity_(uniformity), plan_(plan) {}

  void hoist(std::vector<SplitStep>& list) const {
    std::vector<SplitStep> out;
    for (SplitStep& s : list) {
      if (s.kind != SplitStep::Kind::Region) {
        hoist(s.body);
        hoist(s.orelse);
        out.push_back(std::move(s));
        continue;
      }
      const std::vector<RegionStatement>& st = s.statements;
      size_t begin = 0, end = st.size();
      while (begin < end && hoistable(st[begin]))
        ++begin;
      while (end > begin && hoistable(st[end - 1]))
        --end;
      SplitStep before, after, middle;
      before.kind = after.kind = SplitStep::Kind::Uniform;
      before.statements.assign(st.begin(), st.begin() + static_cast<std::ptrdiff_t>(begin));
      middle.statements.assign(st.begin() + static_cast<std::ptrdiff_t>(begin),
                               st.begin() + static_cast<std::ptrdiff_t>(end));
      after.statements.assign(st.begin() + static_cast<std::ptrdiff_t>(end), st.end());
      for (SplitStep* part : {&before, &middle, &after})
        if (!part->statements.empty())
          out.push_back(std::move(*part));
    }
    list = std::move(out);
  }

private:
  bool hoistable(const RegionStatement& st) const {
    return st.guard == nullptr && uniformStatement(st.statement) &&
           !plan_.isRematerialized(st.statement);
  }

  // An assignment of a uniform value to a uniform local (`s = n // 2`, `s += 1`): the block can
  // run it once.
  bool uniformStatement(const ir::Stmt* st) const {
    if (const auto* a = st->as<ir::Assign>()) {
      if (a->targets.size() != 1)
        return false;
      const std::optional<sema::VariableId> v = storeOf(a->targets[0]);
      return v && uniformity_.uniformVariable(*v) && uniformity_.uniform(a->value) &&
             !firstIntrinsicCall(a->value, sema::intrinsic_flags::Barrier);
    }
    if (const auto* s = st->as<ir::Store>(); s != nullptr && s->augmented) {
      const std::optional<sema::VariableId> v = storeOf(s->target);
      return v && uniformity_.uniformVariable(*v) && uniformity_.uniform(s->value);
    }
    return false;
  }

  const UniformityAnalysis& uniformity_;
  const BarrierSplitPlan& plan_;
};

} // namespace

void hoistUniformStatements(const UniformityAnalysis& uniformity, BarrierSplitPlan& plan) {
  UniformHoisting(uniformity, plan).hoist(plan.steps);
}

} // namespace pyk::codegen
