// CudaEmitter: a typed specialization (and the device functions it calls) as one CUDA C++
// translation unit, readable, with `#line` directives back to the .pyk source (UnitEmitter with
// CudaSpelling).
#pragma once

#include <string>

#include "codegen/CppNames.h"
#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "sema/ResolvedModule.h"
#include "sema/Specialization.h"

namespace pyk::codegen {

struct EmittedUnit {
  std::string source;     // includes "pyk_support.h" (passed to NVRTC as an in-memory header)
  std::string entryPoint; // the extern "C" name of the entry kernel (empty for a device function)
  // The kernel calls `cuda.cg.this_grid().sync()`: it must be launched cooperatively (every
  // block resident at once), as numba launches such kernels.
  bool cooperative = false;
};

// Emits `entry` and every specialization in `set` it calls. What code generation does not cover
// yet is reported, located, to `diags`; the result is then not to be compiled.
// Without `lineDirectives` the unit has no `#line`: NVRTC's messages then name generated lines,
// which is what an internal error must show.
EmittedUnit emitCuda(const sema::ResolvedModule& module, const SourceFile& file,
                     const sema::SpecializationSet& set, const sema::Specialization& entry,
                     DiagnosticEngine& diags, bool lineDirectives = true);

} // namespace pyk::codegen
