// InnerFunctions: see InnerFunctions.h.
#include "sema/resolve/InnerFunctions.h"

#include <algorithm>

#include "sema/resolve/EnclosingScope.h"

namespace pyk::sema {

void defineInnerFunctions(ResolvedModule& result, DiagnosticEngine& diags,
                          const std::function<bool(const ast::FunctionDef&)>& decorated) {
  // By index: the functions defined here are appended, and their own inner functions are found
  // when the loop reaches them.
  for (size_t i = 0; i < result.functions.size(); ++i) {
    const CompiledFunction& f = result.functions[i];
    if (f.def == nullptr || f.library != nullptr || f.cpuJit ||
        (f.kind != CompiledFunctionKind::Kernel && f.kind != CompiledFunctionKind::DeviceFunction))
      continue;
    const auto& body = f.def->body;
    if (std::none_of(body.begin(), body.end(), [&](const ast::Stmt* s) {
          const auto* def = s->as<ast::FunctionDef>();
          return def != nullptr && !decorated(*def);
        }))
      continue;
    std::vector<const ast::FunctionDef*> chain = f.enclosingDefs;
    chain.push_back(f.def);
    const std::unordered_map<std::string, std::string> outer = f.enclosingNames;
    std::vector<size_t> made;
    std::unordered_map<std::string, std::string> inner;
    const std::unordered_map<std::string, std::string> names = bindEnclosingScope(
        chain, result.symbols, diags, outer,
        [&](const ast::FunctionDef& def, const std::string& hidden) {
          if (decorated(def))
            return; // KernelLanguageChecker reports it
          CompiledFunction function;
          function.name = def.name;
          function.def = &def;
          function.kind = CompiledFunctionKind::DeviceFunction;
          function.decoratorRange = def.nameRange;
          function.lazy = true;
          function.options.device = true;
          function.qualifiedName = hidden;
          result.functions.push_back(std::move(function));
          result.symbols.bindCompiledFunction(hidden, result.functions.size() - 1);
          made.push_back(result.functions.size() - 1);
          inner[def.name] = hidden;
        },
        " (pyk compiles a function defined inside a kernel or device function with that "
        "function's constants: a closure over its other variables is not supported yet)");
    for (size_t index : made) {
      result.functions[index].enclosingNames = names;
      result.functions[index].enclosingDefs = chain;
    }
    result.functions[i].innerFunctions = std::move(inner);
  }
}

} // namespace pyk::sema
