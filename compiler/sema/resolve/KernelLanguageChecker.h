// KernelLanguageChecker: reports the Python constructs numba.cuda cannot compile in a kernel,
// device function or ufunc body (classes, list/dict/set displays, comprehensions, generators,
// lambdas, try, with, imports, nested functions, strings outside print/assert, ...).
#pragma once

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/CompiledFunction.h"

namespace pyk::sema {

// Checks one compiled function whose names are already resolved (function.scope), reporting
// every unsupported construct at the construct's own range; it never stops at the first.
void checkKernelLanguage(const CompiledFunction& function, DiagnosticEngine& diags);

} // namespace pyk::sema
