// ResolvedModule: the result of resolution for one file: the module's top-level names (imports,
// folded constants, host values) and the functions numba compiles, with their names resolved.
#pragma once

#include <string_view>
#include <vector>

#include "sema/CompiledFunction.h"
#include "sema/ModuleSymbolTable.h"

namespace pyk::sema {

struct ResolvedModule {
  ModuleSymbolTable symbols;
  std::vector<CompiledFunction> functions; // source order

  // The function a name is bound to (the last definition, as in Python).
  const CompiledFunction* function(std::string_view name) const {
    for (const CompiledFunction& f : functions)
      if (f.name == name && !f.shadowed)
        return &f;
    return nullptr;
  }
  const ModuleConstant* constant(std::string_view name) const {
    return symbols.constantNamed(name);
  }
};

} // namespace pyk::sema
