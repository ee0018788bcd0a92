// NameResolver: binds every name in a compiled function's body (parameters, locals, module
// constants, device functions, imported numba/math/numpy API, builtins) and reports the ones device
// code cannot use.
#pragma once

#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/CompiledFunction.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

class NameResolver {
public:
  NameResolver(const ModuleSymbolTable& symbols, const std::vector<CompiledFunction>& functions,
               DiagnosticEngine& diags, ImportedNames* imported = nullptr)
      : symbols_(symbols), functions_(functions), diags_(diags), imported_(imported) {}

  // Fills `function.scope`. Reports unknown names (with a did-you-mean), unknown members of
  // numba.cuda / math / cmath / numpy, host values and host-only API used in device code, plain
  // Python functions called as if they were device functions, and kernels called from device code.
  void resolve(CompiledFunction& function);

private:
  const ModuleSymbolTable& symbols_;
  const std::vector<CompiledFunction>& functions_;
  DiagnosticEngine& diags_;
  ImportedNames* imported_; // the modules of the user's the file imports
};

} // namespace pyk::sema
