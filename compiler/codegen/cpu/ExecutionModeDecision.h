// ExecutionModeDecision: pass 2 of the CPU pipeline: the mode a kernel's thread-model operations
// (ThreadModelScan) allow before any split is planned. Fibers for a warp operation or for a barrier
// in a device function BarrierInlining could not inline (the first in the scan's order, with the
// reason: the inliner's, where it gave one); a loop when the kernel has no barrier; fibers too for
// a kernel with barriers that assigns to a parameter, which the split shares between the threads;
// else Split, for the passes after it to plan (they may still fall back to fibers).
#pragma once

#include <string>
#include <vector>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/ThreadModelScan.h"

namespace pyk::codegen {

// `uses`: the scan of the kernel and the functions it calls; `inliningFailure`: why
// BarrierInlining left a call of such a function ("" where it did not). The plan has no split yet.
CpuExecutionPlan decideExecutionMode(const ir::Function& kernel,
                                     const std::vector<ThreadModelUse>& uses,
                                     const std::string& inliningFailure = "");

} // namespace pyk::codegen
