// Lowering: a typed specialization, and every device-function specialization it reaches, as the
// typed kernel IR (ir/Ir.h). Every expression typing typed becomes a node of its numba type, every
// name of an intrinsic, a value member or an operator its enum, numba's implicit conversions Cast
// nodes, each variable read and store its SSA version, each call its callee's Function.
// What code generation does not cover yet is reported, located, as not supported: lowering then
// gives no module.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "ir/Ir.h"
#include "sema/resolve/ResolvedModule.h"
#include "sema/typing/Specialization.h"

namespace pyk::lower {

struct LoweredModule {
  std::unique_ptr<ir::Module> module; // null when something was reported
  // Where lowering's own checks failed (an IR node whose type is not the one typing gave its
  // expression): pyk's bugs, for the caller to report as internal errors.
  std::vector<std::string> internalProblems;
};

LoweredModule lowerSpecialization(const sema::ResolvedModule& module, const SourceFile& file,
                                  const sema::Specialization& entry, DiagnosticEngine& diags);

// Every specialization `entry` reaches through calls, `entry` first, then each function's callees
// in the order their calls appear in its source (the order of the IR module's functions, and of
// the functions of a unit).
std::vector<const sema::Specialization*> reachedFrom(const sema::Specialization& entry);

} // namespace pyk::lower
