// SplitPasses: the CPU pipeline's split passes (4 to 8) run over a TypedKernel in the pipeline's
// order (with hoisting), up to the pass a test examines, keeping what each concludes.
#pragma once

#include <optional>
#include <string>

#include "TypedKernel.h"
#include "codegen/BarrierRegions.h"
#include "codegen/LocalPlacement.h"
#include "codegen/RegionDistribution.h"
#include "codegen/Rematerialization.h"
#include "codegen/UniformHoisting.h"

namespace pyk::test {

enum class SplitPass {
  BarrierRegions,
  Rematerialization,
  RegionDistribution,
  UniformHoisting,
  LocalPlacement
};

struct SplitPasses {
  codegen::UniformityAnalysis uniformity;
  std::string whyNot;                             // why BarrierRegions could not cut the body
  std::optional<codegen::BarrierRegions> regions; // its steps, as they were: plan.steps
  codegen::BarrierSplitPlan plan;
  codegen::LocalPlacement placement;

  SplitPasses(const TypedKernel& k, SplitPass last) : uniformity(k.spec()) {
    using namespace codegen;
    regions = formBarrierRegions(k.spec(), uniformity, whyNot);
    if (!regions)
      return;
    plan.steps = regions->steps;
    plan.hasReturn = regions->hasReturn;
    if (last == SplitPass::BarrierRegions)
      return;
    Rematerialization r = findRematerialization(k.spec(), uniformity, plan.steps);
    plan.rematerialized = r.statements;
    plan.rematerializedLocals = r.locals;
    if (last == SplitPass::Rematerialization)
      return;
    distributeRegions(k.spec(), uniformity, plan);
    if (last == SplitPass::RegionDistribution)
      return;
    hoistUniformStatements(k.spec(), uniformity, plan);
    markRematerializingRegion(plan);
    if (last == SplitPass::UniformHoisting)
      return;
    placement = placeLocals(k.spec(), uniformity, regions->loopCounters, regions->controls, plan);
  }
};

// The steps of `k` after the passes up to `last` (TypedKernel::stepsText), or why they cannot be.
inline std::string stepsAfter(const TypedKernel& k, SplitPass last) {
  const SplitPasses passes(k, last);
  return passes.regions ? k.stepsText(passes.plan.steps) : "not cut: " + passes.whyNot;
}

} // namespace pyk::test
