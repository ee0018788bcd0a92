// FunctionConstants: a function's names as constants (numba's literal types; see the header).
#include "sema/fold/FunctionConstants.h"

#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

ConstantFolder::LocalNames functionLocalNames(const Specialization& spec, ConstantFolder& folder) {
  const ModuleSymbolTable& symbols = folder.symbols();
  return [&spec, &folder, &symbols](const ast::Name* n) -> std::optional<FoldResult> {
    const FunctionScope& scope = spec.function->scope;
    auto it = scope.names.find(n);
    if (it == scope.names.end())
      return std::nullopt;
    const NameBinding::Kind kind = it->second.kind;
    if (kind == NameBinding::Kind::ModuleConstant) // by the binding: an enclosing function's too
      return FoldResult::constant(symbols.constants()[it->second.index].value);
    if (kind != NameBinding::Kind::Parameter && kind != NameBinding::Kind::Local)
      return std::nullopt; // the module's imports and builtins
    const size_t v = scope.versions.ofNameOr(n);
    if (v != kNoVersion) {
      const LocalVersion& version = scope.versions.versions[v];
      if (version.kind == LocalVersion::Kind::Entry && version.variable < spec.literals.size() &&
          spec.literals[version.variable])
        return FoldResult::constant(*spec.literals[version.variable]);
      // A version made by `name = value` folds as its value (which reads earlier versions only).
      if (version.kind == LocalVersion::Kind::Def && version.value != nullptr) {
        FoldResult r = folder.fold(version.value);
        if (r.isConstant())
          return r;
      }
    }
    return FoldResult::notConstant("`" + n->id + "` is a variable of the function");
  };
}

std::optional<ConstantValue> enumMember(const FunctionScope& scope,
                                        const ModuleSymbolTable& symbols, const ast::Expr* e) {
  const ast::Expr* base = nullptr;
  std::string name;
  if (const auto* a = e->as<ast::Attribute>()) {
    base = a->value;
    name = a->attr;
  } else if (const auto* s = e->as<ast::Subscript>()) {
    const auto* key = s->slice->as<ast::Constant>();
    if (key == nullptr || key->valueKind != ast::ConstantKind::Str)
      return std::nullopt;
    base = s->value;
    name = key->strValue;
  } else {
    return std::nullopt;
  }
  const auto* n = base->as<ast::Name>();
  if (n == nullptr)
    return std::nullopt;
  auto it = scope.names.find(n);
  if (it == scope.names.end() || it->second.kind != NameBinding::Kind::ModuleConstant)
    return std::nullopt;
  const ConstantValue& cls = symbols.constants()[it->second.index].value;
  if (cls.kind == ConstantValue::Kind::Module && !e->is<ast::Attribute>())
    return std::nullopt; // a module is not subscripted
  if (const ConstantValue* member = cls.member(name))
    return *member; // an enum's member, or a constant of an imported module (`config.TPB`)
  return std::nullopt;
}

const ConstantValue* enumClassOfMember(const FunctionScope& scope, const ModuleSymbolTable& symbols,
                                       const ast::Expr* e) {
  if (!enumMember(scope, symbols, e))
    return nullptr;
  const ast::Expr* base =
      e->is<ast::Attribute>() ? e->as<ast::Attribute>()->value : e->as<ast::Subscript>()->value;
  const ConstantValue& cls = symbols.constants()[scope.names.at(base->as<ast::Name>()).index].value;
  return cls.kind == ConstantValue::Kind::EnumClass ? &cls : nullptr;
}

std::optional<ConstantValue> foreignFunctionOf(const FunctionScope& scope,
                                               const ModuleSymbolTable& symbols,
                                               const ast::Expr* callee) {
  std::optional<ConstantValue> v;
  if (const auto* n = callee->as<ast::Name>()) {
    auto it = scope.names.find(n);
    if (it != scope.names.end() && it->second.kind == NameBinding::Kind::ModuleConstant)
      v = symbols.constants()[it->second.index].value;
  } else if (callee->is<ast::Attribute>()) {
    v = enumMember(scope, symbols, callee); // `helpers.mul`: a member of an imported module
  }
  if (v && v->kind == ConstantValue::Kind::ForeignFunction)
    return v;
  return std::nullopt;
}

std::vector<bool> parametersNeedingConstants(const CompiledFunction& function) {
  const FunctionScope& scope = function.scope;
  std::vector<bool> needs(scope.params.size(), false);
  auto markNamesIn = [&](const ast::Expr* e) {
    if (e == nullptr)
      return;
    walkScope(const_cast<ast::Expr*>(e), [&](ast::Node* node) {
      if (const auto* n = node->as<ast::Name>()) {
        auto it = scope.names.find(n);
        if (it != scope.names.end() && it->second.kind == NameBinding::Kind::Parameter &&
            it->second.index < needs.size())
          needs[it->second.index] = true;
      }
      return true;
    });
  };
  walkScope(const_cast<ast::FunctionDef*>(function.def)->body, [&](ast::Node* node) {
    const auto* c = node->as<ast::Call>();
    if (c == nullptr)
      return true;
    auto it = scope.intrinsics.find(c->func);
    if (it == scope.intrinsics.end())
      return true;
    const IntrinsicTyping typing = intrinsicInfo(it->second).typing;
    if (typing == IntrinsicTyping::ArrayConstructor) {
      markNamesIn(c->args.empty() ? nullptr : c->args[0]);
      for (const ast::Keyword& k : c->keywords)
        if (k.arg == "shape")
          markNamesIn(k.value);
    } else if (typing == IntrinsicTyping::GridIndex) {
      markNamesIn(c->args.empty() ? nullptr : c->args[0]);
    }
    return true;
  });
  return needs;
}

} // namespace pyk::sema
