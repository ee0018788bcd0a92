// RegionNarrowing: which threads of a split region can do anything. A region whose statements
// are `if`s bounding a thread index (`if tid < stride:`, `if tx == 0 or col == ncols - 1:`)
// runs only the threads inside the bounds' hull, and drops the tests that box states exactly;
// `if` bodies holding such statements are first distributed into regions of their own.
#pragma once

#include <vector>

#include "codegen/CpuExecutionPlan.h"
#include "codegen/UniformityAnalysis.h"
#include "sema/Specialization.h"

namespace pyk::codegen {

// Before the plan places its locals: distributes `if P: S1; S2` (P only computes, the body
// assigns none of its names) whose body holds a statement with bounds into `if P: S1`,
// `if P: S2`, ... (kept in plan.distributed), and gives each statement with bounds a region of
// its own. Running one statement for every thread before the next is a schedule CUDA allows (as
// if a barrier stood between them); values passing between them are carried as across barriers.
void distributeRegions(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                       std::vector<SplitStep>& steps, BarrierSplitPlan& plan);

// After: fills SplitStep::narrowing and SplitStep::exactBody of every region that has bounds.
void narrowRegions(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                   std::vector<SplitStep>& steps, const BarrierSplitPlan& plan);

} // namespace pyk::codegen
