// ModuleExecutionNames: the executor's names (ModuleExecutionInternal.h): their bindings in the
// module's and the calls' frames, the names each value was computed from, what is left unknown
// when code cannot be followed; the folding of values, of the values a loop takes, and of
// assignments.
#include <algorithm>
#include <functional>

#include "diag/Diagnostic.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/fold/ModuleExecutionInternal.h"
#include "sema/resolve/AssignmentTargets.h"
#include "sema/resolve/DottedName.h"

namespace pyk::sema::execution {

bool holdsArray(const ConstantValue& v) {
  if (v.kind == Kind::Array)
    return true;
  if (v.kind == Kind::Tuple)
    for (const ConstantValue& e : v.elements)
      if (holdsArray(e))
        return true;
  return false;
}

// The name an expression stores through (`a` of `a[i].x`), or null.
const ast::Name* storeRoot(const ast::Expr* e) {
  while (e != nullptr) {
    if (const auto* n = e->as<ast::Name>())
      return n;
    if (const auto* s = e->as<ast::Subscript>())
      e = s->value;
    else if (const auto* a = e->as<ast::Attribute>())
      e = a->value;
    else
      return nullptr;
  }
  return nullptr;
}

void collectTargetNamesInto(const ast::Expr* target, std::set<std::string>& out) {
  std::vector<std::string> names;
  collectTargetNames(target, names);
  out.insert(names.begin(), names.end());
}

// Whether `value` makes an array of its own: a numpy constructor, an arithmetic operator, a
// copy. Anything else (a name, an item, `.T`, `reshape`, `np.asarray`) may share memory.
bool makesOwnArray(const ast::Expr* value, const ModuleSymbolTable& symbols) {
  if (value->is<ast::BinOp>() || value->is<ast::UnaryOp>())
    return true;
  const auto* call = value->as<ast::Call>();
  if (call == nullptr)
    return false;
  if (const auto* method = call->func->as<ast::Attribute>();
      method != nullptr && !importedQualifiedName(call->func, symbols))
    return method->attr == "copy" || method->attr == "astype";
  std::optional<std::string> q = importedQualifiedName(call->func, symbols);
  return q && hostArrayEffect(*q) == HostArrayEffect::MakesNewArray;
}

std::optional<FoldResult> Executor::lookup(const std::string& name) {
  Frame& f = frame();
  for (auto scope = f.comprehensions.rbegin(); scope != f.comprehensions.rend(); ++scope)
    if (auto it = scope->find(name); it != scope->end())
      return FoldResult::constant(it->second);
  auto valueOf = [&](const Binding& b) {
    if (b.value.isConstant())
      steps_ += static_cast<int64_t>(b.value.value().elements.size()); // the copy read
    return b.value.isConstant() || f.function != nullptr
               ? b.value
               : FoldResult::notConstant("`" + name + "` is not a compile-time constant");
  };
  if (f.function != nullptr) {
    if (auto it = f.names.find(name); it != f.names.end())
      return it->second.value;
    if (f.locals.count(name))
      return FoldResult::notConstant("`" + name + "` is used before it is assigned in `" +
                                     f.function->name + "`");
  }
  Frame& m = frames_.front();
  if (auto it = m.names.find(name); it != m.names.end())
    return valueOf(it->second);
  if (assignedAtModuleLevel_.count(name) && !rebound_.count(name))
    return FoldResult::notConstant("`" + name + "` is not assigned before this point");
  return std::nullopt;
}

std::pair<Frame*, Binding*> Executor::bindingOf(const std::string& name) {
  Frame& f = frame();
  if (f.function != nullptr && f.locals.count(name)) {
    auto it = f.names.find(name);
    return {&f, it == f.names.end() ? nullptr : &it->second};
  }
  Frame& m = frames_.front();
  auto it = m.names.find(name);
  return {&m, it == m.names.end() ? nullptr : &it->second};
}

std::set<std::string> Executor::arraySources(const ast::Expr* e) {
  std::set<std::string> out;
  eachOf<ast::Name>(e, [&](const ast::Name* n) {
    auto [f, b] = bindingOf(n->id);
    (void)f;
    if (b != nullptr && (b->list || !b->value.isConstant() || holdsArray(b->value.value())))
      out.insert(n->id);
  });
  return out;
}

void Executor::bind(const std::string& name, FoldResult value, SourceRange range, bool ownArray,
                    std::set<std::string> sources, bool list) {
  Frame& f = (inFunction() && frame().locals.count(name)) ? frame() : frames_.front();
  if (value.isConstant())
    spend(value.value());
  Binding& b = f.names[name];
  if (!value.isConstant() && !b.value.isConstant() && !b.value.reason().empty() &&
      value.reason() == "`" + name + "` is not a compile-time constant")
    return; // `s = s + s` of an unknown `s`: its first cause is the one to tell
  b.value = std::move(value);
  b.range = range;
  b.ownArray = ownArray;
  b.list = list;
  b.sources = std::move(sources);
  b.sources.erase(name);
}

void Executor::setUnknown(const std::string& name, const std::string& reason, SourceRange range) {
  auto [f, b] = bindingOf(name);
  (void)b;
  Binding& slot = f->names[name];
  if (!slot.value.isConstant() && !slot.value.reason().empty())
    return; // unknown already: its first cause is the one to tell
  slot.value = FoldResult::notConstant(reason);
  slot.range = range;
  slot.ownArray = false;
}

void Executor::changeUnknown(const std::string& name, const std::string& reason,
                             SourceRange range) {
  Frame* f = bindingOf(name).first;
  std::set<std::string> component{name}, frontier{name};
  while (!frontier.empty()) {
    std::set<std::string> next;
    for (auto& [other, b] : f->names) {
      if (component.count(other))
        continue;
      bool linked = false;
      for (const std::string& s : b.sources)
        linked = linked || frontier.count(s) != 0;
      for (const std::string& s : frontier)
        if (auto it = f->names.find(s); it != f->names.end())
          linked = linked || it->second.sources.count(other) != 0;
      if (linked)
        next.insert(other);
    }
    component.insert(next.begin(), next.end());
    frontier = std::move(next);
  }
  for (const std::string& n : component)
    if (f->names.count(n) || n == name)
      setUnknown(n, reason, range);
}

void Executor::dependentsUnknown(const std::string& name, const std::string& reason,
                                 SourceRange range) {
  Frame* f = bindingOf(name).first;
  std::set<std::string> reached{name};
  bool grew = true;
  while (grew) {
    grew = false;
    for (auto& [other, b] : f->names)
      if (!reached.count(other))
        for (const std::string& s : b.sources)
          if (reached.count(s)) {
            reached.insert(other);
            grew = true;
            break;
          }
  }
  reached.erase(name);
  for (const std::string& n : reached)
    setUnknown(n, reason, range);
}

void Executor::spend(const ConstantValue& v) {
  steps_ += 1;
  if (v.kind == Kind::Array && v.array)
    steps_ += v.array->size() / 1024;
}

void Executor::unknownBlock(const std::vector<ast::Stmt*>& body, const std::string& reason) {
  for (const ast::Stmt* s : body)
    unknownStatement(s, reason);
}

void Executor::unknownTarget(const ast::Expr* target, const std::string& reason,
                             SourceRange range) {
  if (target == nullptr)
    return;
  if (target->is<ast::Name>() || target->is<ast::Tuple>() || target->is<ast::List>() ||
      target->is<ast::Starred>()) {
    std::vector<std::string> names;
    collectTargetNames(target, names);
    for (const std::string& n : names)
      setUnknown(n, reason, range);
    if (const auto* t = target->as<ast::Tuple>())
      for (const ast::Expr* e : t->elts)
        if (!e->is<ast::Name>())
          unknownTarget(e, reason, range);
    return;
  }
  if (const ast::Name* root = storeRoot(target))
    changeUnknown(root->id, reason, range);
}

void Executor::unknownStatement(const ast::Stmt* s, const std::string& reason) {
  unknownCalls(s, " in code pyk does not follow (" + reason + ")");
  if (const auto* a = s->as<ast::Assign>()) {
    for (const ast::Expr* t : a->targets)
      unknownTarget(t, reason, s->range);
  } else if (const auto* a = s->as<ast::AugAssign>()) {
    unknownTarget(a->target, reason, s->range);
  } else if (const auto* a = s->as<ast::AnnAssign>()) {
    if (a->value != nullptr)
      unknownTarget(a->target, reason, s->range);
  } else if (const auto* f = s->as<ast::For>()) {
    unknownTarget(f->target, reason, s->range);
    unknownBlock(f->body, reason);
    unknownBlock(f->orelse, reason);
  } else if (const auto* w = s->as<ast::While>()) {
    unknownBlock(w->body, reason);
    unknownBlock(w->orelse, reason);
  } else if (const auto* i = s->as<ast::If>()) {
    unknownBlock(i->body, reason);
    unknownBlock(i->orelse, reason);
  } else if (const auto* t = s->as<ast::Try>()) {
    unknownBlock(t->body, reason);
    for (const ast::ExceptHandler& h : t->handlers) {
      if (!h.name.empty())
        setUnknown(h.name, reason, h.range);
      unknownBlock(h.body, reason);
    }
    unknownBlock(t->orelse, reason);
    unknownBlock(t->finalbody, reason);
  } else if (const auto* w = s->as<ast::With>()) {
    for (const ast::WithItem& item : w->items)
      unknownTarget(item.optionalVars, reason, s->range);
    unknownBlock(w->body, reason);
  } else if (const auto* m = s->as<ast::Match>()) {
    for (const ast::MatchCase& c : m->cases)
      unknownBlock(c.body, reason);
  } else if (const auto* d = s->as<ast::Delete>()) {
    for (const ast::Expr* t : d->targets)
      unknownTarget(t, reason, s->range);
  }
}

void Executor::unknownCalls(const ast::Node* node, const std::string& why) {
  eachOf<ast::Call>(node, [&](const ast::Call* c) {
    if (readsOnly(c))
      return;
    const std::string callee = "`" + dottedName(c->func) + "`";
    auto mark = [&](const ast::Expr* e, const std::string& how) {
      for (const std::string& n : arraySources(e))
        changeUnknown(n, how + why, c->range);
    };
    for (const ast::Expr* a : c->args)
      mark(a, "it is passed to " + callee);
    for (const ast::Keyword& k : c->keywords)
      mark(k.value, "it is passed to " + callee);
    if (const auto* method = c->func->as<ast::Attribute>())
      mark(method->value, "its method " + callee + " is called");
  });
}

bool Executor::readsOnly(const ast::Call* c) const {
  // Builtins and numpy's and numba's functions that change none of their arguments
  // (ModuleApiCatalog's hostArrayEffect), called without `out=`.
  static const std::set<std::string> builtins = {"print", "len",  "repr", "str",
                                                 "id",    "type", "hash", "isinstance"};
  for (const ast::Keyword& k : c->keywords)
    if (k.arg == "out")
      return false;
  if (const auto* n = c->func->as<ast::Name>();
      n != nullptr && builtins.count(n->id) && symbols_.find(n->id) == nullptr)
    return true;
  std::optional<std::string> q = importedQualifiedName(c->func, symbols_);
  return q && hostArrayEffect(*q) != HostArrayEffect::Unknown;
}

std::string Executor::notRun(const std::string& reason) {
  return ", which pyk does not run at module level (" + reason + ")";
}

Flow Executor::cannotFollow(const ast::Stmt* s, const std::string& reason) {
  if (inFunction()) {
    frame().stopReason = reason;
    return Flow::Stop;
  }
  unknownStatement(s, reason);
  return Flow::Normal;
}

FoldResult Executor::fold(const ast::Expr* e) {
  FoldResult r = folder_.fold(e);
  if (r.status() == FoldResult::Status::Error) {
    raised_ = true;
    std::string message = formatMessage(formatOf(r.errorKind()), r.errorArgs());
    return FoldResult::notConstant("computing its value raises an error (" + message + ")",
                                   r.range());
  }
  return r;
}

std::optional<std::vector<ConstantValue>> Executor::iterationValues(const ast::Expr* iter,
                                                                    std::string& reason) {
  if (const auto* call = iter->as<ast::Call>()) {
    const auto* callee = call->func->as<ast::Name>();
    const std::string builtin =
        callee != nullptr && !symbols_.find(callee->id) && !lookup(callee->id) ? callee->id : "";
    if (builtin == "range" && call->keywords.empty() && !call->args.empty() &&
        call->args.size() <= 3) {
      std::vector<__int128> bounds;
      for (const ast::Expr* a : call->args) {
        FoldResult r = fold(a);
        if (!r.isConstant() || !isIntegral(r.value())) {
          reason = r.isConstant() ? "a bound of `range` is not an integer" : r.reason();
          return std::nullopt;
        }
        bounds.push_back(asInt(r.value()));
      }
      __int128 start = bounds.size() > 1 ? bounds[0] : 0;
      __int128 stop = bounds.size() > 1 ? bounds[1] : bounds[0];
      __int128 step = bounds.size() > 2 ? bounds[2] : 1;
      if (step == 0) {
        reason = "`range` is given a step of 0";
        return std::nullopt;
      }
      std::vector<ConstantValue> out;
      for (__int128 i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (static_cast<int64_t>(out.size()) >= kMaxIterations) {
          reason = "it runs more than " + std::to_string(kMaxIterations) + " times";
          return std::nullopt;
        }
        out.push_back(ConstantValue::pythonInt(i));
      }
      return out;
    }
    if ((builtin == "enumerate" || builtin == "zip" || builtin == "reversed") &&
        call->keywords.empty() && !call->args.empty()) {
      std::vector<std::vector<ConstantValue>> lists;
      for (const ast::Expr* a : call->args) {
        auto values = iterationValues(a, reason);
        if (!values)
          return std::nullopt;
        lists.push_back(std::move(*values));
      }
      std::vector<ConstantValue> out;
      if (builtin == "reversed" && lists.size() == 1)
        return std::vector<ConstantValue>(lists[0].rbegin(), lists[0].rend());
      if (builtin == "enumerate" && lists.size() == 1) {
        for (size_t i = 0; i < lists[0].size(); ++i)
          out.push_back(ConstantValue::tuple(
              {ConstantValue::pythonInt(static_cast<__int128>(i)), lists[0][i]}));
        return out;
      }
      if (builtin == "zip") {
        size_t n = lists[0].size();
        for (const auto& l : lists)
          n = std::min(n, l.size());
        for (size_t i = 0; i < n; ++i) {
          std::vector<ConstantValue> item;
          for (const auto& l : lists)
            item.push_back(l[i]);
          out.push_back(ConstantValue::tuple(std::move(item)));
        }
        return out;
      }
    }
  }
  FoldResult r = fold(iter);
  if (!r.isConstant()) {
    reason = r.reason();
    return std::nullopt;
  }
  const ConstantValue& v = r.value();
  if (v.kind == Kind::Tuple)
    return v.elements;
  if (v.kind == Kind::Str) {
    std::vector<ConstantValue> out;
    for (size_t i = 0; i < v.strValue.size();) { // one code point each
      size_t n = 1;
      const auto c = static_cast<unsigned char>(v.strValue[i]);
      n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      out.push_back(ConstantValue::string(v.strValue.substr(i, n)));
      i += n;
    }
    return out;
  }
  if (v.kind == Kind::Array && v.array && v.array->shape.size() == 1 && !v.array->isRecordArray())
    return v.array->values;
  reason = "pyk follows loops over `range`, `enumerate`, `zip`, tuples, strings and 1-d arrays, "
           "not over " +
           v.typeDescription();
  return std::nullopt;
}

FoldResult Executor::comprehension(const ast::Expr* elt,
                                   const std::vector<ast::Comprehension>& generators) {
  std::vector<ConstantValue> items;
  std::string reason;
  // Binds a comprehension's target (a name or a tuple of them) in the innermost scope.
  std::function<bool(const ast::Expr*, const ConstantValue&)> bindTarget =
      [&](const ast::Expr* target, const ConstantValue& v) {
        if (const auto* n = target->as<ast::Name>()) {
          frame().comprehensions.back()[n->id] = v;
          return true;
        }
        const auto* t = target->as<ast::Tuple>();
        if (t == nullptr || v.kind != Kind::Tuple || v.elements.size() != t->elts.size()) {
          reason = "a comprehension's target is not folded";
          return false;
        }
        for (size_t i = 0; i < t->elts.size(); ++i)
          if (!bindTarget(t->elts[i], v.elements[i]))
            return false;
        return true;
      };
  std::function<bool(size_t)> run = [&](size_t g) {
    const ast::Comprehension& gen = generators[g];
    if (gen.isAsync) {
      reason = "an async comprehension";
      return false;
    }
    std::optional<std::vector<ConstantValue>> values = iterationValues(gen.iter, reason);
    if (!values)
      return false;
    for (const ConstantValue& v : *values) {
      if (++steps_ > kExecutionBudget) {
        reason = "pyk stops following the module's code after " + std::to_string(kExecutionBudget) +
                 " steps";
        return false;
      }
      if (!bindTarget(gen.target, v))
        return false;
      bool keep = true;
      for (const ast::Expr* test : gen.ifs) {
        FoldResult t = fold(test);
        std::optional<bool> truth = t.isConstant() ? truthValue(t.value()) : std::nullopt;
        if (!truth) {
          reason = t.isConstant() ? "the truth value of an array is not a constant" : t.reason();
          return false;
        }
        keep = keep && *truth;
        if (!keep)
          break;
      }
      if (!keep)
        continue;
      if (g + 1 < generators.size()) {
        if (!run(g + 1))
          return false;
        continue;
      }
      FoldResult item = fold(elt);
      if (!item.isConstant()) {
        reason = item.reason();
        return false;
      }
      items.push_back(item.value());
    }
    return true;
  };
  frame().comprehensions.emplace_back();
  const bool done = !generators.empty() && run(0);
  frame().comprehensions.pop_back();
  if (!done)
    return FoldResult::notConstant("a comprehension is not folded: " + reason);
  return FoldResult::constant(ConstantValue::tuple(std::move(items)));
}

bool Executor::assign(const ast::Expr* target, const FoldResult& value, SourceRange range,
                      bool ownArray, const std::set<std::string>& sources, std::string& reason,
                      bool list) {
  if (const auto* n = target->as<ast::Name>()) {
    bind(n->id, value, range, ownArray, sources, list);
    return true;
  }
  if (const std::vector<ast::Expr*>* elements = ast::tupleOrListElements(target)) {
    bool starred = false;
    for (const ast::Expr* e : *elements)
      starred = starred || e->is<ast::Starred>();
    if (!value.isConstant() || starred || value.value().kind != Kind::Tuple ||
        value.value().elements.size() != elements->size()) {
      reason = !value.isConstant() ? value.reason()
               : starred           ? "starred unpacking is not folded"
               : value.value().kind != Kind::Tuple
                   ? "unpacking " + value.value().typeDescription() + " is not folded"
                   : "the tuple has " + std::to_string(value.value().elements.size()) +
                         " values, not " + std::to_string(elements->size());
      return false;
    }
    for (size_t i = 0; i < elements->size(); ++i)
      if (!assign((*elements)[i], FoldResult::constant(value.value().elements[i]), range, false,
                  sources, reason))
        return false;
    return true;
  }
  if (const auto* s = target->as<ast::Subscript>()) {
    if (list) {
      reason = "a list is stored inside a list or array";
      return false;
    }
    return storeItem(s, value, range, reason);
  }
  reason = "an attribute of an object is assigned";
  return false;
}

} // namespace pyk::sema::execution
