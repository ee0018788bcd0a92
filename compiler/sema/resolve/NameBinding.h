// NameBinding: what a name used inside a compiled function refers to, and the per-function table
// of those bindings (FunctionScope).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"
#include "sema/resolve/LocalVersions.h"
#include "syntax/Ast.h"

namespace pyk::sema {

struct NameBinding {
  enum class Kind : uint8_t {
    Parameter,        // index: the parameter's position
    Local,            // index: position in FunctionScope::locals
    ModuleConstant,   // index: into ModuleSymbolTable::constants()
    CompiledFunction, // index: into ResolvedModule::functions (a device function)
    Api,              // qualifiedName: `numba.cuda`, `math.sqrt`, `numba.float32`, `numpy`
    Builtin,          // qualifiedName: the builtin's name (`range`, `print`, `True`...)
  };
  Kind kind = Kind::Local;
  size_t index = 0;
  std::string qualifiedName;
  // CompiledFunction: a function of a module the file imports (`from helpers import clamp`);
  // `index` is into ResolvedModule::imported.functions.
  bool imported = false;
};

const char* nameOf(NameBinding::Kind kind); // "parameter", "local", "constant", ...

// The names of one compiled function, resolved.
struct FunctionScope {
  std::vector<std::string> params; // in order, `*args`/`**kwargs` included
  std::vector<std::string> locals; // every other name the body binds, in order of first binding
  // Every Name node of the body (loads and stores) that resolved.
  std::unordered_map<const ast::Name*, NameBinding> names;
  // Attribute chains rooted at an imported module, with their canonical qualified names:
  // the node of `cuda.threadIdx.x` → `numba.cuda.threadIdx.x` (and of `cuda.threadIdx` →
  // `numba.cuda.threadIdx`).
  std::unordered_map<const ast::Attribute*, std::string> apiAttributes;
  // `helpers.clamp` of an imported module of the user's: the function's binding (imported).
  std::unordered_map<const ast::Attribute*, NameBinding> moduleFunctions;
  // Every name or attribute chain that denotes a numba intrinsic (`cuda.syncthreads`, `math.pi`,
  // `range`), resolved to its enum: what typing, code generation and the analyses switch on.
  std::unordered_map<const ast::Expr*, Intrinsic> intrinsics;
  // The SSA versions of the parameters and locals (numba types each version on its own).
  LocalVersions versions;

  // The name of a variable (LocalVersions' numbering: the parameters, then the locals).
  const std::string& variableName(VariableId v) const {
    return v < params.size() ? params[v] : locals[v - params.size()];
  }
  bool isParameter(VariableId v) const { return v < params.size(); }
};

// The qualified name an API reference resolved to (`numba.cuda.grid` for `cuda.grid`, `range`
// for the builtin), or "" when `e` is not a name or attribute chain of a module or builtin.
std::string qualifiedApiName(const FunctionScope& scope, const ast::Expr* e);

// The intrinsic `e` denotes (a name or attribute chain resolved to one), or Intrinsic::None.
Intrinsic intrinsicOf(const FunctionScope& scope, const ast::Expr* e);

// The scalar type `e` names as a type object (`float32`, `numba.int64`, `np.float32`): a cast
// when called, a dtype as an argument; nullopt when `e` is not one.
std::optional<ScalarKind> scalarTypeObject(const FunctionScope& scope, const ast::Expr* e);

} // namespace pyk::sema
