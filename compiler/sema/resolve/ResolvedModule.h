// ResolvedModule: the result of resolution for one file: the module's top-level names (imports,
// folded constants, host values) and the functions numba compiles, with their names resolved.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "sema/resolve/CompiledFunction.h"
#include "sema/resolve/ModuleSymbolTable.h"

namespace pyk::sema {

// The modules of the user's a file imports (resolve/UserModules.h), kept alive with it, and the
// functions of theirs its code names (an imported NameBinding indexes `functions`).
struct ImportedNames {
  std::vector<std::shared_ptr<const LibraryModule>> modules;
  std::vector<const CompiledFunction*> functions;

  size_t indexOf(const CompiledFunction* f) {
    for (size_t i = 0; i < functions.size(); ++i)
      if (functions[i] == f)
        return i;
    functions.push_back(f);
    return functions.size() - 1;
  }
};

struct ResolvedModule {
  ModuleSymbolTable symbols;
  std::vector<CompiledFunction> functions; // source order
  ImportedNames imported;

  // What device code calls for `f`, one of `functions`: a device function itself, a kernel's
  // device twin (numba-cuda's dialect); null for a ufunc.
  const CompiledFunction* deviceCallable(const CompiledFunction& f) const {
    if (f.kind == CompiledFunctionKind::DeviceFunction)
      return &f;
    return f.deviceTwin ? &functions[*f.deviceTwin] : nullptr;
  }
  // The function a CompiledFunction binding names: this module's, or an imported module's.
  const CompiledFunction& functionOf(const NameBinding& binding) const {
    return binding.imported ? *imported.functions[binding.index] : functions[binding.index];
  }

  // The function a name is bound to at module level (the last definition, as in Python); else a
  // function defined inside a function, by its qualified name (`make.<locals>.k`) or by its own
  // name where no other has it. Null when none is, or the name is ambiguous.
  const CompiledFunction* function(std::string_view name) const {
    for (const CompiledFunction& f : functions)
      if (f.name == name && !f.shadowed && !f.nested())
        return &f;
    const CompiledFunction* found = nullptr;
    for (const CompiledFunction& f : functions) {
      if (!f.nested() || f.shadowed)
        continue;
      if (f.qualifiedName == name)
        return &f;
      if (f.name == name) {
        if (found != nullptr)
          return nullptr;
        found = &f;
      }
    }
    return found;
  }
  const ModuleConstant* constant(std::string_view name) const {
    return symbols.constantNamed(name);
  }
};

} // namespace pyk::sema
