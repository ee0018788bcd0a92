// CpuPipeline: the passes, in order.
//
//   1. ThreadModelScan         the warp operations and barriers each reached function uses
//   2. ExecutionModeDecision   fibers (warp operations, barriers in device functions), a loop (no
//                              barrier), or a split to plan
//   3. UniformityAnalysis      the block-uniform locals and values
//   4. BarrierRegions          the body cut at barriers into regions and block-level control
//                              (and short uniform loops run in lockstep, for a known block shape)
//   5. Rematerialization       the thread-pure assignments each region computes again
//   6. RegionDistribution      statements with thread bounds in regions of their own
//   7. UniformHoisting         uniform assignments out of the thread loops
//   8. LocalPlacement          each local per thread, per block, or inside its region
//   9. RegionNarrowing         each region's box of threads, and its exact body
//
// Passes 4 to 9 plan the split; where they cannot, the kernel runs as fibers, with their reason.
// When a hoisted local is also written by threads (8), they run again without hoisting (7).
// NonNegativeAnalysis is no pass of this pipeline: it serves the emission of both backends
// (UnitEmitter::arrayIndex).
#include "codegen/CpuPipeline.h"

#include "codegen/BarrierRegions.h"
#include "codegen/ExecutionModeDecision.h"
#include "codegen/LocalPlacement.h"
#include "codegen/RegionDistribution.h"
#include "codegen/RegionNarrowing.h"
#include "codegen/Rematerialization.h"
#include "codegen/ThreadModelScan.h"
#include "codegen/UniformHoisting.h"
#include "codegen/UniformityAnalysis.h"

namespace pyk::codegen {

namespace {

enum class Hoisting { On, Off };

// What passes 4 to 9 conclude: the plan, or why the body cannot be split; `hoistingConflict`: a
// plan without hoisting may succeed.
struct SplitAttempt {
  std::optional<BarrierSplitPlan> plan;
  std::string whyNot;
  bool hoistingConflict = false;
};

SplitAttempt planSplit(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                       Hoisting hoisting, bool lockstepLoops) {
  SplitAttempt attempt;
  std::string& whyNot = attempt.whyNot;
  std::optional<BarrierRegions> regions =
      formBarrierRegions(kernel, uniformity, whyNot, lockstepLoops); // 4
  if (!regions)
    return attempt;
  BarrierSplitPlan plan;
  plan.steps = std::move(regions->steps);
  plan.hasReturn = regions->hasReturn;
  Rematerialization rematerialization = findRematerialization(kernel, uniformity, plan.steps); // 5
  plan.rematerialized = std::move(rematerialization.statements);
  plan.rematerializedLocals = std::move(rematerialization.locals);
  distributeRegions(kernel, uniformity, plan); // 6
  if (hoisting == Hoisting::On)
    hoistUniformStatements(kernel, uniformity, plan); // 7
  markRematerializingRegion(plan);
  const LocalPlacement placement =
      placeLocals(kernel, uniformity, regions->loopCounters, regions->controls, plan); // 8
  attempt.hoistingConflict = hoisting == Hoisting::On && hoistedLocalWrittenByThreads(placement);
  if (attempt.hoistingConflict)
    return attempt;
  whyNot = placementConflict(kernel, regions->loopCounters, placement);
  if (!whyNot.empty())
    return attempt;
  plan.perThread = placement.perThread;
  plan.perBlock = placement.perBlock;
  narrowRegions(kernel, uniformity, plan); // 9
  attempt.plan = std::move(plan);
  return attempt;
}

} // namespace

CpuExecutionPlan planCpuExecution(const sema::Specialization& kernel,
                                  const std::vector<const sema::Specialization*>& reached,
                                  const ir::Function& irKernel, bool blockShapeKnown) {
  const std::vector<ThreadModelUse> uses = scanThreadModel(reached);   // 1
  CpuExecutionPlan plan = decideExecutionMode(kernel, uses, irKernel); // 2
  if (plan.mode != CpuExecutionMode::Split)
    return plan;
  const UniformityAnalysis uniformity(kernel); // 3
  auto attempt = [&](bool lockstepLoops) {
    SplitAttempt a = planSplit(kernel, uniformity, Hoisting::On, lockstepLoops);
    return a.hoistingConflict ? planSplit(kernel, uniformity, Hoisting::Off, lockstepLoops) : a;
  };
  SplitAttempt split = attempt(blockShapeKnown);
  if (!split.plan && blockShapeKnown) // the lockstep loops in the way: as for any shape, then
    split = attempt(false);
  plan.split = std::move(split.plan);
  if (!plan.split) {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = split.whyNot;
  }
  return plan;
}

} // namespace pyk::codegen
