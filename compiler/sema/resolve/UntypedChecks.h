// UntypedChecks: the errors numba reports whatever the argument types, found at resolution so
// that every function has them (`pykc check` without a signature, a lazy kernel before its
// launch): a numba intrinsic or device function called with a number of arguments it does not
// take, and a function, module or type object used as an operand of arithmetic or a comparison
// (`v += abs`, `x = math + 1`).
#pragma once

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

// Checks `function`, whose names are resolved, against the module it is in (`module`: its device
// functions and the functions it imports).
void checkUntyped(const CompiledFunction& function, const std::vector<CompiledFunction>& functions,
                  const ImportedNames& imported, DiagnosticEngine& diags);

} // namespace pyk::sema
