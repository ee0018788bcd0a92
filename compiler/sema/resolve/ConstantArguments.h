// ConstantArguments: the arguments numba needs as compile-time constants, checked with or without
// types: a shared or local array's shape (an integer or a tuple of them, with elements: a shared
// array's 1-D length may be 0, the dynamic shared array) and `cuda.grid`'s rank (1, 2 or 3).
// Resolution checks every function this way before any signature is known (a device function's
// parameters excepted: a call may give them constants); typing checks the same rules on what a
// specialization folds.
#pragma once

#include <optional>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "sema/fold/ConstantValue.h"
#include "sema/resolve/CompiledFunction.h"
#include "sema/resolve/ModuleSymbolTable.h"

namespace pyk::sema {

// What is wrong with `shape` as the shape of a shared (`shared`) or local array, completing
// "... is not a valid array shape: <problem>"; nullopt when it is one.
std::optional<std::string> arrayShapeProblem(const ConstantValue& shape, bool shared);

// Checks `function`'s constant arguments without types, reporting at each argument.
void checkConstantArguments(const CompiledFunction& function, const ModuleSymbolTable& symbols,
                            DiagnosticEngine& diags);

} // namespace pyk::sema
