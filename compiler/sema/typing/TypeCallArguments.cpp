// TypeCallArguments: a device function's call bound to its parameters as Python binds it —
// positional arguments, then keywords by name, then the defaults of those left; the positional
// arguments past the named parameters into the `*args` tuple; keyword-only parameters. The
// call is typed (and lowered: Specialization::spreadCalls) as the call that passes one argument
// per parameter in the callee's order (parameters, `*args`, keyword-only ones); a default is its
// own expression where it is a literal, else the constant it folds to.
#include <algorithm>
#include <cstdint>

#include "sema/fold/ConstantFolder.h"
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

namespace {

// A default value as an expression the caller can type: the literal itself (`0`, `-1.5`, `None`,
// `True`), else a literal made of the constant it folds to; null when it is neither.
ast::Expr* defaultArgument(ast::Expr* value, const ModuleSymbolTable& symbols,
                           ast::AstContext& nodes) {
  const auto* unary = value->as<ast::UnaryOp>();
  if (value->is<ast::Constant>() || (unary != nullptr && unary->operand->is<ast::Constant>()))
    return value;
  DiagnosticEngine quiet;
  ConstantFolder folder(symbols, quiet);
  FoldResult r = folder.fold(value);
  if (!r.isConstant() || !r.value().weak)
    return nullptr;
  const ConstantValue& v = r.value();
  auto* out = nodes.make<ast::Constant>(value->range);
  switch (v.kind) {
  case ConstantValue::Kind::None:
    out->valueKind = ast::ConstantKind::None;
    return out;
  case ConstantValue::Kind::Bool:
    out->valueKind = ast::ConstantKind::Bool;
    out->boolValue = v.boolValue;
    return out;
  case ConstantValue::Kind::Int:
    if (v.intValue < 0)
      return nullptr; // a literal is never negative: `-1` is a unary minus
    out->valueKind = ast::ConstantKind::Int;
    out->intValue = v.intValue;
    return out;
  case ConstantValue::Kind::Float:
    if (!(v.floatValue >= 0))
      return nullptr;
    out->valueKind = ast::ConstantKind::Float;
    out->floatValue = v.floatValue;
    return out;
  default:
    return nullptr;
  }
}

// Whether evaluating `e` may have an effect another argument could see: an assignment
// expression, or a call other than of a function of its arguments alone (math, a cast) — an
// atomic, a device function that writes memory — anywhere in it.
bool mayHaveEffects(ast::Node* e, const FunctionScope& scope) {
  if (e == nullptr || e->is<ast::NamedExpr>())
    return e != nullptr;
  if (const auto* call = e->as<ast::Call>()) {
    const Intrinsic id = intrinsicOf(scope, call->func);
    const bool pure =
        (id != Intrinsic::None && intrinsicInfo(id).has(intrinsic_flags::ThreadPure)) ||
        scalarTypeObject(scope, call->func).has_value();
    if (!pure)
      return true;
  }
  bool found = false;
  ast::forEachChild(e, [&](ast::Node* child) { found = found || mayHaveEffects(child, scope); });
  return found;
}

} // namespace

std::optional<OptType> FunctionTyper::boundDeviceCall(const CompiledFunction& callee,
                                                      const ast::Call* c) {
  const ast::Arguments& a = callee.def->args;
  std::vector<const ast::Arg*> positional;
  for (const auto* list : {&a.posonlyargs, &a.args})
    for (const ast::Arg& arg : *list)
      positional.push_back(&arg);
  const bool plain = c->keywords.empty() && !a.vararg && a.kwonlyargs.empty() &&
                     c->args.size() == positional.size();
  if (plain || boundCalls_.count(c) || callee.kind != CompiledFunctionKind::DeviceFunction)
    return std::nullopt;
  auto fail = [&](const std::string& why) -> std::optional<OptType> {
    error(DiagKind::TypeCallArguments, c->range, {callee.name, why});
    return OptType();
  };
  if (a.kwarg)
    return fail("`**" + a.kwarg->name + "` is not supported by pyk yet");
  const size_t named = positional.size();
  std::vector<ast::Expr*> slots(named + a.kwonlyargs.size(), nullptr);
  // Where each slot's value is written in the call (its position among the arguments, then the
  // keywords): the bound call evaluates them in the parameters' order.
  std::vector<size_t> written(slots.size(), SIZE_MAX);
  std::vector<ast::Expr*> rest; // into *args
  for (size_t i = 0; i < c->args.size(); ++i) {
    if (i < named) {
      slots[i] = c->args[i];
      written[i] = i;
    } else if (a.vararg)
      rest.push_back(c->args[i]);
    else
      return fail("it takes " + std::to_string(named) + " positional argument(s), " +
                  std::to_string(c->args.size()) + " given");
  }
  for (const ast::Keyword& k : c->keywords) {
    if (k.arg.empty())
      return fail("`**` arguments are not supported by pyk yet");
    size_t at = slots.size();
    for (size_t i = a.posonlyargs.size(); i < named; ++i)
      if (positional[i]->name == k.arg)
        at = i;
    for (size_t i = 0; i < a.kwonlyargs.size(); ++i)
      if (a.kwonlyargs[i].name == k.arg)
        at = named + i;
    if (at == slots.size())
      return fail("it has no parameter `" + k.arg + "`");
    if (slots[at] != nullptr)
      return fail("it got two values for `" + k.arg + "`");
    slots[at] = k.value;
    written[at] = c->args.size() + static_cast<size_t>(&k - c->keywords.data());
  }
  // Python evaluates the arguments as written; the bound call in the parameters' order. Where the
  // two differ for an argument with an effect, the result could differ: refused, not reordered.
  for (size_t i = 0; i < slots.size(); ++i)
    for (size_t j = i + 1; j < slots.size(); ++j)
      if (written[i] != SIZE_MAX && written[j] != SIZE_MAX && written[j] < written[i] &&
          (mayHaveEffects(slots[i], fn_.scope) || mayHaveEffects(slots[j], fn_.scope)))
        return fail("pyk passes keyword arguments in the parameters' order, and this call's "
                    "would then be evaluated in another order than written (one calls what may "
                    "write memory): write them in the parameters' order");
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i] != nullptr)
      continue;
    ast::Expr* given = nullptr;
    if (i < named) {
      const size_t firstDefault = named - a.defaults.size();
      if (i >= firstDefault)
        given = a.defaults[i - firstDefault];
    } else if (i - named < a.kwDefaults.size()) {
      given = a.kwDefaults[i - named];
    }
    const std::string name = i < named ? positional[i]->name : a.kwonlyargs[i - named].name;
    if (given == nullptr)
      return fail("`" + name + "` is not given");
    slots[i] = defaultArgument(given, module_.symbols, spec_.spreadNodes);
    if (slots[i] == nullptr)
      return fail("the default value of `" + name +
                  "` is not a number, a bool or None that pyk passes yet");
  }
  auto* bound = spec_.spreadNodes.make<ast::Call>(c->range);
  bound->func = c->func;
  bound->args.assign(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(named));
  if (a.vararg) {
    auto* tuple = spec_.spreadNodes.make<ast::Tuple>(c->range);
    tuple->elts = rest;
    bound->args.push_back(tuple);
  }
  bound->args.insert(bound->args.end(), slots.begin() + static_cast<std::ptrdiff_t>(named),
                     slots.end());
  boundCalls_.insert(bound);
  spec_.spreadCalls[c] = bound;
  return expr(bound);
}

} // namespace pyk::sema
