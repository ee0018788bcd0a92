// NameBinding: what a name used inside a compiled function refers to, and the per-function table
// of those bindings (FunctionScope).
#include "sema/resolve/NameBinding.h"

#include "sema/catalog/ModuleApiCatalog.h"

namespace pyk::sema {

const char* nameOf(NameBinding::Kind kind) {
  switch (kind) {
  case NameBinding::Kind::Parameter:
    return "parameter";
  case NameBinding::Kind::Local:
    return "local";
  case NameBinding::Kind::ModuleConstant:
    return "constant";
  case NameBinding::Kind::CompiledFunction:
    return "device function";
  case NameBinding::Kind::Api:
    return "api";
  case NameBinding::Kind::Builtin:
    return "builtin";
  }
  return "?";
}

std::string qualifiedApiName(const FunctionScope& scope, const ast::Expr* e) {
  if (const auto* n = e->as<ast::Name>()) {
    auto it = scope.names.find(n);
    if (it != scope.names.end() && (it->second.kind == NameBinding::Kind::Api ||
                                    it->second.kind == NameBinding::Kind::Builtin))
      return it->second.qualifiedName;
    return "";
  }
  if (const auto* a = e->as<ast::Attribute>()) {
    auto it = scope.apiAttributes.find(a);
    if (it != scope.apiAttributes.end())
      return it->second;
  }
  return "";
}

Intrinsic intrinsicOf(const FunctionScope& scope, const ast::Expr* e) {
  auto it = scope.intrinsics.find(e);
  return it == scope.intrinsics.end() ? Intrinsic::None : it->second;
}

std::optional<ScalarKind> scalarTypeObject(const FunctionScope& scope, const ast::Expr* e) {
  const std::string api = qualifiedApiName(scope, e);
  const ApiEntity* entity = api.empty() ? nullptr : findApi(api);
  if (entity == nullptr || entity->kind != ApiKind::Type || !entity->type.isScalar())
    return std::nullopt;
  return entity->type.scalarKind();
}

} // namespace pyk::sema
