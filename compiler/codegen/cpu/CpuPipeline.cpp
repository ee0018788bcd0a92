// CpuPipeline: the passes, in order.
//
//   0. BarrierInlining         calls of device functions that wait at barriers inlined
//   1. ThreadModelScan         the warp operations and barriers each function the kernel reaches
//                              uses
//   2. ExecutionModeDecision   fibers (warp operations, barriers in device functions not inlined),
//                              a loop (no
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
// Passes 4 to 9 are a split attempt; where one fails, the kernel runs as fibers, with its reason.
// When a hoisted local is also written by threads (8), the attempt runs again without hoisting
// (7); when an attempt with lockstep loops fails, one without. NonNegativeAnalysis is no pass of
// this pipeline: it serves the emission of both backends (UnitEmitter::arrayIndex).
#include "codegen/cpu/CpuPipeline.h"

#include "codegen/cpu/BarrierInlining.h"
#include "codegen/cpu/ExecutionModeDecision.h"
#include "codegen/cpu/RegionDistribution.h"
#include "codegen/cpu/RegionNarrowing.h"
#include "codegen/cpu/Rematerialization.h"
#include "codegen/cpu/UniformHoisting.h"
#include "ir/IrVerifier.h"

namespace pyk::codegen {

namespace {

bool barrierInlining(CpuPlanning& p) {
  InlinedBarrierCalls inlined = inlineBarrierCalls(p.module);
  p.inliningFailure = std::move(inlined.whyNot);
  if (inlined.module == nullptr)
    return true;
  // A copy that is not well formed is pyk's bug: the kernel runs as written, on fibers, saying so.
  if (const std::vector<std::string> problems = ir::verify(p.module, inlined.module->entry());
      !problems.empty()) {
    p.inliningFailure =
        "inlining its device functions made malformed IR (a bug in pyk): " + problems.front();
    return true;
  }
  p.inlined = std::move(inlined.module);
  p.kernel = &p.inlined->entry();
  return true;
}

bool threadModelScan(CpuPlanning& p) {
  p.uses = scanThreadModel(p.module, *p.kernel);
  return true;
}

bool executionModeDecision(CpuPlanning& p) {
  p.plan = decideExecutionMode(*p.kernel, p.uses, p.inliningFailure);
  p.plan.inlined = p.inlined;
  return p.plan.mode == CpuExecutionMode::Split;
}

bool uniformityAnalysis(CpuPlanning& p) {
  p.uniformity.emplace(*p.kernel);
  return true;
}

bool barrierRegions(CpuPlanning& p) {
  p.regions =
      formBarrierRegions(*p.kernel, *p.uniformity, p.whyNot, p.lockstepLoops, p.gridStrideLoops);
  if (!p.regions)
    return false;
  p.split.steps = p.regions->steps; // the regions stay as this pass left them, for printing
  p.split.hasReturn = p.regions->hasReturn;
  p.split.strideCounters = p.regions->strideCounters;
  return true;
}

bool rematerialization(CpuPlanning& p) {
  Rematerialization r = findRematerialization(*p.kernel, *p.uniformity, p.split.steps);
  p.split.rematerialized = std::move(r.statements);
  p.split.rematerializedLocals = std::move(r.locals);
  return true;
}

bool regionDistribution(CpuPlanning& p) {
  distributeRegions(*p.kernel, *p.uniformity, p.split);
  return true;
}

bool uniformHoisting(CpuPlanning& p) {
  if (p.hoisting)
    hoistUniformStatements(*p.uniformity, p.split);
  // The statements have found their regions: the one the rematerialized assignments are in.
  markRematerializingRegion(p.split);
  return true;
}

bool localPlacement(CpuPlanning& p) {
  p.placement =
      placeLocals(*p.kernel, *p.uniformity, p.regions->loopCounters, p.regions->controls, p.split);
  p.hoistingConflict = p.hoisting && hoistedLocalWrittenByThreads(p.placement);
  if (p.hoistingConflict)
    return false;
  p.whyNot = placementConflict(*p.kernel, p.regions->loopCounters, p.placement, p.split);
  if (!p.whyNot.empty())
    return false;
  p.split.perThread = p.placement.perThread;
  p.split.perBlock = p.placement.perBlock;
  return true;
}

bool regionNarrowing(CpuPlanning& p) {
  narrowRegions(*p.kernel, *p.uniformity, p.split);
  return true;
}

} // namespace

const std::vector<CpuPass>& cpuPasses() {
  static const std::vector<CpuPass> kPasses = {
      {"BarrierInlining", false, barrierInlining},             // 0
      {"ThreadModelScan", false, threadModelScan},             // 1
      {"ExecutionModeDecision", false, executionModeDecision}, // 2
      {"UniformityAnalysis", false, uniformityAnalysis},       // 3
      {"BarrierRegions", true, barrierRegions},                // 4
      {"Rematerialization", true, rematerialization},          // 5
      {"RegionDistribution", true, regionDistribution},        // 6
      {"UniformHoisting", true, uniformHoisting},              // 7
      {"LocalPlacement", true, localPlacement},                // 8
      {"RegionNarrowing", true, regionNarrowing},              // 9
  };
  return kPasses;
}

const CpuPass* cpuPassNamed(std::string_view name) {
  for (const CpuPass& pass : cpuPasses())
    if (name == pass.name)
      return &pass;
  return nullptr;
}

namespace {

// Runs the passes (a split attempt: only the split's) up to `through`; false when one ended the
// run.
bool runFrom(CpuPlanning& p, bool attemptOnly, std::string_view through,
             const CpuPassObserver& observer) {
  for (const CpuPass& pass : cpuPasses()) {
    if (attemptOnly && !pass.splitAttempt)
      continue;
    const bool more = pass.run(p);
    if (observer)
      observer(pass, p);
    if (!more || through == pass.name)
      return more;
  }
  return true;
}

} // namespace

bool runCpuPasses(CpuPlanning& planning, std::string_view through,
                  const CpuPassObserver& observer) {
  return runFrom(planning, false, through, observer);
}

bool runSplitAttempt(CpuPlanning& p, std::string_view through, const CpuPassObserver& observer) {
  p.regions.reset();
  p.split = BarrierSplitPlan{};
  p.placement = LocalPlacement{};
  p.whyNot.clear();
  p.hoistingConflict = false;
  return runFrom(p, true, through, observer);
}

namespace {

// A kernel without barriers whose body is one `if` on its thread's index (`if i < n:`, the
// bounds test of nearly every elementwise kernel): planned as one region narrowed to the box of
// threads the test admits, with its exact body (RegionNarrowing), so that the block's loop runs
// the threads of the box with no test: GCC masks every load and store of a loop with one (the
// vector add on one core of the AMD VM: 8.7 ms masked, 3.5 ms narrowed; hand-written 2.8-3.8).
// The same for a body that is one `if`-`else` on such a test (two loops, one per branch), and
// for tests of a grid index anywhere in the body (the blocks inside the grid's bounds run a copy
// without them: RegionNarrowing's block tests); and a kernel with a grid-stride loop, which runs
// its threads in lockstep (GridStrideLoops). Nothing where the plan gains none of these.
void narrowLoop(CpuPlanning& p, const CpuPassObserver& observer) {
  for (const ir::Version& v : p.kernel->versions)
    if (v.kind == ir::Version::Kind::Def && p.kernel->variables[v.variable].parameter)
      return; // split regions share the parameters
  cpuPassNamed("UniformityAnalysis")->run(p);
  p.lockstepLoops = false;
  p.hoisting = true;
  if (!runSplitAttempt(p, {}, observer))
    return;
  const bool gains = p.split.steps.size() == 1 &&
                     p.split.steps[0].kind == SplitStep::Kind::Region &&
                     (!p.split.steps[0].exactParts.empty() || !p.split.steps[0].blockTests.empty());
  if (!gains && !hasGridStrideLoop(p.split.steps))
    return;
  p.plan.split = std::move(p.split);
}

} // namespace

CpuExecutionPlan planCpuExecution(const ir::Module& module, bool blockShapeKnown,
                                  const CpuPassObserver& observer) {
  CpuPlanning p(module, blockShapeKnown);
  // Passes 1 to 3 (and a first split attempt).
  bool split = runCpuPasses(p, {}, observer);
  if (p.plan.mode == CpuExecutionMode::Loop)
    narrowLoop(p, observer);
  if (p.plan.mode != CpuExecutionMode::Split)
    return p.plan;
  auto again = [&](bool lockstepLoops) {
    p.lockstepLoops = lockstepLoops;
    p.hoisting = true;
    if (runSplitAttempt(p, {}, observer))
      return true;
    if (!p.hoistingConflict)
      return false;
    p.hoisting = false;
    return runSplitAttempt(p, {}, observer);
  };
  if (!split && p.hoistingConflict) {
    p.hoisting = false;
    split = runSplitAttempt(p, {}, observer);
  }
  if (!split && blockShapeKnown) // the lockstep loops in the way: as for any shape, then
    split = again(false);
  if (!split && p.regions && hasGridStrideLoop(p.regions->steps)) {
    // A grid-stride loop in lockstep in the way (a local it carries with two C++ variables):
    // its threads in turn inside their region, as before the split took such loops.
    p.gridStrideLoops = false;
    split = again(blockShapeKnown) || (blockShapeKnown && again(false));
  }
  if (split) {
    p.plan.split = std::move(p.split);
  } else {
    p.plan.mode = CpuExecutionMode::Fiber;
    p.plan.fiberReason = p.whyNot;
  }
  return p.plan;
}

} // namespace pyk::codegen
