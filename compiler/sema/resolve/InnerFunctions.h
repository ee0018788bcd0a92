// InnerFunctions: functions defined inside a kernel or device function (numba's closures:
// `def helper(x): ...` in a kernel's body, called there or passed to another device function).
// Each undecorated function defined at the top level of a compiled function's body becomes a
// device function of its own, specialized where it is called, named as Python names it
// (`kernel.<locals>.helper`); its free variables are the enclosing function's names as a kernel
// factory's are (EnclosingScope.h): the enclosing function's constants (a name it assigns once, at
// its top level, a value that folds), its other inner functions, the module's names. A closure
// over any other variable of the enclosing function (a parameter, a name assigned in a loop) is a
// located error saying so; numba inlines such closures, pyk does not yet.
#pragma once

#include <functional>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

// Defines the inner functions of every compiled function of `result` (and theirs, in turn):
// each a CompiledFunction (a lazy device function) bound in the symbol table under its hidden
// name, recorded in its enclosing function's `innerFunctions`. `decorated(def)`: a def with a
// numba decorator, which is left to KernelLanguageChecker to report.
void defineInnerFunctions(ResolvedModule& result, DiagnosticEngine& diags,
                          const std::function<bool(const ast::FunctionDef&)>& decorated);

} // namespace pyk::sema
