// ModuleExecution: the module's top-level code run in order over folded values (see the header).
// Arrays are numpy's: shared by every name bound to them, changed in place by item stores and
// augmented assignments. Each name remembers the names its value was computed from; an array is
// changed in place only when it is one of its own (made by a numpy constructor, an operator, a
// copy), and then every name computed from it is left unknown, since it may be a view of it. A
// store into any other array, or an array passed to a call pyk does not run, leaves every name
// it is connected to unknown. This file: the statements, the calls of the module's functions and
// the entry point; ModuleExecutionNames.cpp the bindings and values, ModuleExecutionStores.cpp
// the changes in place.
#include "sema/fold/ModuleExecution.h"

#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/fold/ModuleExecutionInternal.h"

namespace pyk::sema {

namespace execution {

Executor::Executor(const ast::Module& module, const ModuleSymbolTable& symbols,
                   const SourceFile* file)
    : module_(module), symbols_(symbols), quiet_(file), folder_(symbols, quiet_) {
  folder_.setLocalNames([this](const ast::Name* n) { return lookup(n->id); });
  folder_.setRunningCode([this](const ast::Expr* e) { return runningCode(e); });
  bool rebindsGlobals = false; // `global` at module level changes nothing
  for (const ast::Stmt* s : module.body)
    collectLocals(s, assignedAtModuleLevel_, rebindsGlobals);
  std::map<std::string, int> defined;
  for (const ast::Stmt* s : module.body)
    if (const auto* def = s->as<ast::FunctionDef>())
      ++defined[def->name];
  for (const ast::Stmt* s : module.body)
    if (const auto* def = s->as<ast::FunctionDef>()) {
      const ModuleSymbol* symbol = symbols.find(def->name);
      if (def->decorators.empty() && !def->isAsync && defined[def->name] == 1 &&
          symbol != nullptr && symbol->kind == ModuleSymbolKind::HostFunction)
        functions_[def->name] = def;
    }
}

std::map<std::string, ExecutedName> Executor::run() {
  frames_.push_back(Frame{});
  // Each top-level statement has a budget of its own (one that runs out leaves only the names it
  // binds unknown), within a budget for the whole module.
  for (size_t i = 0; i < module_.body.size(); ++i) {
    if (steps_ > kModuleBudget) {
      unknownBlock({module_.body.begin() + static_cast<std::ptrdiff_t>(i), module_.body.end()},
                   "pyk stops following the module's code after " + std::to_string(kModuleBudget) +
                       " steps");
      break;
    }
    statementStart_ = steps_;
    runStatement(module_.body[i]);
  }
  std::map<std::string, ExecutedName> out;
  for (auto& [name, b] : frames_.front().names) {
    if (b.list && b.value.isConstant())
      b.value = FoldResult::notConstant("a list is not a constant numba can use (use a tuple)");
    out.emplace(name, ExecutedName{std::move(b.value), b.range});
  }
  return out;
}

Flow Executor::runBlock(const std::vector<ast::Stmt*>& body) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (overBudget()) {
      const std::string reason = "pyk stops following the module's code after " +
                                 std::to_string(kExecutionBudget) + " steps";
      if (inFunction()) {
        frame().stopReason = reason;
        return Flow::Stop;
      }
      unknownBlock({body.begin() + static_cast<std::ptrdiff_t>(i), body.end()}, reason);
      return Flow::Normal;
    }
    Flow flow = runStatement(body[i]);
    if (flow != Flow::Normal)
      return flow;
  }
  return Flow::Normal;
}

Flow Executor::runStatement(const ast::Stmt* s) {
  ++steps_;
  if (const auto* a = s->as<ast::Assign>())
    return runAssign(s, a->targets, a->value);
  if (const auto* a = s->as<ast::AnnAssign>()) {
    if (a->value == nullptr)
      return Flow::Normal;
    return runAssign(s, {a->target}, a->value);
  }
  if (const auto* a = s->as<ast::AugAssign>())
    return runAugAssign(s, *a);
  if (const auto* i = s->as<ast::If>()) {
    FoldResult test = fold(i->test);
    std::optional<bool> truth =
        test.isConstant() ? truthValue(test.value()) : std::optional<bool>{};
    if (!truth)
      return cannotFollowBlocks(
          s, {&i->body, &i->orelse},
          "it is assigned inside an `if` statement at module level whose test is not a "
          "compile-time "
          "constant" +
              (test.isConstant() ? std::string{} : " (" + test.reason() + ")"));
    return runBlock(*truth ? i->body : i->orelse);
  }
  if (const auto* f = s->as<ast::For>())
    return runFor(s, *f);
  if (const auto* w = s->as<ast::While>())
    return runWhile(s, *w);
  if (const auto* t = s->as<ast::Try>())
    return runTry(s, *t);
  if (const auto* r = s->as<ast::Return>()) {
    if (!inFunction())
      return Flow::Normal;
    frame().returned =
        r->value == nullptr ? FoldResult::constant(ConstantValue::none())
        : r->value->is<ast::List>() || producesList(r->value)
            ? FoldResult::notConstant("it returns a list, which pyk does not fold yet")
            : fold(r->value);
    const auto* n = r->value != nullptr ? r->value->as<ast::Name>() : nullptr;
    const Binding* b = n != nullptr ? bindingOf(n->id).second : nullptr;
    frame().returnedOwn = frame().returned.isConstant() &&
                          frame().returned.value().kind == Kind::Array &&
                          ((b != nullptr && b->ownArray && frame().locals.count(n->id)) ||
                           makesOwnArray(r->value, symbols_));
    return Flow::Return;
  }
  if (s->is<ast::Break>())
    return Flow::Break;
  if (s->is<ast::Continue>())
    return Flow::Continue;
  if (s->is<ast::Pass>() || s->is<ast::Global>() || s->is<ast::Nonlocal>() || s->is<ast::Assert>())
    return Flow::Normal;
  if (const auto* e = s->as<ast::ExprStmt>())
    return runExpressionStatement(e->value);
  if (const auto* d = s->as<ast::Delete>()) {
    for (const ast::Expr* t : d->targets)
      if (const auto* n = t->as<ast::Name>())
        setUnknown(n->id, "it is deleted at module level", s->range);
      else
        return cannotFollow(s, "an item or attribute is deleted");
    return Flow::Normal;
  }
  if (const auto* def = s->as<ast::FunctionDef>())
    return rebound(s, {def->name});
  if (const auto* cls = s->as<ast::ClassDef>())
    return rebound(s, {cls->name});
  if (const auto* imp = s->as<ast::Import>()) {
    std::vector<std::string> names;
    for (const ast::Alias& a : imp->names)
      names.push_back(!a.asname.empty() ? a.asname : a.name.substr(0, a.name.find('.')));
    return rebound(s, names);
  }
  if (const auto* imp = s->as<ast::ImportFrom>()) {
    std::vector<std::string> names;
    for (const ast::Alias& a : imp->names)
      names.push_back(!a.asname.empty() ? a.asname : a.name);
    return rebound(s, names);
  }
  if (s->is<ast::Raise>()) {
    if (inFunction()) {
      frame().stopReason = "it raises an exception";
      return Flow::Stop;
    }
    return Flow::Normal; // the program would stop at import
  }
  const char* what = s->is<ast::With>() ? "a `with` statement" : "this statement";
  return cannotFollow(s, std::string("it is assigned inside ") + what +
                             ", which pyk does not follow at module level");
}

Flow Executor::rebound(const ast::Stmt* s, const std::vector<std::string>& names) {
  if (inFunction())
    return cannotFollow(s, "it defines or imports names inside a function");
  for (const std::string& n : names) {
    frames_.front().names.erase(n);
    rebound_.insert(n);
  }
  return Flow::Normal;
}

Flow Executor::cannotFollowBlocks(const ast::Stmt* s,
                                  std::vector<const std::vector<ast::Stmt*>*> blocks,
                                  const std::string& reason) {
  if (inFunction()) {
    frame().stopReason = reason;
    return Flow::Stop;
  }
  unknownCalls(s->is<ast::If>() ? static_cast<const ast::Node*>(s->as<ast::If>()->test) : nullptr,
               " in code pyk does not follow (" + reason + ")");
  for (const auto* block : blocks)
    unknownBlock(*block, reason);
  return Flow::Normal;
}

Flow Executor::runAssign(const ast::Stmt* s, const std::vector<ast::Expr*>& targets,
                         const ast::Expr* valueExpr) {
  std::optional<FoldResult> made = newList(valueExpr);
  const bool list = made.has_value() || producesList(valueExpr);
  FoldResult value = made ? std::move(*made)
                     : valueExpr->is<ast::GeneratorExp>()
                         ? FoldResult::notConstant("a generator is not a constant numba can use")
                         : fold(valueExpr);
  if (!value.isConstant())
    unknownCalls(valueExpr, notRun(value.reason()));
  const bool own =
      value.isConstant() &&
      (made.has_value() || (value.value().kind == Kind::Array &&
                            (makesOwnArray(valueExpr, symbols_) || returnsOwnArray(valueExpr))));
  std::set<std::string> sources = arraySources(valueExpr);
  if (targets.size() > 1) // `a = b = np.zeros(3)`: one array under both names
    for (const ast::Expr* target : targets)
      collectTargetNamesInto(target, sources);
  for (const ast::Expr* target : targets) {
    std::string reason;
    if (!assign(target, value, s->range, own && targets.size() == 1, sources, reason, list)) {
      if (inFunction()) {
        frame().stopReason = reason;
        return Flow::Stop;
      }
      unknownTarget(target, reason, s->range);
    }
  }
  return Flow::Normal;
}

Flow Executor::runAugAssign(const ast::Stmt* s, const ast::AugAssign& a) {
  if (const auto* n = a.target->as<ast::Name>())
    if (Binding* b = bindingOf(n->id).second; b != nullptr && b->list) {
      if (a.op != ast::BinOpKind::Add)
        return changeList(n->id, a.value->range, "an augmented assignment other than `+=`");
      return extendList(n->id, a.value, a.value->range);
    }
  if (std::optional<Flow> flow = augmentItem(s, a))
    return *flow;
  FoldResult current = fold(a.target);
  FoldResult operand = fold(a.value);
  if (!operand.isConstant())
    unknownCalls(a.value, notRun(operand.reason()));
  if (!current.isConstant() || !operand.isConstant())
    return cannotFollow(s, !current.isConstant() ? current.reason() : operand.reason());
  const ConstantValue& x = current.value();
  if (x.kind == Kind::Array) {
    // In place: numpy keeps the array (and its dtype); the result must have it.
    FoldResult r = folding::elementwise(a.op, x, operand.value());
    const ast::Name* n = a.target->as<ast::Name>();
    Binding* b = n != nullptr ? bindingOf(n->id).second : nullptr;
    if (!r.isConstant() || r.value().kind != Kind::Array ||
        r.value().array->dtype != x.array->dtype || r.value().array->shape != x.array->shape ||
        b == nullptr || !b->ownArray)
      return cannotFollow(s, "an array is changed in place by an augmented assignment pyk does "
                             "not follow");
    b->value = std::move(r);
    b->range = s->range;
    dependentsUnknown(n->id, "it may share memory with `" + n->id + "`, which is changed after it",
                      s->range);
    return Flow::Normal;
  }
  FoldResult r = x.kind == Kind::Array || operand.value().kind == Kind::Array
                     ? folding::elementwise(a.op, x, operand.value())
                     : applyBinaryOperator(a.op, x, operand.value());
  if (r.status() == FoldResult::Status::Error)
    r = FoldResult::notConstant("computing its value raises an error (" +
                                formatMessage(formatOf(r.errorKind()), r.errorArgs()) + ")");
  std::string reason;
  std::set<std::string> sources = arraySources(a.value);
  if (const auto* n = a.target->as<ast::Name>())
    if (Binding* b = bindingOf(n->id).second)
      sources.insert(b->sources.begin(), b->sources.end());
  if (!assign(a.target, r, s->range, r.isConstant() && r.value().kind == Kind::Array, sources,
              reason))
    return cannotFollow(s, reason);
  return Flow::Normal;
}

Flow Executor::runExpressionStatement(const ast::Expr* e) {
  if (e->is<ast::Constant>() || e->is<ast::JoinedStr>())
    return Flow::Normal; // a docstring
  if (const auto* c = e->as<ast::Call>()) {
    if (readsOnly(c))
      return Flow::Normal; // `print(x)`, `np.testing.assert_allclose(a, b)`: changes nothing
    if (std::optional<Flow> flow = runListMethod(c))
      return *flow;
  }
  FoldResult r = fold(e);
  if (r.isConstant())
    return Flow::Normal; // computed, changes nothing
  if (inFunction()) {
    frame().stopReason = r.reason();
    return Flow::Stop;
  }
  unknownCalls(e, notRun(r.reason()));
  return Flow::Normal;
}

Flow Executor::runFor(const ast::Stmt* s, const ast::For& f) {
  std::string reason;
  std::optional<std::vector<ConstantValue>> values = iterationValues(f.iter, reason);
  if (!values)
    return cannotFollowBlocks(s, {&f.body, &f.orelse},
                              "it is assigned inside a `for` loop at module level over values "
                              "that are not compile-time constants (" +
                                  reason + ")");
  std::set<std::string> sources = arraySources(f.iter);
  for (const ConstantValue& v : *values) {
    if (overBudget())
      return cannotFollowBlocks(s, {&f.body, &f.orelse},
                                "pyk stops following the module's code after " +
                                    std::to_string(kExecutionBudget) + " steps");
    std::string why;
    if (!assign(f.target, FoldResult::constant(v), s->range, false, sources, why))
      return cannotFollowBlocks(s, {&f.body, &f.orelse}, why);
    Flow flow = runBlock(f.body);
    if (flow == Flow::Break)
      return Flow::Normal;
    if (flow == Flow::Return || flow == Flow::Stop)
      return flow;
  }
  return runBlock(f.orelse);
}

Flow Executor::runWhile(const ast::Stmt* s, const ast::While& w) {
  while (true) {
    if (overBudget())
      return cannotFollowBlocks(s, {&w.body, &w.orelse},
                                "pyk stops following the module's code after " +
                                    std::to_string(kExecutionBudget) + " steps");
    ++steps_;
    FoldResult test = fold(w.test);
    std::optional<bool> truth =
        test.isConstant() ? truthValue(test.value()) : std::optional<bool>{};
    if (!truth)
      return cannotFollowBlocks(
          s, {&w.body, &w.orelse},
          "it is assigned inside a `while` loop at module level whose test is not a compile-time "
          "constant" +
              (test.isConstant() ? std::string{} : " (" + test.reason() + ")"));
    if (!*truth)
      return runBlock(w.orelse);
    Flow flow = runBlock(w.body);
    if (flow == Flow::Break)
      return Flow::Normal;
    if (flow == Flow::Return || flow == Flow::Stop)
      return flow;
  }
}

Flow Executor::runTry(const ast::Stmt* s, const ast::Try& t) {
  std::string unknownModule;
  for (const ast::Stmt* b : t.body) {
    auto check = [&](const std::string& module) {
      const std::string root = module.substr(0, module.find('.'));
      const ModuleSymbol* bound = symbols_.find(root);
      const bool userModule = bound != nullptr && bound->kind == ModuleSymbolKind::Constant &&
                              symbols_.constants()[bound->index].value.kind == Kind::Module;
      if (!isCatalogedModule(root) && !userModule && unknownModule.empty())
        unknownModule = module;
    };
    if (const auto* imp = b->as<ast::Import>())
      for (const ast::Alias& a : imp->names)
        check(a.name);
    else if (const auto* from = b->as<ast::ImportFrom>())
      check(from->level > 0 ? "." + from->module : from->module);
    else if (!b->is<ast::Assign>() && !b->is<ast::AnnAssign>() && !b->is<ast::Pass>() &&
             !b->is<ast::ExprStmt>() && unknownModule.empty())
      unknownModule = "?";
  }
  if (!unknownModule.empty() || t.isStar)
    return cannotFollowBlocks(
        s, {&t.body, &t.orelse, &t.finalbody},
        unknownModule == "?" || t.isStar
            ? "it is assigned inside a `try` statement pyk does not follow"
            : "it is assigned inside a `try` statement whose outcome depends on whether `" +
                  unknownModule + "` can be imported where the program runs");
  // A statement that raises sends Python to the handlers, with the body half run: not followed.
  Flow flow = Flow::Normal;
  for (const ast::Stmt* b : t.body) {
    raised_ = false;
    flow = runStatement(b);
    if (raised_)
      return cannotFollowBlocks(
          s, {&t.body, &t.orelse, &t.finalbody},
          "it is assigned inside a `try` statement whose body raises an error");
    if (flow != Flow::Normal)
      break;
  }
  if (flow == Flow::Normal)
    flow = runBlock(t.orelse);
  if (flow != Flow::Normal)
    return flow;
  return runBlock(t.finalbody);
}

std::optional<FoldResult> Executor::runningCode(const ast::Expr* e) {
  if (const auto* call = e->as<ast::Call>())
    return moduleCall(call);
  if (const auto* l = e->as<ast::ListComp>())
    return comprehension(l->elt, l->generators);
  if (const auto* g = e->as<ast::GeneratorExp>())
    return comprehension(g->elt, g->generators);
  return std::nullopt;
}

std::optional<FoldResult> Executor::moduleCall(const ast::Call* call) {
  const auto* callee = call->func->as<ast::Name>();
  if (callee == nullptr || lookup(callee->id))
    return std::nullopt;
  auto it = functions_.find(callee->id);
  if (it == functions_.end())
    return std::nullopt;
  return callFunction(*it->second, call);
}

FoldResult Executor::callFunction(const ast::FunctionDef& def, const ast::Call* call) {
  auto notFolded = [&](const std::string& why) {
    const std::string self = "a call of `" + def.name + "` is not folded";
    // A recursive call's reason is the innermost one's.
    return FoldResult::notConstant(why.rfind(self, 0) == 0 ? why : self + ": " + why, call->range);
  };
  steps_ += kCallCost;
  if (static_cast<int>(frames_.size()) > kMaxCallDepth)
    return notFolded("calls nest deeper than " + std::to_string(kMaxCallDepth));
  const ast::Arguments& a = def.args;
  if (a.vararg || a.kwarg)
    return notFolded("it takes *args or **kwargs");
  std::vector<const ast::Arg*> positional;
  for (const ast::Arg& p : a.posonlyargs)
    positional.push_back(&p);
  for (const ast::Arg& p : a.args)
    positional.push_back(&p);
  if (call->args.size() > positional.size())
    return notFolded("it takes " + std::to_string(positional.size()) + " positional arguments");
  Frame callee;
  callee.function = &def;
  std::map<std::string, FoldResult> given;
  for (size_t i = 0; i < call->args.size(); ++i) {
    FoldResult r = fold(call->args[i]);
    if (!r.isConstant())
      return notFolded(r.reason());
    given.emplace(positional[i]->name, std::move(r));
  }
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg.empty())
      return notFolded("it is called with `**`");
    FoldResult r = fold(k.value);
    if (!r.isConstant())
      return notFolded(r.reason());
    if (!given.emplace(k.arg, std::move(r)).second)
      return notFolded("it is given `" + k.arg + "` twice (TypeError)");
  }
  const size_t firstDefault = positional.size() - a.defaults.size();
  for (size_t i = 0; i < positional.size(); ++i)
    if (!given.count(positional[i]->name)) {
      if (i < firstDefault)
        return notFolded("its argument `" + positional[i]->name + "` is not given");
      FoldResult r = fold(a.defaults[i - firstDefault]);
      if (!r.isConstant())
        return notFolded(r.reason());
      given.emplace(positional[i]->name, std::move(r));
    }
  for (size_t i = 0; i < a.kwonlyargs.size(); ++i)
    if (!given.count(a.kwonlyargs[i].name)) {
      if (i >= a.kwDefaults.size() || a.kwDefaults[i] == nullptr)
        return notFolded("its argument `" + a.kwonlyargs[i].name + "` is not given");
      FoldResult r = fold(a.kwDefaults[i]);
      if (!r.isConstant())
        return notFolded(r.reason());
      given.emplace(a.kwonlyargs[i].name, std::move(r));
    }
  std::set<std::string> parameters;
  for (const ast::Arg* p : positional)
    parameters.insert(p->name);
  for (const ast::Arg& p : a.kwonlyargs)
    parameters.insert(p.name);
  for (const auto& [name, value] : given)
    if (!parameters.count(name))
      return notFolded("it has no parameter `" + name + "` (TypeError)");
  auto [known, isNew] = functionLocals_.try_emplace(&def);
  if (isNew)
    for (const ast::Stmt* s : def.body)
      collectLocals(s, known->second.names, known->second.rebindsGlobals);
  callee.locals = parameters;
  callee.locals.insert(known->second.names.begin(), known->second.names.end());
  if (known->second.rebindsGlobals)
    return notFolded("it rebinds module-level names (`global`)");
  for (auto& [name, value] : given) {
    Binding& b = callee.names[name];
    b.value = std::move(value);
    b.range = call->range;
  }
  frames_.push_back(std::move(callee));
  Flow flow = runBlock(def.body);
  Frame done = std::move(frames_.back());
  frames_.pop_back();
  if (flow == Flow::Stop)
    return notFolded(done.stopReason);
  if (flow != Flow::Return)
    return FoldResult::constant(ConstantValue::none());
  if (!done.returned.isConstant())
    return notFolded(done.returned.reason());
  lastCallOwn_ = done.returnedOwn;
  return done.returned;
}

void Executor::collectLocals(const ast::Node* node, std::set<std::string>& locals,
                             bool& rebindsGlobals) {
  if (node == nullptr || node->is<ast::Lambda>() || node->is<ast::ClassDef>())
    return;
  if (const auto* def = node->as<ast::FunctionDef>()) {
    locals.insert(def->name);
    return;
  }
  if (node->is<ast::Global>() || node->is<ast::Nonlocal>())
    rebindsGlobals = true;
  if (const auto* n = node->as<ast::Name>(); n != nullptr && n->ctx == ast::ExprContext::Store)
    locals.insert(n->id);
  ast::forEachChild(const_cast<ast::Node*>(node),
                    [&](ast::Node* child) { collectLocals(child, locals, rebindsGlobals); });
}

} // namespace execution

std::map<std::string, ExecutedName>
executeModule(const ast::Module& module, const ModuleSymbolTable& symbols, const SourceFile* file) {
  return execution::Executor(module, symbols, file).run();
}

} // namespace pyk::sema
