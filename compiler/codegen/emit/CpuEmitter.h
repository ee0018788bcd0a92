// CpuEmitter: a typed specialization as one C++ translation unit for the CPU backend: the same
// functions as the CUDA unit (UnitEmitter with CpuSpelling) plus two extern "C" entry points the
// runtime calls:
//   <kernel>__block(pyk::cpu::Block&, void** args)   runs a whole block (loop or split mode);
//   <kernel>__thread(pyk::cpu::Thread&, void** args) runs one thread (fiber mode; every kernel).
// `args` holds a pointer to each argument's value, in the C++ type of its parameter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/GeneratedUnit.h"
#include "codegen/cpu/CpuExecutionPlan.h"
#include "diag/DiagnosticEngine.h"
#include "ir/Ir.h"

namespace pyk::codegen {

// What code generation hands on (base/GeneratedUnit.h: the jit compiles it, the runtime loads it).
using base::CpuEmitOptions;
using base::CpuUnit;

// Emits `module`'s entry and every function it calls, the kernel's threads run as the CPU
// pipeline plans (CpuPipeline.h).
CpuUnit emitCpu(const ir::Module& module, DiagnosticEngine& diags,
                const CpuEmitOptions& options = {});

} // namespace pyk::codegen
