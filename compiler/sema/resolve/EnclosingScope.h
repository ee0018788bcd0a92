// EnclosingScope: what a kernel or device function defined inside a (host) function sees of the
// functions around it — numba's tests and users' kernel factories define them so, and numba
// freezes the free variables when it compiles. pyk compiles without running the factory, so a
// free variable must be a compile-time constant of the factory: a name it assigns once, at its top
// level, a value that folds (from the module's constants and its own earlier ones); an import; a
// function decorated inside it. Anything else (a parameter, a name assigned twice or in a loop) is
// bound as a host value, so using it is a located error saying why.
//
// The names are bound into the module's symbol table under names no Python code can spell
// (`make.<locals>.TPB`), and the nested function maps each Python name to its hidden one.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// The hidden name of `name` in the scope of the functions `chain` (outermost first):
// `outer.<locals>.inner.<locals>.name`.
std::string enclosedName(const std::vector<const ast::FunctionDef*>& chain,
                         const std::string& name);

// Binds the names the innermost function of `chain` defines (its parameters, assignments,
// imports, nested functions) into `symbols` under their hidden names, and returns Python name →
// hidden name for them. `defineNested(def, hiddenName)` is called for each function defined at
// its top level (it binds the function under that name, or leaves it a Python function). `outer`
// is what the enclosing functions already bound (the innermost wins). `why` ends the reason a
// name that is no constant gives (" (pyk compiles ...)").
std::unordered_map<std::string, std::string> bindEnclosingScope(
    const std::vector<const ast::FunctionDef*>& chain, ModuleSymbolTable& symbols,
    DiagnosticEngine& diags, const std::unordered_map<std::string, std::string>& outer,
    const std::function<void(const ast::FunctionDef&, const std::string&)>& defineNested,
    const std::string& why);

} // namespace pyk::sema
