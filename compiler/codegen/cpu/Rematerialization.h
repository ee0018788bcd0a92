// Rematerialization: pass 5 of the CPU pipeline: the assignments at the start of a split kernel
// whose values each thread can compute again from its indices and block-uniform values
// (`tx = cuda.threadIdx.x`, `i = cuda.grid(1)`, `inside = row < n`): re-run at the start of every
// later region and of block-level control instead of being stored per thread, so regions index
// arrays by affine functions of threadIdx (and vectorise). Consumes the steps of BarrierRegions;
// concludes the assignments and the locals they bind.
#pragma once

#include <vector>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

struct Rematerialization {
  std::vector<const ir::Stmt*> statements; // in the first region, in order
  LocalSet locals;
};

// The first region's top-level assignments of thread-pure values to locals bound nowhere else.
Rematerialization findRematerialization(const ir::Function& kernel,
                                        const UniformityAnalysis& uniformity,
                                        const std::vector<SplitStep>& steps);

// Marks the region that holds plan.rematerialized (SplitStep::definesRematerialized), once the
// passes that move statements between regions have run.
void markRematerializingRegion(BarrierSplitPlan& plan);

} // namespace pyk::codegen
