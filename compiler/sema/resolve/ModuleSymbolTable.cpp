// ModuleSymbolTable: the module's top-level names and what each is bound to (an import, a folded
// constant, a host value, a compiled function, a plain Python function or a class).
#include "sema/resolve/ModuleSymbolTable.h"

#include "sema/catalog/ModuleApiCatalog.h"

namespace pyk::sema {

const ModuleSymbol* ModuleSymbolTable::find(std::string_view name) const {
  auto it = symbols_.find(std::string(name));
  return it == symbols_.end() ? nullptr : &it->second;
}

void ModuleSymbolTable::bind(const std::string& name, ModuleSymbolKind kind, size_t index) {
  if (symbols_.find(name) == symbols_.end())
    order_.push_back(name);
  symbols_[name] = ModuleSymbol{name, kind, index};
}

void ModuleSymbolTable::bindImport(ImportBinding binding) {
  std::string name = binding.name;
  imports_.push_back(std::move(binding));
  bind(name, ModuleSymbolKind::Import, imports_.size() - 1);
}

void ModuleSymbolTable::bindConstant(ModuleConstant constant) {
  std::string name = constant.name;
  constants_.push_back(std::move(constant));
  bind(name, ModuleSymbolKind::Constant, constants_.size() - 1);
}

void ModuleSymbolTable::bindHostValue(HostValue value, ModuleSymbolKind kind) {
  std::string name = value.name;
  hostValues_.push_back(std::move(value));
  bind(name, kind, hostValues_.size() - 1);
}

void ModuleSymbolTable::bindCompiledFunction(const std::string& name, size_t functionIndex) {
  bind(name, ModuleSymbolKind::CompiledFunction, functionIndex);
}

std::vector<std::string> ModuleSymbolTable::names() const {
  return order_;
}

const ImportBinding* ModuleSymbolTable::importNamed(std::string_view name) const {
  const ModuleSymbol* s = find(name);
  return s != nullptr && s->kind == ModuleSymbolKind::Import ? &imports_[s->index] : nullptr;
}

const ModuleConstant* ModuleSymbolTable::constantNamed(std::string_view name) const {
  const ModuleSymbol* s = find(name);
  return s != nullptr && s->kind == ModuleSymbolKind::Constant ? &constants_[s->index] : nullptr;
}

std::optional<std::string> importedQualifiedName(const ast::Expr* expr,
                                                 const ModuleSymbolTable& symbols) {
  if (const auto* name = expr->as<ast::Name>()) {
    if (const ImportBinding* binding = symbols.importNamed(name->id))
      return binding->qualifiedName;
    return std::nullopt;
  }
  if (const auto* attribute = expr->as<ast::Attribute>()) {
    std::optional<std::string> base = importedQualifiedName(attribute->value, symbols);
    if (!base)
      return std::nullopt;
    return canonicalApiName(*base + "." + attribute->attr);
  }
  return std::nullopt;
}

} // namespace pyk::sema
