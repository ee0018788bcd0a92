// ModuleSymbolTable: the module's top-level names and what each is bound to (an import, a folded
// constant, a host value, a compiled function, a plain Python function or a class).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "diag/Diagnostic.h"
#include "diag/SourceLocation.h"
#include "sema/fold/ConstantValue.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// `import numpy as np` binds `np` to `numpy`; `from numba import cuda` binds `cuda` to
// `numba.cuda`; `from math import sqrt` binds `sqrt` to `math.sqrt`.
struct ImportBinding {
  std::string name;          // the bound name
  std::string qualifiedName; // canonical (ModuleApiCatalog's spelling)
  SourceRange range;         // the alias in the import statement
  // A name from a module of the user's that device code cannot use, and why (completes
  // "`name` comes from module `M`, which ..." or "`name` of module `M` ..."): set by resolution.
  std::string userModule;
  std::string unusable;
  bool memberProblem = false;               // the member, not the module, is at fault
  std::vector<Diagnostic> userModuleErrors; // the module's own errors, reported with it
  // `from helpers import clamp`: clamp's index in ResolvedModule::imported.functions.
  std::optional<size_t> importedFunction;
};

struct ModuleConstant {
  std::string name;
  ConstantValue value;
  SourceRange range; // the assignment
};

// A top-level name whose value is only known when the script runs (or is not a value numba can
// freeze): `rng = np.random.default_rng()`, a name assigned twice, a plain function, a class.
struct HostValue {
  std::string name;
  std::string reason; // completes "`name` is not a compile-time constant: <reason>"
  SourceRange range;
};

enum class ModuleSymbolKind : uint8_t {
  Import,
  Constant,
  HostValue,
  CompiledFunction, // index into ResolvedModule::functions
  HostFunction,     // a plain (or CPU-jitted) Python function; index into hostValues
  Class,            // index into hostValues
};

struct ModuleSymbol {
  std::string name;
  ModuleSymbolKind kind = ModuleSymbolKind::HostValue;
  size_t index = 0; // into the vector of its kind
};

class ModuleSymbolTable {
public:
  const ModuleSymbol* find(std::string_view name) const;
  // Binds (or rebinds) a name.
  void bindImport(ImportBinding binding);
  void bindConstant(ModuleConstant constant);
  void bindHostValue(HostValue value, ModuleSymbolKind kind = ModuleSymbolKind::HostValue);
  void bindCompiledFunction(const std::string& name, size_t functionIndex);

  const std::vector<ImportBinding>& imports() const { return imports_; }
  const std::vector<ModuleConstant>& constants() const { return constants_; }
  const std::vector<HostValue>& hostValues() const { return hostValues_; }
  // Every bound name, in binding order (for did-you-mean).
  std::vector<std::string> names() const;

  const ImportBinding* importNamed(std::string_view name) const;
  const ModuleConstant* constantNamed(std::string_view name) const;

  // The expression a name is assigned once, by a plain top-level `name = value` (whether or not
  // it folded): a decorator reads a signature kept in a variable through it
  // (`sig = (float32[:], int32)`, `@cuda.jit(sig)`). Null for any other name.
  void recordAssignment(const std::string& name, const ast::Expr* value) {
    assignments_[name] = value;
  }
  const ast::Expr* assignedExpression(const std::string& name) const {
    auto it = assignments_.find(name);
    return it == assignments_.end() ? nullptr : it->second;
  }

private:
  void bind(const std::string& name, ModuleSymbolKind kind, size_t index);

  std::vector<ImportBinding> imports_;
  std::vector<ModuleConstant> constants_;
  std::vector<HostValue> hostValues_;
  std::vector<std::string> order_;
  std::unordered_map<std::string, ModuleSymbol> symbols_;
  std::unordered_map<std::string, const ast::Expr*> assignments_;
};

// The canonical qualified name an expression denotes when it is a name bound by an import, or
// an attribute chain rooted at one: `np.float32` → `numpy.float32`, `cuda.threadIdx.x` →
// `numba.cuda.threadIdx.x`. Only the table's bindings are consulted (no locals).
std::optional<std::string> importedQualifiedName(const ast::Expr* expr,
                                                 const ModuleSymbolTable& symbols);

} // namespace pyk::sema
