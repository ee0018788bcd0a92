// RegionDistribution: pass 6 of the CPU pipeline: gives each statement of a split kernel's regions
// that only some threads act in (by the bounds its `if` test puts on their indices, ThreadBounds)
// a region of its own, which RegionNarrowing then runs over those threads alone. An
// `if P: S1; S2; ...` (P only computes, the body assigns none of its names) whose body holds such
// a statement is first distributed into `if P: S1`, `if P: S2`, ...: each a RegionStatement of the
// body's statement guarded by the `if`. Running one statement for every thread before the next is
// a schedule CUDA allows (as if a barrier stood between them); values passing from one to the
// next are carried as across barriers. Consumes the steps and the rematerialized assignments;
// rewrites plan.steps, before the locals are placed.
#pragma once

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

void distributeRegions(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                       BarrierSplitPlan& plan);

} // namespace pyk::codegen
