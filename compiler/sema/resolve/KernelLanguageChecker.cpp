// KernelLanguageChecker: reports the Python constructs numba.cuda cannot compile in a kernel,
// device function or ufunc body (classes, list/dict/set displays, comprehensions, generators,
// lambdas, try, with, imports, nested functions, strings outside print/assert, ...).
#include "sema/resolve/KernelLanguageChecker.h"

#include <set>

#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

namespace {

bool isStrConstant(const ast::Expr* e) {
  const auto* c = e != nullptr ? e->as<ast::Constant>() : nullptr;
  return c != nullptr && c->valueKind == ast::ConstantKind::Str;
}

class LanguageChecker {
public:
  LanguageChecker(const CompiledFunction& function, DiagnosticEngine& diags)
      : function_(function), diags_(diags), context_(pluralNounOf(function.kind)) {}

  void run() {
    const ast::FunctionDef& def = *function_.def;
    if (def.isAsync)
      unsupported(def.nameRange.valid() ? def.nameRange : def.range, "`async` functions");
    if (def.args.kwarg)
      unsupported(def.args.kwarg->range, "`**kwargs` parameters");
    auto* body = const_cast<ast::FunctionDef*>(&def);
    walkScope(body->body, [&](ast::Node* node) {
      markAllowedStrings(node);
      return true;
    });
    walkScope(body->body, [&](ast::Node* node) { return check(node); });
  }

private:
  void unsupported(SourceRange range, const char* what) {
    diags_.report(DiagKind::UnsupportedConstruct, range, {what, context_});
  }

  // Strings are fine as print arguments, assert messages, exception arguments, docstrings
  // (and bare string statements), dtype names in cuda.shared/local.array, subscripts (a
  // record's field by name, `r["x"]`; typing rejects them on anything but a record), and (bytes
  // too) values stored in an item or attribute (a record's character field; typing rejects
  // anything else).
  void markAllowedStrings(ast::Node* node) {
    if (const auto* subscript = node->as<ast::Subscript>()) {
      if (isStrConstant(subscript->slice))
        allowed_.insert(subscript->slice);
    } else if (const auto* assign = node->as<ast::Assign>()) {
      // A constant into a record's character field (`r.y = 'ABC'`); typing refuses any other.
      const ast::Expr* v = assign->value;
      const auto* c = v->as<ast::Constant>();
      if (assign->targets.size() == 1 &&
          (assign->targets[0]->is<ast::Attribute>() || assign->targets[0]->is<ast::Subscript>()) &&
          c != nullptr &&
          (c->valueKind == ast::ConstantKind::Str || c->valueKind == ast::ConstantKind::Bytes))
        allowed_.insert(v);
    } else if (const auto* stmt = node->as<ast::ExprStmt>()) {
      if (isStrConstant(stmt->value))
        allowed_.insert(stmt->value);
    } else if (const auto* assertion = node->as<ast::Assert>()) {
      if (isStrConstant(assertion->msg))
        allowed_.insert(assertion->msg);
    } else if (const auto* raise = node->as<ast::Raise>()) {
      if (const auto* call = raise->exc != nullptr ? raise->exc->as<ast::Call>() : nullptr)
        for (const ast::Expr* arg : call->args)
          if (isStrConstant(arg))
            allowed_.insert(arg);
    } else if (const auto* call = node->as<ast::Call>()) {
      if (isPrint(call->func)) {
        for (const ast::Expr* arg : call->args)
          if (isStrConstant(arg))
            allowed_.insert(arg);
      } else if (isArrayConstructor(call->func)) {
        if (call->args.size() >= 2 && isStrConstant(call->args[1]))
          allowed_.insert(call->args[1]);
        for (const ast::Keyword& k : call->keywords)
          if (k.arg == "dtype" && isStrConstant(k.value))
            allowed_.insert(k.value);
      }
    }
  }

  bool isPrint(const ast::Expr* func) const {
    return func->is<ast::Name>() && intrinsicOf(function_.scope, func) == Intrinsic::Print;
  }

  bool isArrayConstructor(const ast::Expr* func) const {
    const Intrinsic id =
        func->is<ast::Attribute>() ? intrinsicOf(function_.scope, func) : Intrinsic::None;
    return id == Intrinsic::SharedArray || id == Intrinsic::LocalArray;
  }

  // Reports `node` if it is unsupported; returns whether to look inside it.
  bool check(ast::Node* node) {
    switch (node->kind) {
    case ast::NodeKind::ClassDef:
      unsupported(node->range, "class definitions");
      return false;
    case ast::NodeKind::FunctionDef: // an inner function is checked as a function of its own
      if (!function_.innerFunctions.count(node->as<ast::FunctionDef>()->name))
        unsupported(node->range, "nested function definitions (other than undecorated ones at "
                                 "the top level of the function)");
      return false;
    case ast::NodeKind::Lambda:
      unsupported(node->range, "lambda expressions");
      return false;
    case ast::NodeKind::ListComp:
      unsupported(node->range, "list comprehensions");
      return false;
    case ast::NodeKind::SetComp:
      unsupported(node->range, "set comprehensions");
      return false;
    case ast::NodeKind::DictComp:
      unsupported(node->range, "dict comprehensions");
      return false;
    case ast::NodeKind::GeneratorExp:
      unsupported(node->range, "generator expressions");
      return false;
    case ast::NodeKind::List:
      if (node->as<ast::List>()->ctx == ast::ExprContext::Load)
        unsupported(node->range, "list literals");
      return true;
    case ast::NodeKind::Dict:
      unsupported(node->range, "dict literals");
      return true;
    case ast::NodeKind::Set:
      unsupported(node->range, "set literals");
      return true;
    case ast::NodeKind::Yield:
      unsupported(node->range, "`yield` expressions (generators)");
      return true;
    case ast::NodeKind::YieldFrom:
      unsupported(node->range, "`yield from` expressions");
      return true;
    case ast::NodeKind::Await:
      unsupported(node->range, "`await` expressions");
      return true;
    case ast::NodeKind::Try:
      unsupported(node->range, "`try` statements");
      return true;
    case ast::NodeKind::With:
      unsupported(node->range,
                  node->as<ast::With>()->isAsync ? "`async with` statements" : "`with` statements");
      return true;
    case ast::NodeKind::For:
      if (node->as<ast::For>()->isAsync)
        unsupported(node->range, "`async for` loops");
      checkStarredTarget(node->as<ast::For>()->target);
      return true;
    case ast::NodeKind::Global:
      unsupported(node->range, "`global` declarations");
      return true;
    case ast::NodeKind::Nonlocal:
      unsupported(node->range, "`nonlocal` declarations");
      return true;
    case ast::NodeKind::Import:
    case ast::NodeKind::ImportFrom:
      unsupported(node->range, "`import` statements");
      return true;
    case ast::NodeKind::Delete:
      unsupported(node->range, "`del` statements");
      return false;
    case ast::NodeKind::Match:
      unsupported(node->range, "`match` statements");
      return false;
    case ast::NodeKind::JoinedStr:
      unsupported(node->range, "f-strings");
      return false;
    case ast::NodeKind::Assign:
      for (const ast::Expr* target : node->as<ast::Assign>()->targets)
        checkStarredTarget(target);
      return true;
    case ast::NodeKind::Return: {
      const auto* ret = node->as<ast::Return>();
      bool none = ret->value == nullptr ||
                  (ret->value->is<ast::Constant>() &&
                   ret->value->as<ast::Constant>()->valueKind == ast::ConstantKind::None);
      // A lazy kernel may return a value: numba-cuda compiles it as a device function where
      // device code calls it, and refuses it only when launched (typing reports it there). One
      // with signatures is compiled as a kernel at once.
      if (function_.kind == CompiledFunctionKind::Kernel && !none &&
          !function_.decoratorHasErrors && !function_.signatures.empty())
        diags_.report(DiagKind::KernelReturnValueInBody, node->range, {});
      return true;
    }
    case ast::NodeKind::Call:
      for (const ast::Keyword& k : node->as<ast::Call>()->keywords)
        if (k.arg.empty())
          unsupported(k.range.valid() ? k.range : k.value->range, "`**` arguments in calls");
      return true;
    case ast::NodeKind::Constant: {
      const auto* c = node->as<ast::Constant>();
      if (c->valueKind == ast::ConstantKind::Bytes && allowed_.count(node) == 0)
        unsupported(node->range, "bytes literals");
      else if (c->valueKind == ast::ConstantKind::Str && allowed_.count(node) == 0)
        diags_.report(DiagKind::StringNotSupported, node->range, {context_});
      return false;
    }
    default:
      return true;
    }
  }

  void checkStarredTarget(const ast::Expr* target) {
    const std::vector<ast::Expr*>* elements = nullptr;
    if (const auto* tuple = target->as<ast::Tuple>())
      elements = &tuple->elts;
    else if (const auto* list = target->as<ast::List>())
      elements = &list->elts;
    if (elements == nullptr)
      return;
    for (const ast::Expr* e : *elements) {
      if (e->is<ast::Starred>())
        unsupported(e->range, "starred assignment targets");
      else
        checkStarredTarget(e);
    }
  }

  const CompiledFunction& function_;
  DiagnosticEngine& diags_;
  std::string context_;
  std::set<const ast::Node*> allowed_;
};

} // namespace

void checkKernelLanguage(const CompiledFunction& function, DiagnosticEngine& diags) {
  LanguageChecker(function, diags).run();
}

} // namespace pyk::sema
