// SplitPasses: the CPU pipeline's split passes (4 on) run over a TypedKernel by the pipeline's own
// list (runSplitAttempt, with hoisting, for any block shape), up to the pass a test examines,
// keeping what each concludes.
#pragma once

#include <optional>
#include <string>

#include "TypedKernel.h"
#include "codegen/cpu/CpuPipeline.h"

namespace pyk::test {

enum class SplitPass {
  BarrierRegions,
  Rematerialization,
  RegionDistribution,
  UniformHoisting,
  LocalPlacement
};

inline const char* passName(SplitPass pass) {
  switch (pass) {
  case SplitPass::BarrierRegions:
    return "BarrierRegions";
  case SplitPass::Rematerialization:
    return "Rematerialization";
  case SplitPass::RegionDistribution:
    return "RegionDistribution";
  case SplitPass::UniformHoisting:
    return "UniformHoisting";
  case SplitPass::LocalPlacement:
    return "LocalPlacement";
  }
  return "";
}

struct SplitPasses {
  codegen::CpuPlanning planning;
  // What the passes concluded, by the names the tests use.
  const codegen::UniformityAnalysis& uniformity;
  const std::string& whyNot;                             // why BarrierRegions could not cut
  const std::optional<codegen::BarrierRegions>& regions; // as BarrierRegions left them
  codegen::BarrierSplitPlan& plan;
  const codegen::LocalPlacement& placement;

  SplitPasses(const TypedKernel& k, SplitPass last)
      : planning(k.irModule(), false), uniformity(uniformityOf(planning)), whyNot(planning.whyNot),
        regions(planning.regions), plan(planning.split), placement(planning.placement) {
    codegen::runSplitAttempt(planning, passName(last));
  }

private:
  static const codegen::UniformityAnalysis& uniformityOf(codegen::CpuPlanning& p) {
    codegen::cpuPassNamed("UniformityAnalysis")->run(p);
    return *p.uniformity;
  }
};

// The steps of `k` after the passes up to `last` (TypedKernel::stepsText), or why they cannot be.
inline std::string stepsAfter(const TypedKernel& k, SplitPass last) {
  const SplitPasses passes(k, last);
  return passes.regions ? k.stepsText(passes.plan.steps) : "not cut: " + passes.whyNot;
}

} // namespace pyk::test
