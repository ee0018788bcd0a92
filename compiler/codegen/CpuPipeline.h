// CpuPipeline: the CPU backend's analyses of a kernel, as one ordered list of passes (in the
// manner of Halide's Lower.cpp), from the typed kernel to its CpuExecutionPlan. The list is in
// CpuPipeline.cpp; each pass is a file of its own.
#pragma once

#include <vector>

#include "codegen/CpuExecutionPlan.h"
#include "ir/Ir.h"

namespace pyk::codegen {

// `reached`: every specialization the kernel calls, the kernel first (lower::reachedFrom);
// `irKernel`: the kernel's IR.
// `blockShapeKnown`: the unit is compiled for one block shape (short uniform loops then run in
// lockstep: formBarrierRegions).
CpuExecutionPlan planCpuExecution(const sema::Specialization& kernel,
                                  const std::vector<const sema::Specialization*>& reached,
                                  const ir::Function& irKernel, bool blockShapeKnown = false);

} // namespace pyk::codegen
