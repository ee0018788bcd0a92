// EnclosingScope: a factory function's names as its nested kernels see them (see the header).
#include "sema/resolve/EnclosingScope.h"

#include <map>

#include "sema/fold/ConstantFolder.h"
#include "sema/resolve/AssignmentTargets.h"
#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

std::string enclosedName(const std::vector<const ast::FunctionDef*>& chain,
                         const std::string& name) {
  std::string out;
  for (const ast::FunctionDef* f : chain)
    out += f->name + ".<locals>.";
  return out + name;
}

namespace {

// How many times each name is bound anywhere in `f`'s own scope (nested scopes excluded, their
// names counted).
std::map<std::string, int> bindingCounts(const ast::FunctionDef& f) {
  std::map<std::string, int> counts;
  walkScope(const_cast<ast::FunctionDef&>(f).body, [&](ast::Node* node) {
    std::vector<std::string> names;
    if (const auto* n = node->as<ast::Name>(); n && n->ctx == ast::ExprContext::Store)
      names.push_back(n->id);
    if (const auto* d = node->as<ast::FunctionDef>())
      names.push_back(d->name);
    if (const auto* c = node->as<ast::ClassDef>())
      names.push_back(c->name);
    if (const auto* i = node->as<ast::Import>())
      for (const ast::Alias& a : i->names)
        names.push_back(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
    if (const auto* i = node->as<ast::ImportFrom>())
      for (const ast::Alias& a : i->names)
        names.push_back(a.asname.empty() ? a.name : a.asname);
    for (const std::string& n : names)
      ++counts[n];
    return true;
  });
  return counts;
}

} // namespace

std::unordered_map<std::string, std::string> bindEnclosingScope(
    const std::vector<const ast::FunctionDef*>& chain, ModuleSymbolTable& symbols,
    DiagnosticEngine& diags, const std::unordered_map<std::string, std::string>& outer,
    const std::function<void(const ast::FunctionDef&, const std::string&)>& defineNested,
    const std::string& why) {
  const ast::FunctionDef& f = *chain.back();
  std::unordered_map<std::string, std::string> scope = outer;
  auto hostValue = [&](const std::string& name, const std::string& reason, SourceRange at) {
    const std::string hidden = enclosedName(chain, name);
    symbols.bindHostValue({hidden, reason + why, at});
    scope[name] = hidden;
  };
  const ast::Arguments& a = f.args;
  for (const auto* list : {&a.posonlyargs, &a.args, &a.kwonlyargs})
    for (const ast::Arg& arg : *list)
      hostValue(arg.name, "it is a parameter of `" + f.name + "`", arg.range);
  for (const std::unique_ptr<ast::Arg>* arg : {&a.vararg, &a.kwarg})
    if (*arg)
      hostValue((*arg)->name, "it is a parameter of `" + f.name + "`", (*arg)->range);

  const std::map<std::string, int> counts = bindingCounts(f);
  std::map<std::string, bool> done;
  // The function's top-level statements in order: a name assigned once there folds with what
  // came before it (the module's constants, the enclosing functions' and its own).
  for (const ast::Stmt* s : f.body) {
    if (const auto* def = s->as<ast::FunctionDef>()) {
      done[def->name] = true;
      if (counts.at(def->name) != 1) {
        hostValue(def->name, "it is defined more than once in `" + f.name + "`", def->range);
        continue;
      }
      const std::string hidden = enclosedName(chain, def->name);
      scope[def->name] = hidden;
      defineNested(*def, hidden); // binds it (a compiled function) or leaves it unbound
      if (symbols.find(hidden) == nullptr)
        hostValue(def->name, "it is a Python function defined in `" + f.name + "`", def->range);
      continue;
    }
    const auto* assign = s->as<ast::Assign>();
    const auto* target = assign != nullptr && assign->targets.size() == 1
                             ? assign->targets[0]->as<ast::Name>()
                             : nullptr;
    if (target == nullptr || counts.at(target->id) != 1)
      continue;
    done[target->id] = true;
    const std::string hidden = enclosedName(chain, target->id);
    DiagnosticEngine quiet;
    ConstantFolder folder(symbols, quiet);
    folder.setLocalNames([&](const ast::Name* n) -> std::optional<FoldResult> {
      auto it = scope.find(n->id);
      if (it == scope.end())
        return std::nullopt; // a module name
      const ModuleSymbol* symbol = symbols.find(it->second);
      if (symbol != nullptr && symbol->kind == ModuleSymbolKind::Constant)
        return FoldResult::constant(symbols.constants()[symbol->index].value);
      return FoldResult::notConstant("`" + n->id + "` is not a constant of `" + f.name + "`");
    });
    FoldResult r = folder.fold(assign->value);
    if (r.isConstant()) {
      symbols.bindConstant({hidden, r.value(), s->range});
      scope[target->id] = hidden;
    } else {
      hostValue(target->id,
                "its value in `" + f.name + "` is not a compile-time constant" +
                    (r.reason().empty() ? std::string() : " (" + r.reason() + ")"),
                s->range);
    }
  }
  // Every other name the function binds: not a constant.
  for (const auto& [name, count] : counts)
    if (!done.count(name))
      hostValue(name,
                count > 1 ? "it is assigned more than once in `" + f.name + "`"
                          : "it is not assigned a constant at the top level of `" + f.name + "`",
                f.nameRange);
  (void)diags;
  return scope;
}

} // namespace pyk::sema
