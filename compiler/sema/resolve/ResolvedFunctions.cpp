// ResolvedFunctions: what resolution does with the compiled functions once the module's
// statements are bound (ModuleResolver): see the header.
#include "sema/resolve/ResolvedFunctions.h"

#include <set>

#include "sema/resolve/ConstantArguments.h"
#include "sema/resolve/KernelLanguageChecker.h"
#include "sema/resolve/NameResolver.h"
#include "sema/resolve/UntypedChecks.h"

namespace pyk::sema {

void markShadowed(ResolvedModule& result) {
  for (size_t i = 0; i < result.functions.size(); ++i) {
    const ModuleSymbol* symbol = result.symbols.find(result.functions[i].qualifiedName);
    result.functions[i].shadowed = symbol == nullptr ||
                                   symbol->kind != ModuleSymbolKind::CompiledFunction ||
                                   symbol->index != i;
  }
}

void addDeviceTwins(ResolvedModule& result, bool imported) {
  const size_t n = result.functions.size();
  std::set<std::string> mentioned;
  for (const CompiledFunction& f : result.functions)
    ast::forEachNode(f.def, [&](const ast::Node* node) {
      if (const auto* name = node->as<ast::Name>())
        mentioned.insert(name->id);
    });
  for (size_t i = 0; i < n; ++i) {
    const CompiledFunction& kernel = result.functions[i];
    if (kernel.kind != CompiledFunctionKind::Kernel || kernel.shadowed ||
        kernel.decoratorHasErrors || kernel.library != nullptr ||
        (!mentioned.count(kernel.name) && !imported)) // the importer's code may call any
      continue;
    CompiledFunction twin;
    twin.name = kernel.name;
    twin.def = kernel.def;
    twin.kind = CompiledFunctionKind::DeviceFunction;
    twin.decoratorName = kernel.decoratorName;
    twin.decoratorRange = kernel.decoratorRange;
    twin.lazy = true;
    twin.options = kernel.options;
    twin.qualifiedName = kernel.qualifiedName;
    twin.enclosingNames = kernel.enclosingNames;
    twin.enclosingDefs = kernel.enclosingDefs;
    twin.innerFunctions = kernel.innerFunctions;
    twin.kernelOf = i;
    result.functions[i].deviceTwin = result.functions.size();
    result.functions.push_back(std::move(twin));
  }
}

void resolveCpuJitFunctions(ResolvedModule& result, DiagnosticEngine& diags) {
  const size_t n = result.functions.size();
  std::vector<DiagnosticEngine> held(n, DiagnosticEngine(diags.file()));
  for (size_t i = 0; i < n; ++i) {
    if (!result.functions[i].calledAsDevice())
      continue;
    NameResolver quiet(result.symbols, result.functions, held[i], &result.imported);
    quiet.resolve(result.functions[i]);
    checkKernelLanguage(result.functions[i], held[i]);
    checkUntyped(result.functions[i], result.functions, result.imported, held[i]);
    checkConstantArguments(result.functions[i], result.symbols, held[i]);
  }
  std::vector<bool> reached(n, false);
  std::vector<size_t> pending;
  for (size_t i = 0; i < n; ++i)
    if (!result.functions[i].calledAsDevice())
      pending.push_back(i);
  while (!pending.empty()) {
    const size_t j = pending.back();
    pending.pop_back();
    for (const auto& [name, binding] : result.functions[j].scope.names) {
      const size_t k = binding.index;
      if (binding.kind != NameBinding::Kind::CompiledFunction || binding.imported || k >= n ||
          !result.functions[k].calledAsDevice() || reached[k])
        continue;
      reached[k] = true;
      // A kernel's device twin: the kernel's own resolution reported what is wrong in the body.
      if (!result.functions[k].kernelOf)
        for (const Diagnostic& d : held[k].diagnostics())
          diags.add(d);
      pending.push_back(k);
    }
  }
}

} // namespace pyk::sema
