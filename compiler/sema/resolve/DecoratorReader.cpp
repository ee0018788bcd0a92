// DecoratorReader: recognises numba's decorators on a function (`@cuda.jit`, `@vectorize`,
// `@guvectorize`, through any import alias), classifies the function and checks the arguments.
// This file: which decorator it is, and the order in which its arguments are read; the keyword
// options are read in DecoratorKeywords.cpp, the signatures and layout in DecoratorSignatures.cpp.
#include "sema/resolve/DecoratorReader.h"

#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/resolve/DecoratorArgumentReader.h"
#include "sema/resolve/DottedName.h"

namespace pyk::sema {

void DecoratorArgumentReader::read() {
  out_.name = def_.name;
  out_.def = &def_;
  out_.decoratorName = match_.spelling;
  out_.decoratorRange = match_.decorator->range;
  const ast::Call* call = match_.call;
  if (call != nullptr)
    readKeywords(*call);
  switch (match_.which) {
  case NumbaDecorator::CudaJit:
    out_.kind = out_.options.device.value_or(false) ? CompiledFunctionKind::DeviceFunction
                                                    : CompiledFunctionKind::Kernel;
    break;
  case NumbaDecorator::Vectorize:
    out_.kind = CompiledFunctionKind::Vectorize;
    break;
  default:
    out_.kind = CompiledFunctionKind::GuVectorize;
    break;
  }
  if (out_.kind == CompiledFunctionKind::Vectorize ||
      out_.kind == CompiledFunctionKind::GuVectorize) {
    if (out_.options.target.empty())
      out_.options.target = "cpu";
  }
  std::vector<const ast::Expr*> positional;
  if (call != nullptr)
    positional.assign(call->args.begin(), call->args.end());
  size_t maxPositional = match_.which == NumbaDecorator::GuVectorize ? 2 : 1;
  if (positional.size() > maxPositional) {
    diags_.report(DiagKind::DecoratorTooManyPositional, positional[maxPositional]->range,
                  {match_.spelling, std::to_string(maxPositional)});
    positional.resize(maxPositional);
  }
  for (const ast::Expr* arg : positional) {
    if (arg->is<ast::Starred>()) {
      diags_.report(DiagKind::DecoratorBadSignatureArgument, arg->range, {match_.spelling});
      return;
    }
  }
  const ast::Expr* layoutArg = nullptr;
  const ast::Expr* signaturesArg = positional.empty() ? nullptr : positional[0];
  if (match_.which == NumbaDecorator::GuVectorize) {
    if (positional.size() == 2) {
      layoutArg = positional[1];
    } else if (positional.size() == 1 && isStringValued(positional[0])) {
      // guvectorize("(n)->(n)"): a dynamic gufunc, layout only.
      layoutArg = positional[0];
      signaturesArg = nullptr;
    }
    if (layoutArg == nullptr)
      diags_.report(DiagKind::DecoratorMissingLayout, match_.decorator->range, {});
    else
      readLayout(layoutArg);
  }
  if (signaturesArg != nullptr)
    readSignatures(signaturesArg);
}

DecoratorMatch matchNumbaDecorator(const ast::Expr* decorator, const ModuleSymbolTable& symbols) {
  DecoratorMatch match;
  match.decorator = decorator;
  const ast::Expr* callee = decorator;
  if (const auto* call = decorator->as<ast::Call>()) {
    match.call = call;
    callee = call->func;
  }
  std::optional<std::string> q = importedQualifiedName(callee, symbols);
  if (!q)
    return match;
  match.spelling = dottedName(callee);
  if (const ApiEntity* e = findApi(*q); e != nullptr && e->kind == ApiKind::Decorator)
    match.which = e->decorator;
  return match;
}

DecoratorMatch findNumbaDecorator(const ast::FunctionDef& def, const ModuleSymbolTable& symbols,
                                  DiagnosticEngine* diags) {
  DecoratorMatch found;
  for (const ast::Expr* decorator : def.decorators) {
    DecoratorMatch match = matchNumbaDecorator(decorator, symbols);
    if (match.which == NumbaDecorator::None)
      continue;
    if (found.which == NumbaDecorator::None) {
      found = match;
    } else if (diags != nullptr) {
      diags->report(DiagKind::TwoNumbaDecorators, decorator->range, {def.name});
      break;
    }
  }
  return found;
}

const ast::FunctionDef* decoratedByCall(const ast::Stmt& statement,
                                        const std::vector<ast::Stmt*>& body,
                                        const ModuleSymbolTable& symbols, DecoratorMatch& match) {
  const auto* assign = statement.as<ast::Assign>();
  const auto* call = assign != nullptr ? assign->value->as<ast::Call>() : nullptr;
  if (call == nullptr || assign->targets.size() != 1 || !assign->targets[0]->is<ast::Name>() ||
      call->args.size() != 1 || !call->keywords.empty())
    return nullptr;
  const auto* function = call->args[0]->as<ast::Name>();
  match = function != nullptr ? matchNumbaDecorator(call->func, symbols) : DecoratorMatch{};
  if (match.which == NumbaDecorator::None)
    return nullptr;
  const ast::FunctionDef* def = nullptr;
  for (const ast::Stmt* s : body) {
    if (s == &statement)
      break; // defined before the call, as Python needs it
    if (const auto* d = s->as<ast::FunctionDef>(); d != nullptr && d->name == function->id)
      def = d->decorators.empty() ? d : nullptr;
  }
  const ModuleSymbol* symbol = def != nullptr ? symbols.find(def->name) : nullptr;
  return symbol != nullptr && symbol->kind == ModuleSymbolKind::HostFunction ? def : nullptr;
}

void readDecorator(const DecoratorMatch& match, const ast::FunctionDef& def,
                   const ModuleSymbolTable& symbols, DiagnosticEngine& diags,
                   CompiledFunction& out) {
  DecoratorArgumentReader(match, def, symbols, diags, out).read();
}

} // namespace pyk::sema
