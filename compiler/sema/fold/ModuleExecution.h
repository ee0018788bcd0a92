// ModuleExecution: the module's top-level code run in order, as Python runs it at import, over
// the values the ConstantFolder computes, so that a kernel sees each module-level name as numba
// freezes it (its value when the module has run): names assigned more than once, in `if`
// branches, `for` and `while` loops, `try` statements; augmented assignments; item stores into
// numpy arrays (`T[0] = 5.0`); calls of the module's own plain Python functions. What cannot be
// followed (an `if` whose test is not a constant, a call pyk does not run that an array is passed
// to) leaves the names it may change not constant, each with the reason; never a stale value.
#pragma once

#include <map>
#include <string>

#include "diag/SourceFile.h"
#include "sema/fold/FoldResult.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// A module-level name's value once the module's top-level code has run, and the statement that
// bound it last (or that made it unknown).
struct ExecutedName {
  FoldResult value = FoldResult::notConstant("");
  SourceRange range;
};

// Runs `module`'s top-level statements; `symbols` holds its imports, functions and classes (and
// the constants resolution folded). Every name an assignment, a loop or an item store binds or
// changes at module level is in the result; imports, functions and classes are not. Reports
// nothing: Python errors of the module's code are the folder's, reported where resolution folds.
std::map<std::string, ExecutedName>
executeModule(const ast::Module& module, const ModuleSymbolTable& symbols, const SourceFile* file);

} // namespace pyk::sema
