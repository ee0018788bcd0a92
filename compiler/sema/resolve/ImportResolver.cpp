// ImportResolver: the names an import statement binds and the qualified names they stand for
// (`import numpy as np` → np = numpy; `from numba import cuda` → cuda = numba.cuda).
#include "sema/resolve/ImportResolver.h"

#include "sema/catalog/ModuleApiCatalog.h"

namespace pyk::sema {

namespace {

ImportBinding binding(std::string name, std::string qualifiedName, SourceRange range) {
  ImportBinding b;
  b.name = std::move(name);
  b.qualifiedName = std::move(qualifiedName);
  b.range = range;
  return b;
}

} // namespace

std::vector<ImportBinding> importBindings(const ast::Stmt& statement) {
  std::vector<ImportBinding> out;
  if (const auto* import = statement.as<ast::Import>()) {
    for (const ast::Alias& alias : import->names) {
      if (!alias.asname.empty()) {
        out.push_back(binding(alias.asname, canonicalApiName(alias.name), alias.range));
      } else {
        std::string root = alias.name.substr(0, alias.name.find('.'));
        out.push_back(binding(root, root, alias.range));
      }
    }
    return out;
  }
  if (const auto* from = statement.as<ast::ImportFrom>()) {
    std::string module = std::string(static_cast<size_t>(from->level), '.') + from->module;
    std::string canonicalModule = from->level == 0 ? canonicalApiName(module) : module;
    for (const ast::Alias& alias : from->names) {
      if (alias.name == "*") {
        if (from->level == 0 && isCatalogedModule(canonicalModule))
          for (const std::string& member : apiMembers(canonicalModule))
            out.push_back(
                binding(member, canonicalApiName(canonicalModule + "." + member), alias.range));
        continue;
      }
      std::string qualified =
          canonicalModule + (canonicalModule.ends_with(".") ? "" : ".") + alias.name;
      if (from->level == 0)
        qualified = canonicalApiName(qualified);
      out.push_back(
          binding(alias.asname.empty() ? alias.name : alias.asname, qualified, alias.range));
    }
  }
  return out;
}

bool bindFfiInstance(const std::string& name, const ast::Expr* value, SourceRange at,
                     ModuleSymbolTable& symbols) {
  const auto* call = value != nullptr ? value->as<ast::Call>() : nullptr;
  if (call == nullptr || !call->args.empty() || !call->keywords.empty() ||
      importedQualifiedName(call->func, symbols) != "cffi.FFI")
    return false;
  ImportBinding ffi;
  ffi.name = name;
  ffi.qualifiedName = "cffi.ffi";
  ffi.range = at;
  symbols.bindImport(std::move(ffi));
  return true;
}

} // namespace pyk::sema
