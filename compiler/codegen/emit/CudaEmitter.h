// CudaEmitter: the typed IR of a specialization (and of the device functions it calls) as one
// CUDA C++ translation unit, readable, with `#line` directives back to the .pyk source
// (UnitEmitter with CudaSpelling).
#pragma once

#include <string>

#include "base/GeneratedUnit.h"
#include "codegen/spelling/CppNames.h"
#include "diag/DiagnosticEngine.h"
#include "ir/Ir.h"

namespace pyk::codegen {

// What code generation hands on (base/GeneratedUnit.h: the jit compiles it, the runtime loads it).
using base::EmittedUnit;

// Emits the module's entry and every function it calls. What code generation does not cover
// yet is reported, located, to `diags`; the result is then not to be compiled.
// Without `lineDirectives` the unit has no `#line`: NVRTC's messages then name generated lines,
// which is what an internal error must show.
EmittedUnit emitCuda(const ir::Module& module, DiagnosticEngine& diags, bool lineDirectives = true);

} // namespace pyk::codegen
