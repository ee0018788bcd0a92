// UntypedChecks: argument counts and non-values as operands, checked without types.
#include "sema/resolve/UntypedChecks.h"

#include <optional>
#include <string>

#include "sema/catalog/Intrinsic.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/resolve/DottedName.h"
#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

namespace {

class UntypedChecker {
public:
  UntypedChecker(const CompiledFunction& function, const std::vector<CompiledFunction>& functions,
                 const ImportedNames& imported, DiagnosticEngine& diags)
      : function_(function), functions_(functions), imported_(imported), diags_(diags) {}

  void run() {
    auto* body = const_cast<ast::FunctionDef*>(function_.def);
    walkScope(body->body, [&](ast::Node* node) {
      visit(node);
      return true;
    });
  }

private:
  void visit(const ast::Node* node) {
    if (const auto* call = node->as<ast::Call>())
      checkCall(*call);
    else if (const auto* b = node->as<ast::BinOp>()) {
      checkOperand(b->left, ast::toString(b->op));
      checkOperand(b->right, ast::toString(b->op));
    } else if (const auto* u = node->as<ast::UnaryOp>()) {
      if (u->op != ast::UnaryOpKind::Not) // `not f` is Python's truth of an object
        checkOperand(u->operand, ast::toString(u->op));
    } else if (const auto* a = node->as<ast::AugAssign>()) {
      checkOperand(a->value, std::string(ast::toString(a->op)) + "=");
    } else if (const auto* c = node->as<ast::Compare>()) {
      // `is` compares any two objects; the others need values.
      for (size_t i = 0; i < c->ops.size(); ++i) {
        if (c->ops[i] == ast::CmpOpKind::Is || c->ops[i] == ast::CmpOpKind::IsNot)
          continue;
        if (i == 0)
          checkOperand(c->left, ast::toString(c->ops[i]));
        checkOperand(c->comparators[i], ast::toString(c->ops[i]));
      }
    }
  }

  // What `e` names when it is a function, module or type object rather than a value: "the
  // builtin function `abs`"-style words; nullopt for a value (or anything typing decides).
  std::optional<std::string> nonValue(const ast::Expr* e) const {
    const FunctionScope& scope = function_.scope;
    if (const auto* n = e->as<ast::Name>()) {
      auto it = scope.names.find(n);
      if (it == scope.names.end())
        return std::nullopt;
      const NameBinding& b = it->second;
      if (b.kind == NameBinding::Kind::CompiledFunction)
        return std::string("a device function");
      if (b.kind == NameBinding::Kind::Builtin) {
        const Intrinsic id = intrinsicNamed(b.qualifiedName);
        if (id != Intrinsic::None && intrinsicInfo(id).kind == IntrinsicKind::Function)
          return std::string("a builtin function");
        return std::nullopt;
      }
      if (b.kind == NameBinding::Kind::Api)
        return describeApi(b.qualifiedName);
      return std::nullopt;
    }
    if (const auto* a = e->as<ast::Attribute>()) {
      if (scope.moduleFunctions.count(a) != 0)
        return std::string("a device function");
      if (auto it = scope.apiAttributes.find(a); it != scope.apiAttributes.end())
        return describeApi(it->second);
    }
    return std::nullopt;
  }

  static std::optional<std::string> describeApi(const std::string& qualified) {
    const std::optional<ApiEntity> entity = lookupApi(qualified);
    if (!entity)
      return std::nullopt;
    switch (entity->kind) {
    case ApiKind::Module:
    case ApiKind::OpaqueModule:
      return std::string("a module");
    case ApiKind::DeviceFunction:
    case ApiKind::HostFunction:
    case ApiKind::Decorator:
      return std::string("a function");
    case ApiKind::Type:
    case ApiKind::TypeConstructor:
      return std::string("a type");
    case ApiKind::DeviceValue:
    case ApiKind::Constant:
      return std::nullopt;
    }
    return std::nullopt;
  }

  void checkOperand(const ast::Expr* e, const std::string& op) {
    if (std::optional<std::string> what = nonValue(e))
      diags_.report(DiagKind::OperandNotAValue, e->range, {dottedName(e), *what, op});
  }

  void checkCall(const ast::Call& call) {
    for (const ast::Expr* arg : call.args)
      if (arg->is<ast::Starred>())
        return; // `f(*t)`: counted when typed
    for (const ast::Keyword& k : call.keywords)
      if (k.arg.empty())
        return; // `f(**d)`
    const size_t positional = call.args.size();
    const size_t given = positional + call.keywords.size();
    const FunctionScope& scope = function_.scope;
    const Intrinsic id = intrinsicOf(scope, call.func);
    if (id != Intrinsic::None) {
      const IntrinsicInfo& info = intrinsicInfo(id);
      // Array constructors take keywords and numba-cuda's `alignment`, which their typing checks;
      // a call with keywords is left to typing too (which names each).
      if ((info.kind != IntrinsicKind::Function && info.kind != IntrinsicKind::Library) ||
          familyOf(info.typing) == IntrinsicFamily::Memory || !call.keywords.empty())
        return;
      const bool tooMany = info.maxArgs >= 0 && static_cast<int>(given) > info.maxArgs;
      const bool tooFew = static_cast<int>(given) < info.minArgs;
      if (tooMany || tooFew)
        report(call, std::string(info.shortName()), countText(info.minArgs, info.maxArgs), given);
      return;
    }
    const CompiledFunction* callee = calleeOf(call.func);
    if (callee == nullptr || callee->def == nullptr || callee->def->args.vararg ||
        !callee->def->args.kwonlyargs.empty())
      return;
    const ast::Arguments& params = callee->def->args;
    const int total = static_cast<int>(params.posonlyargs.size() + params.args.size());
    const int required = total - static_cast<int>(params.defaults.size());
    if (static_cast<int>(given) > total || static_cast<int>(given) < required)
      report(call, callee->name, countText(required, total), given);
  }

  const CompiledFunction* calleeOf(const ast::Expr* func) const {
    const FunctionScope& scope = function_.scope;
    const NameBinding* b = nullptr;
    if (const auto* n = func->as<ast::Name>()) {
      auto it = scope.names.find(n);
      if (it != scope.names.end())
        b = &it->second;
    } else if (const auto* a = func->as<ast::Attribute>()) {
      auto it = scope.moduleFunctions.find(a);
      if (it != scope.moduleFunctions.end())
        b = &it->second;
    }
    if (b == nullptr || b->kind != NameBinding::Kind::CompiledFunction)
      return nullptr;
    if (b->imported)
      return b->index < imported_.functions.size() ? imported_.functions[b->index] : nullptr;
    return b->index < functions_.size() ? &functions_[b->index] : nullptr;
  }

  static std::string countText(int min, int max) {
    if (max == min)
      return std::to_string(min);
    if (max < 0)
      return "at least " + std::to_string(min);
    return std::to_string(min) + " to " + std::to_string(max);
  }

  void report(const ast::Call& call, const std::string& name, const std::string& takes,
              size_t given) {
    diags_.report(DiagKind::TypeArity, call.range, {name, takes, std::to_string(given)});
  }

  const CompiledFunction& function_;
  const std::vector<CompiledFunction>& functions_;
  const ImportedNames& imported_;
  DiagnosticEngine& diags_;
};

} // namespace

void checkUntyped(const CompiledFunction& function, const std::vector<CompiledFunction>& functions,
                  const ImportedNames& imported, DiagnosticEngine& diags) {
  UntypedChecker(function, functions, imported, diags).run();
}

} // namespace pyk::sema
