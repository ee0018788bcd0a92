// UniformHoisting: pass 7 of the CPU pipeline: moves the statements that begin or end a region of a
// split kernel and give a block-uniform local a block-uniform value (`stride = n // 2`, `s += 1`)
// out of its thread loop, into Uniform steps the block runs once. Consumes the regions and the
// rematerialized assignments (which stay); rewrites plan.steps. The pipeline plans again without
// this pass when a local it hoists is also written by threads (LocalPlacement).
#pragma once

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

void hoistUniformStatements(const UniformityAnalysis& uniformity, BarrierSplitPlan& plan);

} // namespace pyk::codegen
