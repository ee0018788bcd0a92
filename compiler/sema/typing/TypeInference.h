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

} // namespace pyk::sema
