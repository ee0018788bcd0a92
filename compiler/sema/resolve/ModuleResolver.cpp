// ModuleResolver: the resolution phase's entry point: imports recorded, module constants folded,
// kernels / device functions / ufuncs found and checked, names in their bodies bound. One class:
// the module's top-level statements are taken in one pass, in source order, as Python runs them,
// and every step (a module-level `if`, an import, a class, an assignment, a function's decorator)
// reads and extends the pass's state; what needs none of it is in the files it includes
// (ImportResolver, UserModules, DecoratorReader, ResolvedFunctions, ModuleExecution, ...).
#include "sema/resolve/ModuleResolver.h"

#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "sema/fold/ConstantFolder.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/fold/ModuleExecution.h"
#include "sema/resolve/AssignmentTargets.h"
#include "sema/resolve/ConstantArguments.h"
#include "sema/resolve/DecoratorReader.h"
#include "sema/resolve/EnclosingScope.h"
#include "sema/resolve/ImportResolver.h"
#include "sema/resolve/InnerFunctions.h"
#include "sema/resolve/KernelLanguageChecker.h"
#include "sema/resolve/LinkedSources.h"
#include "sema/resolve/NameResolver.h"
#include "sema/resolve/ResolvedFunctions.h"
#include "sema/resolve/ScopeWalk.h"
#include "sema/resolve/UntypedChecks.h"
#include "sema/resolve/UserModules.h"

namespace pyk::sema {

namespace {

// One binding of a module-level name by the module's own top-level code.
struct BindingEvent {
  enum class Kind : uint8_t { Import, Assign, Function, Class, Other };
  Kind kind = Kind::Other;
  std::string name;
  const ast::Stmt* statement = nullptr; // the binding statement
  const ast::Stmt* topLevel = nullptr;  // the module-level statement holding it
  const ast::Expr* target = nullptr;    // Assign: the target that holds the name
  ImportBinding import;                 // Import
};

const char* containerNoun(const ast::Stmt* s) {
  switch (s->kind) {
  case ast::NodeKind::If:
    return "an `if` statement";
  case ast::NodeKind::For:
    return "a `for` loop";
  case ast::NodeKind::While:
    return "a `while` loop";
  case ast::NodeKind::Try:
    return "a `try` statement";
  case ast::NodeKind::With:
    return "a `with` statement";
  case ast::NodeKind::Match:
    return "a `match` statement";
  default:
    return "a compound statement";
  }
}

class ModuleResolution {
public:
  ModuleResolution(const ast::Module& module, DiagnosticEngine& diags, ModuleImporter* importer)
      : module_(module), diags_(diags), importer_(importer),
        imported_(importer != nullptr && importer->resolvingImport()) {}

  ResolvedModule run() {
    collectEvents();
    collectGlobalDeclarations();
    bindInOrder();
    bindExecutedValues();
    findNestedDecoratedFunctions();
    defineInnerFunctions(result_, diags_,
                         [&](const ast::FunctionDef& def) { return isCompiled(def); });
    markShadowed(result_);
    addDeviceTwins(result_, imported_);
    NameResolver resolver(result_.symbols, result_.functions, diags_, &result_.imported);
    for (CompiledFunction& function : result_.functions)
      if (!function.calledAsDevice()) {
        resolver.resolve(function);
        checkKernelLanguage(function, diags_);
        checkUntyped(function, result_.functions, result_.imported, diags_);
        checkConstantArguments(function, result_.symbols, diags_);
      }
    resolveCpuJitFunctions(result_, diags_);
    return std::move(result_);
  }

private:
  void addEvent(BindingEvent event) {
    eventsByName_[event.name].push_back(events_.size());
    events_.push_back(std::move(event));
  }

  void collectEvents() {
    for (ast::Stmt* top : module_.body) {
      walkScope(top, [&](ast::Node* node) {
        const auto* stmt = node->as<ast::Stmt>();
        auto simple = [&](BindingEvent::Kind kind, const std::vector<std::string>& names,
                          const ast::Expr* target = nullptr) {
          for (const std::string& n : names) {
            BindingEvent e;
            e.kind = kind;
            e.name = n;
            e.statement = stmt != nullptr ? stmt : top;
            e.topLevel = top;
            e.target = target;
            addEvent(std::move(e));
          }
        };
        std::vector<std::string> names;
        switch (node->kind) {
        case ast::NodeKind::Assign:
          for (const ast::Expr* t : node->as<ast::Assign>()->targets) {
            names.clear();
            collectTargetNames(t, names);
            simple(BindingEvent::Kind::Assign, names, t);
          }
          break;
        case ast::NodeKind::AnnAssign:
          if (node->as<ast::AnnAssign>()->value != nullptr) {
            collectTargetNames(node->as<ast::AnnAssign>()->target, names);
            simple(BindingEvent::Kind::Assign, names, node->as<ast::AnnAssign>()->target);
          }
          break;
        case ast::NodeKind::AugAssign:
          collectTargetNames(node->as<ast::AugAssign>()->target, names);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::For:
          collectTargetNames(node->as<ast::For>()->target, names);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::With:
          for (const ast::WithItem& item : node->as<ast::With>()->items)
            collectTargetNames(item.optionalVars, names);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::Delete:
          for (const ast::Expr* t : node->as<ast::Delete>()->targets)
            collectTargetNames(t, names);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::Try:
          for (const ast::ExceptHandler& h : node->as<ast::Try>()->handlers)
            if (!h.name.empty())
              names.push_back(h.name);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::NamedExpr:
          collectTargetNames(node->as<ast::NamedExpr>()->target, names);
          simple(BindingEvent::Kind::Other, names);
          break;
        case ast::NodeKind::MatchAs:
          if (!node->as<ast::MatchAs>()->name.empty())
            simple(BindingEvent::Kind::Other, {node->as<ast::MatchAs>()->name});
          break;
        case ast::NodeKind::MatchStar:
          if (!node->as<ast::MatchStar>()->name.empty())
            simple(BindingEvent::Kind::Other, {node->as<ast::MatchStar>()->name});
          break;
        case ast::NodeKind::Import:
        case ast::NodeKind::ImportFrom:
          for (ImportBinding& binding : importBindings(*stmt)) {
            BindingEvent e;
            e.kind = BindingEvent::Kind::Import;
            e.name = binding.name;
            e.statement = stmt;
            e.topLevel = top;
            e.import = std::move(binding);
            addEvent(std::move(e));
          }
          break;
        case ast::NodeKind::FunctionDef:
          simple(BindingEvent::Kind::Function, {node->as<ast::FunctionDef>()->name});
          break;
        case ast::NodeKind::ClassDef:
          simple(BindingEvent::Kind::Class, {node->as<ast::ClassDef>()->name});
          break;
        default:
          break;
        }
        return true;
      });
    }
  }

  // `global X` in any function means X may be rebound when that function runs.
  void collectGlobalDeclarations() {
    std::vector<std::string> functionStack;
    std::function<void(ast::Node*)> walk = [&](ast::Node* node) {
      bool isFunction = node->is<ast::FunctionDef>();
      if (isFunction)
        functionStack.push_back(node->as<ast::FunctionDef>()->name);
      if (const auto* global = node->as<ast::Global>(); global && !functionStack.empty())
        for (const std::string& name : global->names)
          globalRebinds_.emplace(name, functionStack.back());
      ast::forEachChild(node, walk);
      if (isFunction)
        functionStack.pop_back();
    };
    walk(const_cast<ast::Module*>(&module_));
  }

  // Where a binding is, as Python runs the module: at top level, in a branch of module-level `if`s
  // whose tests fold to constants (Taken: as good as top level; Dead: Python never runs it), or
  // anywhere else (Conditional: inside a loop, a `try`, or an `if` whose test does not fold).
  enum class Reach : uint8_t { TopLevel, Taken, Dead, Conditional };

  void collectIfBranches(const std::vector<ast::Stmt*>& body, const ast::If* parent, bool inBody) {
    for (const ast::Stmt* s : body) {
      if (parent != nullptr)
        ifParent_[s] = {parent, inBody};
      if (const auto* i = s->as<ast::If>()) {
        collectIfBranches(i->body, i, true);
        collectIfBranches(i->orelse, i, false);
      }
    }
  }

  Reach reachOf(const BindingEvent& event) {
    if (event.statement == event.topLevel)
      return Reach::TopLevel;
    Reach reach = Reach::Taken;
    for (const ast::Stmt* at = event.statement;;) {
      auto parent = ifParent_.find(at);
      if (parent == ifParent_.end())
        return at == event.topLevel ? reach : Reach::Conditional;
      const auto [ifNode, inBody] = parent->second;
      std::optional<bool> test = ifTest(ifNode);
      if (!test)
        return Reach::Conditional;
      if (*test != inBody)
        reach = Reach::Dead;
      at = ifNode;
    }
  }

  // A module-level `if`'s test, folded with the names bound so far (kept once it folds: what it
  // reads is bound once and for all).
  std::optional<bool> ifTest(const ast::If* i) {
    if (auto it = ifTests_.find(i); it != ifTests_.end())
      return it->second;
    DiagnosticEngine quiet;
    FoldResult r = ConstantFolder(result_.symbols, quiet).fold(i->test);
    if (!r.isConstant())
      return std::nullopt;
    std::optional<bool> truth = truthValue(r.value());
    if (truth)
      ifTests_[i] = *truth;
    return truth;
  }

  void bindInOrder() {
    collectIfBranches(module_.body, nullptr, false);
    std::set<std::string> done;
    for (const BindingEvent& event : events_) {
      const Reach reach = reachOf(event);
      if (reach == Reach::Dead)
        continue; // the branch Python does not run
      std::vector<size_t> all;
      for (size_t i : eventsByName_[event.name])
        if (reachOf(events_[i]) != Reach::Dead)
          all.push_back(i);
      bool allFunctions = true, allImports = true, importsAgree = true;
      for (size_t i : all) {
        allFunctions = allFunctions && events_[i].kind == BindingEvent::Kind::Function;
        allImports = allImports && events_[i].kind == BindingEvent::Kind::Import;
        importsAgree = importsAgree && events_[i].kind == BindingEvent::Kind::Import &&
                       events_[i].import.qualifiedName == events_[all[0]].import.qualifiedName;
      }
      // Functions are read where they are defined: their decorators run then.
      if (event.kind == BindingEvent::Kind::Function) {
        bool bindName = allFunctions && !globalRebinds_.count(event.name);
        defineFunction(*event.statement->as<ast::FunctionDef>(), bindName);
        if (bindName)
          continue;
      }
      if (!done.insert(event.name).second)
        continue;
      const std::string& name = event.name;
      if (auto global = globalRebinds_.find(name); global != globalRebinds_.end()) {
        hostValue(event, "it is assigned through `global` in function `" + global->second + "`");
        continue;
      }
      if (allImports) {
        if (importsAgree)
          bindImport(event);
        else
          hostValue(event, "it is imported from different modules");
        continue;
      }
      if (all.size() > 1) {
        hostValue(event, "it is assigned more than once at module level");
        continue;
      }
      bool direct = reach == Reach::TopLevel || reach == Reach::Taken;
      if (event.kind == BindingEvent::Kind::Class) {
        bindClass(event);
        continue;
      }
      if (event.kind == BindingEvent::Kind::Function)
        continue; // bound by defineFunction... unless rebound, handled above
      if (!direct) {
        const auto* ifNode = event.topLevel->as<ast::If>();
        const bool unknownTest = ifNode != nullptr && !ifTest(ifNode);
        hostValue(event, std::string("it is assigned inside ") + containerNoun(event.topLevel) +
                             " at module level" +
                             (unknownTest ? " whose test is not a compile-time constant" : ""));
        continue;
      }
      if (event.kind != BindingEvent::Kind::Assign) {
        hostValue(event, "it is not assigned a value at module level");
        continue;
      }
      if (bindDecoratorCall(event))
        continue;
      bindAssignment(event);
    }
  }

  // The module's top-level code run as Python runs it (fold/ModuleExecution.h): each name an
  // assignment, loop or item store binds or changes gets its value at the end of the module,
  // where it differs from what the single-assignment folding above bound (a name assigned more
  // than once or in a loop, an array changed by an item store, a call of a module function).
  void bindExecutedValues() {
    for (auto& [name, executed] : executeModule(module_, result_.symbols, diags_.file())) {
      const ModuleSymbol* symbol = result_.symbols.find(name);
      if (symbol == nullptr || globalRebinds_.count(name) ||
          (symbol->kind != ModuleSymbolKind::Constant &&
           symbol->kind != ModuleSymbolKind::HostValue))
        continue;
      if (symbol->kind == ModuleSymbolKind::Constant && executed.value.isConstant() &&
          result_.symbols.constants()[symbol->index].value == executed.value.value())
        continue; // folded alike (its linked files read once, when it was bound)
      if (!executed.value.isConstant()) {
        result_.symbols.bindHostValue({name, executed.value.reason(), executed.range});
        continue;
      }
      ConstantValue v = withLinkedFiles(std::move(executed.value.value()), modulePath(), embedded(),
                                        diags_, executed.range);
      result_.symbols.bindConstant({name, std::move(v), executed.range});
    }
  }

  // A class: an Enum or IntEnum whose members are constants is a constant itself (numba freezes
  // its members); any other class is a host value.
  void bindClass(const BindingEvent& event) {
    const auto* cls = event.statement->as<ast::ClassDef>();
    bool isEnum = false, integer = false;
    for (const ast::Expr* base : cls != nullptr ? cls->bases : std::vector<ast::Expr*>{})
      if (std::optional<std::string> q = importedQualifiedName(base, result_.symbols)) {
        isEnum = isEnum || *q == "enum.Enum" || *q == "enum.IntEnum" || *q == "enum.IntFlag" ||
                 *q == "enum.Flag";
        integer = integer || *q == "enum.IntEnum" || *q == "enum.IntFlag";
      }
    if (!isEnum) {
      result_.symbols.bindHostValue({event.name, "it is a class", event.statement->range},
                                    ModuleSymbolKind::Class);
      return;
    }
    std::vector<std::pair<std::string, ConstantValue>> members;
    for (const ast::Stmt* s : cls->body) {
      if (s->is<ast::Pass>() || s->is<ast::ExprStmt>()) // `pass`, a docstring
        continue;
      const auto* a = s->as<ast::Assign>();
      const auto* target =
          a != nullptr && a->targets.size() == 1 ? a->targets[0]->as<ast::Name>() : nullptr;
      std::string reason =
          "its member is not `NAME = constant` (methods and auto() are not folded)";
      if (target != nullptr) {
        ConstantFolder folder(result_.symbols, diags_);
        FoldResult r = folder.fold(a->value);
        if (r.isConstant()) {
          members.push_back({target->id, std::move(r.value())});
          continue;
        }
        reason = "the value of its member `" + target->id + "` is not a compile-time constant";
      }
      result_.symbols.bindHostValue({event.name, reason, s->range}, ModuleSymbolKind::Class);
      return;
    }
    result_.symbols.bindConstant({event.name,
                                  ConstantValue::enumClass(event.name, integer, std::move(members)),
                                  event.statement->range});
  }

  // An import: of numba's, numpy's or Python's API as the catalog knows it, or of a module of the
  // user's (bindUserImport, resolve/UserModules.h); anything else is left an import, an error only
  // where device code uses it (`import matplotlib.pyplot as plt`).
  void bindImport(const BindingEvent& event) {
    const std::string& q = event.import.qualifiedName;
    const std::string root = q.substr(0, q.find('.'));
    if (importer_ == nullptr || q.empty() || q[0] == '.' || isCatalogedModule(root) ||
        lookupApi(q)) {
      result_.symbols.bindImport(event.import);
      return;
    }
    bindUserImport(event.import, event.statement->is<ast::ImportFrom>(), event.statement->range,
                   diags_.file() != nullptr ? diags_.file()->path() : "", *importer_,
                   result_.symbols, result_.imported);
  }

  void hostValue(const BindingEvent& event, std::string reason) {
    result_.symbols.bindHostValue({event.name, std::move(reason), event.statement->range});
  }

  void bindAssignment(const BindingEvent& event) {
    const ast::Expr* value = nullptr;
    if (const auto* assign = event.statement->as<ast::Assign>())
      value = assign->value;
    else if (const auto* ann = event.statement->as<ast::AnnAssign>())
      value = ann->value;
    if (event.target != nullptr && event.target->is<ast::Name>() &&
        bindFfiInstance(event.name, value, event.statement->range, result_.symbols))
      return;
    if (event.target != nullptr && event.target->is<ast::Name>() && value != nullptr)
      result_.symbols.recordAssignment(event.name, value);
    auto cached = folded_.find(event.statement);
    if (cached == folded_.end()) {
      ConstantFolder folder(result_.symbols, diags_);
      cached = folded_.emplace(event.statement, folder.fold(value)).first;
    }
    const FoldResult& whole = cached->second;
    if (whole.status() == FoldResult::Status::Error) {
      hostValue(event, "computing its value raises an error");
      return;
    }
    if (!whole.isConstant()) {
      hostValue(event, whole.reason());
      return;
    }
    std::string reason;
    std::optional<ConstantValue> v = valueBoundTo(event.target, event.name, whole.value(), reason);
    if (!v) {
      hostValue(event, reason);
      return;
    }
    v = withLinkedFiles(std::move(*v), modulePath(), embedded(), diags_, event.statement->range);
    result_.symbols.bindConstant({event.name, std::move(*v), event.statement->range});
  }

  // `k = cuda.jit(f)` and the like (decoratedByCall): `k` compiled as `f` so decorated.
  bool bindDecoratorCall(const BindingEvent& event) {
    DecoratorMatch match;
    const ast::FunctionDef* def =
        decoratedByCall(*event.statement, module_.body, result_.symbols, match);
    if (def == nullptr)
      return false;
    const size_t index = defineCompiled(*def, match);
    result_.functions[index].name = event.name;
    result_.functions[index].qualifiedName = event.name;
    result_.symbols.bindCompiledFunction(event.name, index);
    return true;
  }

  // The files a module built ahead of time carries (none otherwise).
  const std::vector<ImportSearch::Embedded>* embedded() const {
    return importer_ != nullptr ? &importer_->search().embedded : nullptr;
  }

  // The path of this module's file ("" for a module given as text).
  std::string modulePath() const { return diags_.file() != nullptr ? diags_.file()->path() : ""; }

  void defineFunction(const ast::FunctionDef& def, bool bindName) {
    DecoratorMatch match = findNumbaDecorator(def, result_.symbols, &diags_);
    if (match.which == NumbaDecorator::None) {
      if (bindName)
        result_.symbols.bindHostValue({def.name, "it is a Python function", def.range},
                                      ModuleSymbolKind::HostFunction);
      return;
    }
    const size_t index = defineCompiled(def, match);
    if (bindName)
      result_.symbols.bindCompiledFunction(def.name, index);
  }

  // The compiled function a numba decorator makes of `def`; its index.
  size_t defineCompiled(const ast::FunctionDef& def, const DecoratorMatch& match) {
    CompiledFunction function;
    if (match.which == NumbaDecorator::CpuJit) {
      // numba compiles an @njit function called from a kernel as a device function, for the
      // argument types of the call (its CPU signatures and options play no part).
      function.name = def.name;
      function.def = &def;
      function.kind = CompiledFunctionKind::DeviceFunction;
      function.decoratorName = match.spelling;
      function.decoratorRange = match.decorator->range;
      function.lazy = true;
      function.cpuJit = true;
    } else {
      const unsigned errorsBefore = diags_.errorCount();
      readDecorator(match, def, result_.symbols, diags_, function);
      function.options.linkSources = // its cuda.CUSource objects, then its files
          readLinkedSources(function.options.linkSources, function.options.link, modulePath(),
                            embedded(), diags_, match.decorator->range,
                            "link= of `" + def.name + "`");
      function.decoratorHasErrors = diags_.errorCount() != errorsBefore;
    }
    function.qualifiedName = def.name;
    result_.functions.push_back(std::move(function));
    return result_.functions.size() - 1;
  }

  // Decorated functions not at module level: inside a class, an error; inside a host function
  // (a kernel factory), compiled with the factory's constants as their free variables
  // (EnclosingScope). Inside a compiled function, KernelLanguageChecker reports them.
  void findNestedDecoratedFunctions() {
    std::function<void(ast::Node*, const ast::ClassDef*)> inClasses = [&](ast::Node* node,
                                                                          const ast::ClassDef* in) {
      if (const auto* def = node->as<ast::FunctionDef>()) {
        if (in != nullptr && isCompiled(*def))
          diags_.report(DiagKind::DecoratedFunctionInClass,
                        def->nameRange.valid() ? def->nameRange : def->range,
                        {def->name, in->name});
        if (isCompiled(*def) || in != nullptr)
          return; // a compiled function's body; a method's is host code
      }
      const auto* cls = node->as<ast::ClassDef>();
      ast::forEachChild(node, [&](ast::Node* child) { inClasses(child, cls ? cls : in); });
    };
    for (ast::Stmt* top : module_.body) {
      if (const auto* def = top->as<ast::FunctionDef>(); def && !isCompiled(*def))
        factory(*def, {}, {});
      else
        inClasses(top, nullptr);
    }
  }

  bool isCompiled(const ast::FunctionDef& def) const {
    DecoratorMatch match = findNumbaDecorator(def, result_.symbols, nullptr);
    return match.which != NumbaDecorator::None;
  }

  // A host function `f` inside `chain`: its names bound for the decorated functions in it, which
  // are compiled; the plain functions in it are factories in turn.
  void factory(const ast::FunctionDef& f, std::vector<const ast::FunctionDef*> chain,
               const std::unordered_map<std::string, std::string>& outer) {
    chain.push_back(&f);
    std::vector<size_t> made;
    std::unordered_map<std::string, std::string> names = bindEnclosingScope(
        chain, result_.symbols, diags_, outer,
        [&](const ast::FunctionDef& def, const std::string& hidden) {
          DecoratorMatch match = findNumbaDecorator(def, result_.symbols, &diags_);
          if (match.which == NumbaDecorator::None)
            return;
          const size_t index = defineCompiled(def, match);
          result_.functions[index].qualifiedName = hidden;
          result_.symbols.bindCompiledFunction(hidden, index);
          made.push_back(index);
        },
        " (pyk compiles a kernel defined inside a function without calling "
        "the function: its free variables must be that function's constants)");
    for (size_t i : made) {
      result_.functions[i].enclosingNames = names;
      result_.functions[i].enclosingDefs = chain;
    }
    walkScope(const_cast<ast::FunctionDef&>(f).body, [&](ast::Node* node) {
      const auto* def = node->as<ast::FunctionDef>();
      if (def != nullptr && !isCompiled(*def))
        factory(*def, chain, names);
      if (const auto* cls = node->as<ast::ClassDef>())
        for (ast::Stmt* member : cls->body)
          if (const auto* m = member->as<ast::FunctionDef>(); m && isCompiled(*m))
            diags_.report(DiagKind::DecoratedFunctionInClass,
                          m->nameRange.valid() ? m->nameRange : m->range, {m->name, cls->name});
      return def == nullptr; // a nested function's body is walked as a factory of its own
    });
  }

  const ast::Module& module_;
  DiagnosticEngine& diags_;
  ModuleImporter* importer_;
  bool imported_; // this module is being imported by another
  // Each statement directly in a module-level `if`'s branch: the `if`, and whether in its body.
  std::unordered_map<const ast::Stmt*, std::pair<const ast::If*, bool>> ifParent_;
  std::unordered_map<const ast::If*, bool> ifTests_;
  ResolvedModule result_;
  std::vector<BindingEvent> events_;
  std::map<std::string, std::vector<size_t>> eventsByName_;
  std::map<std::string, std::string> globalRebinds_;
  std::map<const ast::Stmt*, FoldResult> folded_;
};

} // namespace

ResolvedModule resolveModule(const ast::Module& module, DiagnosticEngine& diags,
                             ModuleImporter* importer) {
  return ModuleResolution(module, diags, importer).run();
}

} // namespace pyk::sema
