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

#include "codegen/CpuExecutionPlan.h"
#include "diag/DiagnosticEngine.h"
#include "ir/Ir.h"

namespace pyk::codegen {

struct CpuUnit {
  std::string source; // includes "pyk_cpu_support.h" (stdlib/cpu/)
  std::string kernelName;
  std::string blockEntry;  // "" when the kernel can only run as fibers
  std::string threadEntry; // always present
  CpuExecutionMode mode = CpuExecutionMode::Loop;
  std::string fiberReason;
  std::string modeReason; // why this mode (describeMode), for pykc emit
  int64_t staticSharedBytes = 0;
  std::vector<std::string> parameterTypes; // C++ types, in order
  // It synchronises the grid (`this_grid().sync()`): every block runs at once, as fibers.
  bool cooperative = false;
};

struct CpuEmitOptions {
  bool lineDirectives = true;
  // Run every kernel as fibers (for measuring fibers against loops; tests of fiber mode).
  bool forceFibers = false;
  // Check every array index (PYK_BOUNDSCHECK=1): an access out of range stops the kernel with a
  // message naming the kernel, the array, the index and the thread.
  bool boundsCheck = false;
  // The launch's block shape, x, y, z: a split kernel is compiled for it (trip counts and
  // blockDim become constants the optimiser unrolls and vectorises with). Zero: any shape.
  uint32_t blockShape[3] = {0, 0, 0};
};

// Emits `module`'s entry and every function it calls, the kernel's threads run as the CPU
// pipeline plans (CpuPipeline.h).
CpuUnit emitCpu(const ir::Module& module, DiagnosticEngine& diags,
                const CpuEmitOptions& options = {});

} // namespace pyk::codegen
