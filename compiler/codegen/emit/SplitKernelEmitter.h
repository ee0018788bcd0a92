// SplitKernelEmitter: a split kernel's block-level program (codegen/cpu/CpuExecutionPlan.h's
// BarrierSplitPlan) as C++ in a CPU unit's block entry: regions as loops over the block's
// threads, block-level loops and branches between them, grid-stride loops round by round.
#pragma once

#include <cstdint>

#include "codegen/cpu/CpuExecutionPlan.h"

namespace pyk::codegen {

class UnitEmitter;

// Emits `plan` of `kernel` (the entry or its copy with device functions inlined) into `emitter`'s
// current function body. `blockShape`: the block shape the unit is compiled for ({0, 0, 0}: any).
void emitSplitKernel(UnitEmitter& emitter, const ir::Function& kernel, const BarrierSplitPlan& plan,
                     const uint32_t (&blockShape)[3]);

} // namespace pyk::codegen
