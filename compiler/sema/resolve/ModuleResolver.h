// ModuleResolver: the resolution phase's entry point: imports recorded, module constants folded,
// kernels / device functions / ufuncs found and checked, names in their bodies bound.
#pragma once

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ResolvedModule.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// Resolves a parsed module. Every problem is reported to `diags` (several per run); the result
// holds whatever could be resolved, so later phases may look at it only when !diags.hasErrors().
//
// Module-level names are taken in source order, as Python runs them. A name bound exactly once,
// by a plain statement at the top level, to an expression the ConstantFolder can evaluate is a
// constant; a name bound more than once, inside `if`/`for`/`try`/..., by `global` in a function,
// or to anything else is a host value (an error only where device code uses it). Imports keep
// their binding when every binding of the name agrees.
// Modules of the user's it imports are read through `importer` (none: no such module is read).
ResolvedModule resolveModule(const ast::Module& module, DiagnosticEngine& diags,
                             class ModuleImporter* importer = nullptr);

} // namespace pyk::sema
