// NameResolver: binds every name in a compiled function's body (parameters, locals, module
// constants, device functions, imported numba/math/numpy API, builtins) and reports the ones device
// code cannot use.
#include "sema/resolve/NameResolver.h"

#include <algorithm>
#include <set>

#include "sema/catalog/LibraryModule.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/catalog/PythonBuiltins.h"
#include "sema/resolve/AssignmentTargets.h"
#include "sema/resolve/DottedName.h"
#include "sema/resolve/ScopeWalk.h"
#include "sema/resolve/SpellingSuggestion.h"

namespace pyk::sema {

namespace {

// The module a qualified name belongs to, and how messages call it.
std::string moduleOf(const std::string& qualified) {
  size_t dot = qualified.rfind('.');
  return dot == std::string::npos ? std::string() : qualified.substr(0, dot);
}

class FunctionNameResolver {
public:
  FunctionNameResolver(const ModuleSymbolTable& symbols,
                       const std::vector<CompiledFunction>& functions, DiagnosticEngine& diags,
                       ImportedNames* imported, CompiledFunction& function)
      : symbols_(symbols), functions_(functions), diags_(diags), imported_(imported),
        function_(function), scope_(function.scope), context_(pluralNounOf(function.kind)) {}

  void run() {
    collectParameters();
    collectLocals();
    auto* def = const_cast<ast::FunctionDef*>(function_.def);
    walkScope(def->body, [&](ast::Node* node) { return visit(node); });
    scope_.versions = buildLocalVersions(def->body, scope_);
    for (const ast::Name* n : scope_.versions.unassignedReads)
      if (reportedOnce("unassigned " + n->id))
        diags_.report(DiagKind::UsedBeforeAssignment, n->range, {n->id});
  }

private:
  void collectParameters() {
    const ast::Arguments& a = function_.def->args;
    for (const ast::Arg& arg : a.posonlyargs)
      scope_.params.push_back(arg.name);
    for (const ast::Arg& arg : a.args)
      scope_.params.push_back(arg.name);
    if (a.vararg)
      scope_.params.push_back(a.vararg->name);
    for (const ast::Arg& arg : a.kwonlyargs)
      scope_.params.push_back(arg.name);
    if (a.kwarg)
      scope_.params.push_back(a.kwarg->name);
  }

  void addLocal(const std::string& name) {
    if (std::find(scope_.params.begin(), scope_.params.end(), name) != scope_.params.end())
      return;
    if (std::find(scope_.locals.begin(), scope_.locals.end(), name) != scope_.locals.end())
      return;
    scope_.locals.push_back(name);
  }

  void collectLocals() {
    auto* def = const_cast<ast::FunctionDef*>(function_.def);
    walkScope(def->body, [&](ast::Node* node) {
      std::vector<std::string> names;
      switch (node->kind) {
      case ast::NodeKind::Assign:
        for (const ast::Expr* t : node->as<ast::Assign>()->targets)
          collectTargetNames(t, names);
        break;
      case ast::NodeKind::AugAssign:
        collectTargetNames(node->as<ast::AugAssign>()->target, names);
        break;
      case ast::NodeKind::AnnAssign:
        if (node->as<ast::AnnAssign>()->value != nullptr)
          collectTargetNames(node->as<ast::AnnAssign>()->target, names);
        break;
      case ast::NodeKind::For:
        collectTargetNames(node->as<ast::For>()->target, names);
        break;
      case ast::NodeKind::With:
        for (const ast::WithItem& item : node->as<ast::With>()->items)
          collectTargetNames(item.optionalVars, names);
        break;
      case ast::NodeKind::NamedExpr:
        collectTargetNames(node->as<ast::NamedExpr>()->target, names);
        break;
      case ast::NodeKind::Delete:
        for (const ast::Expr* t : node->as<ast::Delete>()->targets)
          collectTargetNames(t, names);
        break;
      case ast::NodeKind::Try:
        for (const ast::ExceptHandler& h : node->as<ast::Try>()->handlers)
          if (!h.name.empty())
            names.push_back(h.name);
        break;
      case ast::NodeKind::Import:
      case ast::NodeKind::ImportFrom: {
        const auto& aliases = node->is<ast::Import>() ? node->as<ast::Import>()->names
                                                      : node->as<ast::ImportFrom>()->names;
        for (const ast::Alias& alias : aliases) {
          std::string bound = alias.asname.empty() ? alias.name : alias.asname;
          if (bound != "*")
            names.push_back(bound.substr(0, bound.find('.')));
        }
        break;
      }
      case ast::NodeKind::FunctionDef: // an inner function is no local (InnerFunctions.h)
        if (!function_.innerFunctions.count(node->as<ast::FunctionDef>()->name))
          names.push_back(node->as<ast::FunctionDef>()->name);
        break;
      case ast::NodeKind::ClassDef:
        names.push_back(node->as<ast::ClassDef>()->name);
        break;
      case ast::NodeKind::MatchAs:
        if (!node->as<ast::MatchAs>()->name.empty())
          names.push_back(node->as<ast::MatchAs>()->name);
        break;
      case ast::NodeKind::MatchStar:
        if (!node->as<ast::MatchStar>()->name.empty())
          names.push_back(node->as<ast::MatchStar>()->name);
        break;
      default:
        break;
      }
      for (const std::string& n : names)
        addLocal(n);
      return true;
    });
  }

  bool visit(ast::Node* node) {
    if (auto* name = node->as<ast::Name>()) {
      resolveName(name);
      return false;
    }
    if (auto* attribute = node->as<ast::Attribute>()) {
      resolveAttribute(attribute);
      return false;
    }
    return true;
  }

  // Resolves a name; the binding when it resolved.
  const NameBinding* resolveName(ast::Name* name) {
    const std::string& id = name->id;
    auto param = std::find(scope_.params.begin(), scope_.params.end(), id);
    if (param != scope_.params.end())
      return bind(name, {NameBinding::Kind::Parameter,
                         static_cast<size_t>(param - scope_.params.begin()), ""});
    auto local = std::find(scope_.locals.begin(), scope_.locals.end(), id);
    if (local != scope_.locals.end())
      return bind(
          name, {NameBinding::Kind::Local, static_cast<size_t>(local - scope_.locals.begin()), ""});
    // A function defined in its body (InnerFunctions.h).
    if (auto inner = function_.innerFunctions.find(id); inner != function_.innerFunctions.end())
      if (const ModuleSymbol* symbol = symbols_.find(inner->second))
        return resolveModuleName(name, *symbol);
    // A kernel defined inside a function sees that function's names first (EnclosingScope).
    if (auto enclosed = function_.enclosingNames.find(id);
        enclosed != function_.enclosingNames.end())
      if (const ModuleSymbol* symbol = symbols_.find(enclosed->second)) {
        if (symbol->kind != ModuleSymbolKind::HostValue)
          return resolveModuleName(name, *symbol);
        if (reportedOnce(id)) {
          const HostValue& value = symbols_.hostValues()[symbol->index];
          diags_.report(DiagKind::EnclosingValueInKernel, name->range, {id, context_});
          diags_.note(DiagKind::NoteHostValueAssigned, value.range, {id, value.reason});
        }
        return nullptr;
      }
    if (const ModuleSymbol* symbol = symbols_.find(id))
      return resolveModuleName(name, *symbol);
    if (isDeviceBuiltin(id))
      return bind(name, {NameBinding::Kind::Builtin, 0, id});
    if (!reportedOnce(id))
      return nullptr;
    if (isPythonBuiltin(id)) {
      diags_.report(DiagKind::UnsupportedBuiltin, name->range, {id, context_});
      return nullptr;
    }
    diags_.report(DiagKind::UnknownName, name->range, {id});
    std::vector<std::string> candidates = scope_.params;
    candidates.insert(candidates.end(), scope_.locals.begin(), scope_.locals.end());
    std::vector<std::string> moduleNames = symbols_.names();
    candidates.insert(candidates.end(), moduleNames.begin(), moduleNames.end());
    candidates.insert(candidates.end(), deviceBuiltinNames().begin(), deviceBuiltinNames().end());
    if (std::optional<std::string> guess = closestSpelling(id, candidates))
      diags_.note(DiagKind::NoteDidYouMean, name->range, {*guess});
    return nullptr;
  }

  const NameBinding* resolveModuleName(ast::Name* name, const ModuleSymbol& symbol) {
    const std::string& id = name->id;
    switch (symbol.kind) {
    case ModuleSymbolKind::Constant:
      return bind(name, {NameBinding::Kind::ModuleConstant, symbol.index, ""});
    case ModuleSymbolKind::Import: {
      const ImportBinding& import = symbols_.imports()[symbol.index];
      if (import.importedFunction) // `from helpers import clamp`
        return bind(name,
                    {NameBinding::Kind::CompiledFunction, *import.importedFunction, "", true});
      if (!import.userModule.empty()) {
        if (reportedOnce(id))
          reportUserModule(name->range, id, import);
        return nullptr;
      }
      std::optional<ApiEntity> entity = lookupApi(import.qualifiedName);
      if (!entity) {
        if (!reportedOnce(id))
          return nullptr;
        std::string module = moduleOf(import.qualifiedName);
        if (!module.empty() && isCatalogedModule(module))
          reportUnknownMember(name->range, id, module,
                              import.qualifiedName.substr(module.size() + 1));
        else
          diags_.report(DiagKind::UndefinedModuleName, name->range,
                        {id, "the module `" + import.qualifiedName + "`", context_});
        return nullptr;
      }
      if (!checkUsable(*entity, id, name->range))
        return nullptr;
      return bind(name, {NameBinding::Kind::Api, 0, entity->qualifiedName});
    }
    case ModuleSymbolKind::HostValue: {
      if (!reportedOnce(id))
        return nullptr;
      const HostValue& value = symbols_.hostValues()[symbol.index];
      diags_.report(DiagKind::HostValueInKernel, name->range, {id, context_});
      diags_.note(DiagKind::NoteHostValueAssigned, value.range, {id, value.reason});
      return nullptr;
    }
    case ModuleSymbolKind::CompiledFunction: {
      const CompiledFunction& callee = functions_[symbol.index];
      if (callee.kind == CompiledFunctionKind::DeviceFunction)
        return bind(name, {NameBinding::Kind::CompiledFunction, symbol.index, ""});
      if (callee.deviceTwin) // numba-cuda: a kernel device code calls is a device function there
        return bind(name, {NameBinding::Kind::CompiledFunction, *callee.deviceTwin, ""});
      if (!reportedOnce(id))
        return nullptr;
      if (callee.kind == CompiledFunctionKind::Kernel)
        diags_.report(DiagKind::KernelCalledFromKernel, name->range, {id, context_});
      else
        diags_.report(DiagKind::UndefinedModuleName, name->range,
                      {id, std::string("a `") + nameOf(callee.kind) + "` ufunc", context_});
      return nullptr;
    }
    case ModuleSymbolKind::HostFunction:
      if (reportedOnce(id))
        diags_.report(DiagKind::NotADeviceFunction, name->range, {id});
      return nullptr;
    case ModuleSymbolKind::Class:
      if (reportedOnce(id))
        diags_.report(DiagKind::UndefinedModuleName, name->range, {id, "a class", context_});
      return nullptr;
    }
    return nullptr;
  }

  // Why a name imported from a module of the user's cannot be used, with the module's errors.
  void reportUserModule(SourceRange range, const std::string& id, const ImportBinding& import) {
    if (import.memberProblem)
      diags_.report(DiagKind::UserModuleMemberUnusable, range,
                    {id, import.userModule, import.unusable});
    else
      diags_.report(import.qualifiedName == import.userModule ? DiagKind::UserModuleImportUnusable
                                                              : DiagKind::UserModuleUnusable,
                    range, {id, import.userModule, import.unusable});
    for (const Diagnostic& d : import.userModuleErrors)
      diags_.add(d);
  }

  // `helpers.clamp` where `helpers` is a module of the user's the file imports (bound to a
  // Module constant): the function's binding, or an error; false when `attribute` is not one.
  bool resolveModuleMember(ast::Attribute* attribute, const NameBinding& base) {
    if (base.kind != NameBinding::Kind::ModuleConstant || imported_ == nullptr)
      return false;
    const ConstantValue& v = symbols_.constants()[base.index].value;
    if (v.kind != ConstantValue::Kind::Module || v.member(attribute->attr) != nullptr)
      return false; // a constant member folds as an enum's does
    const LibraryModule* m = nullptr;
    for (const std::shared_ptr<const LibraryModule>& candidate : imported_->modules)
      if (candidate->qualifiedName == v.strValue)
        m = candidate.get();
    if (m == nullptr)
      return false;
    const std::string spelled = dottedName(attribute);
    const ModuleSymbol* symbol = m->resolved.symbols.find(attribute->attr);
    std::string problem = "is not defined there";
    if (symbol != nullptr && symbol->kind == ModuleSymbolKind::CompiledFunction) {
      const CompiledFunction& f = m->resolved.functions[symbol->index];
      if (const CompiledFunction* callable = m->resolved.deviceCallable(f)) {
        scope_.moduleFunctions[attribute] = {NameBinding::Kind::CompiledFunction,
                                             imported_->indexOf(callable), "", true};
        return true;
      }
      problem = std::string("is a `") + nameOf(f.kind) + "` ufunc";
    } else if (symbol != nullptr && symbol->kind == ModuleSymbolKind::HostFunction) {
      problem = "is not a device function; decorate it with `@cuda.jit(device=True)`";
    } else if (symbol != nullptr && symbol->kind == ModuleSymbolKind::HostValue) {
      problem = "is not a compile-time constant: " +
                m->resolved.symbols.hostValues()[symbol->index].reason;
    } else if (symbol != nullptr) {
      problem = "is not a constant or a function device code can use";
    }
    if (reportedOnce(spelled))
      diags_.report(DiagKind::UserModuleMemberUnusable, attribute->range,
                    {spelled, m->qualifiedName, problem});
    return true;
  }

  // Resolves an attribute chain rooted at an imported module; the qualified name when it is one.
  std::optional<std::string> resolveAttribute(ast::Attribute* attribute) {
    std::optional<std::string> base;
    if (auto* name = attribute->value->as<ast::Name>()) {
      const NameBinding* binding = resolveName(name);
      if (binding != nullptr && resolveModuleMember(attribute, *binding))
        return std::nullopt;
      if (binding == nullptr || binding->kind != NameBinding::Kind::Api)
        return std::nullopt;
      base = binding->qualifiedName;
    } else if (auto* inner = attribute->value->as<ast::Attribute>()) {
      base = resolveAttribute(inner);
    } else {
      walkScope(attribute->value, [&](ast::Node* node) { return visit(node); });
    }
    if (!base)
      return std::nullopt;
    std::optional<ApiEntity> baseEntity = lookupApi(*base);
    if (!baseEntity)
      return std::nullopt;
    std::string qualified = canonicalApiName(*base + "." + attribute->attr);
    if (baseEntity->kind == ApiKind::OpaqueModule) {
      scope_.apiAttributes[attribute] = qualified;
      return qualified;
    }
    if (baseEntity->kind != ApiKind::Module)
      return std::nullopt; // an attribute of a value (`cuda.threadIdx.x.real`): typing decides
    std::optional<ApiEntity> entity = lookupApi(qualified);
    std::string spelled = dottedName(attribute);
    SourceRange range = attribute->attrRange.valid()
                            ? SourceRange::cover(attribute->value->range, attribute->attrRange)
                            : attribute->range;
    if (!entity) {
      if (reportedOnce(spelled))
        reportUnknownMember(range, spelled, *base, attribute->attr);
      return std::nullopt;
    }
    if (!checkUsable(*entity, spelled, range))
      return std::nullopt;
    scope_.apiAttributes[attribute] = entity->qualifiedName;
    if (entity->intrinsic != Intrinsic::None)
      scope_.intrinsics[attribute] = entity->intrinsic;
    return entity->qualifiedName;
  }

  // `spelled` names member `member` of cataloged `module`, which the catalog does not have.
  void reportUnknownMember(SourceRange range, const std::string& spelled, const std::string& module,
                           const std::string& member) {
    if (module == "numpy" ||
        ((module == "math" || module == "cmath") && isPythonMathMember(module, member)))
      diags_.report(DiagKind::UnsupportedModuleMember, range, {spelled, context_});
    else
      diags_.report(DiagKind::UnknownModuleMember, range, {spelled, module});
    std::vector<std::string> members = apiMembers(module);
    if (std::optional<std::string> guess = closestSpelling(member, members)) {
      std::string prefix = spelled.substr(0, spelled.size() - member.size());
      diags_.note(DiagKind::NoteDidYouMean, range, {prefix + *guess});
    }
  }

  // Host-only API (`cuda.to_device`, `np.zeros`, decorators) cannot appear in device code.
  bool checkUsable(const ApiEntity& entity, const std::string& spelled, SourceRange range) {
    if (entity.kind != ApiKind::HostFunction && entity.kind != ApiKind::Decorator)
      return true;
    if (reportedOnce(spelled))
      diags_.report(DiagKind::HostOnlyFunction, range, {spelled, context_});
    return false;
  }

  const NameBinding* bind(const ast::Name* name, NameBinding binding) {
    // A name of an intrinsic (`from math import sqrt`, a builtin) is resolved to it once, here.
    Intrinsic intrinsic = Intrinsic::None;
    if (binding.kind == NameBinding::Kind::Api)
      if (const ApiEntity* entity = findApi(binding.qualifiedName))
        intrinsic = entity->intrinsic;
    if (binding.kind == NameBinding::Kind::Builtin)
      intrinsic = intrinsicNamed(binding.qualifiedName);
    if (intrinsic != Intrinsic::None)
      scope_.intrinsics[name] = intrinsic;
    auto [it, inserted] = scope_.names.insert_or_assign(name, std::move(binding));
    (void)inserted;
    return &it->second;
  }

  // True the first time a problem with `key` is seen in this function (one report per name).
  bool reportedOnce(const std::string& key) { return reported_.insert(key).second; }

  const ModuleSymbolTable& symbols_;
  const std::vector<CompiledFunction>& functions_;
  DiagnosticEngine& diags_;
  ImportedNames* imported_;
  CompiledFunction& function_;
  FunctionScope& scope_;
  std::string context_;
  std::set<std::string> reported_;
};

} // namespace

void NameResolver::resolve(CompiledFunction& function) {
  FunctionNameResolver(symbols_, functions_, diags_, imported_, function).run();
}

} // namespace pyk::sema
