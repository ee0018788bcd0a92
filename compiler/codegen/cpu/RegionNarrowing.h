// RegionNarrowing: pass 9 of the CPU pipeline: which threads of a split region can do anything.
// A region whose statements are `if`s bounding a thread index (`if tid < stride:`,
// `if tx == 0 or col == ncols - 1:`; ThreadBounds) runs only the threads inside the bounds' hull,
// and drops the tests that box states exactly. Consumes the regions (RegionDistribution gave such
// statements regions of their own) and the placed locals (a bound must be computable by the block
// before the region); fills SplitStep::narrowing and SplitStep::exactParts.
#pragma once

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

void narrowRegions(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                   BarrierSplitPlan& plan);

} // namespace pyk::codegen
