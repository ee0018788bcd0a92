// ConstantArguments: array shapes and `cuda.grid`'s rank as numba needs them (see the header).
#include "sema/resolve/ConstantArguments.h"

#include "sema/fold/ConstantFolder.h"
#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

std::optional<std::string> arrayShapeProblem(const ConstantValue& shape, bool shared) {
  // numba 0.56's _generic_array: the element count must be positive, except a shared array's
  // 1-D length 0, which asks for the dynamic shared array (numba takes any length <= 0 so; pyk
  // refuses a negative one, which can only be a mistake).
  if (shape.kind == ConstantValue::Kind::Int) {
    if (shape.intValue > 0 || (shared && shape.intValue == 0))
      return std::nullopt;
    return shared ? "a shared array's length is positive, or 0 for the dynamic shared array"
                  : "a local array's length is positive";
  }
  if (shape.kind != ConstantValue::Kind::Tuple || shape.elements.empty())
    return "it is not an integer or a tuple of integers";
  for (const ConstantValue& e : shape.elements) {
    if (e.kind != ConstantValue::Kind::Int)
      return "it is not an integer or a tuple of integers";
    if (e.intValue <= 0)
      return "every extent of a multi-dimensional array is positive (only a 1-D shared array "
             "of length 0 is dynamic)";
  }
  return std::nullopt;
}

namespace {

class ConstantArgumentChecker {
public:
  ConstantArgumentChecker(const CompiledFunction& function, const ModuleSymbolTable& symbols,
                          DiagnosticEngine& diags)
      : function_(function), symbols_(symbols), diags_(diags) {}

  void run() {
    walkScope(const_cast<ast::FunctionDef*>(function_.def)->body, [&](ast::Node* node) {
      if (const auto* c = node->as<ast::Call>())
        call(c);
      return true;
    });
  }

private:
  void call(const ast::Call* c) {
    auto it = function_.scope.intrinsics.find(c->func);
    if (it == function_.scope.intrinsics.end())
      return;
    const IntrinsicInfo& info = intrinsicInfo(it->second);
    if (info.typing == IntrinsicTyping::ArrayConstructor) {
      const ast::Expr* shape = c->args.empty() ? nullptr : c->args[0];
      for (const ast::Keyword& k : c->keywords)
        if (k.arg == "shape")
          shape = k.value;
      if (shape == nullptr)
        return;
      std::optional<ConstantValue> v = fold(shape, "an array shape");
      if (!v)
        return;
      if (std::optional<std::string> problem =
              arrayShapeProblem(*v, it->second == Intrinsic::SharedArray))
        diags_.report(DiagKind::ArrayShapeInvalid, shape->range, {v->repr(), *problem});
    } else if (info.typing == IntrinsicTyping::GridIndex && !c->args.empty()) {
      std::optional<ConstantValue> v = fold(c->args[0], "the argument of `cuda.grid`");
      if (v && (v->kind != ConstantValue::Kind::Int || v->intValue < 1 || v->intValue > 3))
        diags_.report(DiagKind::GridRankInvalid, c->args[0]->range,
                      {std::string(info.name), v->repr()});
    }
  }

  // The constant `e` folds to; nullopt when it does not (reported, unless a parameter of a device
  // function is in it: a call may give that a constant).
  std::optional<ConstantValue> fold(const ast::Expr* e, const char* what) {
    bool deviceParameter = false;
    DiagnosticEngine quiet;
    ConstantFolder folder(symbols_, quiet);
    folder.setLocalNames([&](const ast::Name* n) -> std::optional<FoldResult> {
      auto b = function_.scope.names.find(n);
      if (b == function_.scope.names.end())
        return std::nullopt;
      if (b->second.kind == NameBinding::Kind::ModuleConstant) // an enclosing function's too
        return FoldResult::constant(symbols_.constants()[b->second.index].value);
      if (b->second.kind != NameBinding::Kind::Parameter &&
          b->second.kind != NameBinding::Kind::Local)
        return std::nullopt;
      const size_t v = function_.scope.versions.ofNameOr(n);
      if (v != kNoVersion) {
        const LocalVersion& version = function_.scope.versions.versions[v];
        if (version.kind == LocalVersion::Kind::Entry &&
            function_.kind == CompiledFunctionKind::DeviceFunction)
          deviceParameter = true;
        if (version.kind == LocalVersion::Kind::Def && version.value != nullptr) {
          FoldResult r = folder.fold(version.value);
          if (r.isConstant())
            return r;
        }
      }
      return FoldResult::notConstant("`" + n->id + "` is a variable of the function");
    });
    FoldResult r = folder.fold(e);
    if (r.isConstant())
      return r.value();
    if (!deviceParameter && r.status() == FoldResult::Status::NotConstant)
      diags_.report(DiagKind::TypeNotConstant, e->range, {what});
    return std::nullopt;
  }

  const CompiledFunction& function_;
  const ModuleSymbolTable& symbols_;
  DiagnosticEngine& diags_;
};

} // namespace

void checkConstantArguments(const CompiledFunction& function, const ModuleSymbolTable& symbols,
                            DiagnosticEngine& diags) {
  ConstantArgumentChecker(function, symbols, diags).run();
}

} // namespace pyk::sema
