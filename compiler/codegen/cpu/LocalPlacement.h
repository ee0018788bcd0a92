// LocalPlacement: pass 8 of the CPU pipeline: where each local of a split kernel lives. A local
// whose value passes from one region to another in a thread, or that block-level control reads, is
// kept per thread (an array with one item per thread), or once per block when every thread would
// store the same value (a block-uniform value computed from nothing a region changes); loop
// counters of block-level loops and locals only hoisted statements write live once per block; every
// other local lives inside its region. Consumes the finished regions (after distribution and
// hoisting), the block-level loops and control (BarrierRegions) and the rematerialized locals;
// concludes the placement, and what stops the split from keeping it.
#pragma once

#include <string>
#include <vector>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

struct LocalPlacement {
  LocalSet perThread;
  LocalSet perBlock;
  LocalSet assignedInRegion; // locals some region assigns (threads write them)
  LocalSet hoistedTargets;   // locals the hoisted (Uniform) statements assign
};

// `loopCounters`, `controls`: BarrierRegions' (the hoisted statements count as control too).
LocalPlacement placeLocals(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                           const LocalSet& loopCounters,
                           const std::vector<const ir::Node*>& controls,
                           const BarrierSplitPlan& plan);

// Whether a local a hoisted statement writes once for the block is also written by threads: it
// would need a copy per thread (the pipeline then plans again without hoisting).
bool hoistedLocalWrittenByThreads(const LocalPlacement& placement);

// Why the split cannot keep its locals so, as a fiber reason: the counter of a block-level loop
// assigned by threads in the loop, a local array (which lives in its region's stack frame) used
// on both sides of a barrier, or a local whose versions take two types (two C++ variables,
// VariableStorage) joined where block-level control joins (whose edges the split does not
// convert); "" when it can.
std::string placementConflict(const ir::Function& kernel, const LocalSet& loopCounters,
                              const LocalPlacement& placement, const BarrierSplitPlan& plan);

} // namespace pyk::codegen
