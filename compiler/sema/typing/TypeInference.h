// TypeInference: numba's type inference over one compiled function for given argument types.
#pragma once

#include <optional>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ResolvedModule.h"
#include "sema/typing/Specialization.h"

namespace pyk::sema {

// Types `function` for `params` (and, through calls, every device function it reaches) into
// `set`. Errors are reported, located, to `diags`; returns null when there were any.
// A `declaredReturn` (from a signature) is the specialization's return type: numba converts
// what the body returns to it, which must be possible.
const Specialization* specialize(const ResolvedModule& module, const CompiledFunction& function,
                                 const std::vector<NumbaType>& params, SpecializationSet& set,
                                 DiagnosticEngine& diags,
                                 const std::optional<NumbaType>& declaredReturn = std::nullopt);

// Makes a device function's declared return type (a signature's) that of `spec`, typed from its
// body: numba converts what the body returns to it, which must be a scalar conversion (or none to
// none); reports the mismatch, located at the function's name, and returns false otherwise.
bool adoptDeclaredReturn(Specialization& spec, const NumbaType& declared,
                         const CompiledFunction& function, DiagnosticEngine& diags);

// Whether running `body` may reach its end (Python then returns None): not when every path
// returns or raises, or loops forever (`while True:` without `break`). Typing makes such a
// function's return type an Optional when it returns values elsewhere; lowering adds the return.
bool fallsThrough(const std::vector<ast::Stmt*>& body);

} // namespace pyk::sema
