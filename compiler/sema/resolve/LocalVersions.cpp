// LocalVersions: numba's SSA construction over the structured AST (see LocalVersions.h): one walk
// in execution order carrying the current version of every variable, phis made where the paths
// of an `if` or a loop join with different versions, loop heads given a phi for every variable
// the loop assigns.
#include "sema/resolve/LocalVersions.h"

#include <algorithm>
#include <map>
#include <set>

#include "sema/resolve/NameBinding.h"
#include "sema/resolve/ScopeWalk.h"

namespace pyk::sema {

namespace {

class VersionBuilder {
public:
  explicit VersionBuilder(const FunctionScope& scope) : scope_(scope) {
    const size_t variables = scope.params.size() + scope.locals.size();
    env_.current.assign(variables, kNoVersion);
    for (size_t p = 0; p < scope.params.size(); ++p) {
      LocalVersion v;
      v.kind = LocalVersion::Kind::Entry;
      v.variable = p;
      env_.current[p] = add(std::move(v));
    }
  }

  LocalVersions run(const std::vector<ast::Stmt*>& body) {
    block(body);
    // A name bound by a statement kernels cannot hold (`import`, a nested `def`...) was reported
    // by resolution: its reads are not reported again.
    std::erase_if(out_.unassignedReads, [&](const ast::Name* n) {
      std::optional<VariableId> v = variableOf(n);
      return v && otherwiseBound_.count(*v);
    });
    markLivePhis();
    for (size_t i = 0; i < out_.versions.size(); ++i) {
      if (!out_.versions[i].live)
        continue;
      for (const PhiInput& in : out_.versions[i].inputs) {
        std::vector<size_t>& users = out_.versions[in.version].usedByPhis;
        if (in.version != i && std::find(users.begin(), users.end(), i) == users.end())
          users.push_back(i);
      }
    }
    return std::move(out_);
  }

private:
  struct Env {
    std::vector<size_t> current;
    bool reachable = true;
  };
  struct Incoming {
    Env env;
    PhiEdge edge;
    const ast::Node* at;
  };
  struct Loop {
    std::vector<Incoming> continues;
    std::vector<Incoming> breaks;
  };

  // A phi lives when a read sees it, or it flows into a live phi; the join tables keep the
  // live ones only.
  void markLivePhis() {
    std::vector<size_t> pending;
    for (size_t i = 0; i < out_.versions.size(); ++i) {
      LocalVersion& v = out_.versions[i];
      if (v.kind != LocalVersion::Kind::Phi)
        continue;
      v.live = v.reads != 0;
      if (v.live)
        pending.push_back(i);
    }
    while (!pending.empty()) {
      const size_t phi = pending.back();
      pending.pop_back();
      for (const PhiInput& in : out_.versions[phi].inputs) {
        LocalVersion& from = out_.versions[in.version];
        if (from.kind == LocalVersion::Kind::Phi && !from.live) {
          from.live = true;
          pending.push_back(in.version);
        }
      }
    }
    for (auto* table : {&out_.joinPhis, &out_.headPhis})
      for (auto& [at, phis] : *table)
        std::erase_if(phis, [&](size_t p) { return !out_.versions[p].live; });
  }

  size_t add(LocalVersion v) {
    out_.versions.push_back(std::move(v));
    return out_.versions.size() - 1;
  }

  std::optional<VariableId> variableOf(const ast::Name* n) const {
    auto it = scope_.names.find(n);
    if (it == scope_.names.end())
      return std::nullopt;
    if (it->second.kind == NameBinding::Kind::Parameter)
      return it->second.index;
    if (it->second.kind == NameBinding::Kind::Local)
      return scope_.params.size() + it->second.index;
    return std::nullopt;
  }

  // The variable's Undefined version, made at its first read that no assignment reaches.
  size_t undefinedVersionOf(VariableId var) {
    if (auto it = undefined_.find(var); it != undefined_.end())
      return it->second;
    LocalVersion v;
    v.kind = LocalVersion::Kind::Undefined;
    v.variable = var;
    const size_t id = add(std::move(v));
    undefined_[var] = id;
    return id;
  }

  // ---- reads and writes ----
  void read(const ast::Name* n) {
    std::optional<VariableId> var = variableOf(n);
    if (!var)
      return;
    out_.ofName[n] = versionRead(n, *var);
  }

  // The version a read `n` of `var` sees, its reads counted: the current one, else (no
  // assignment reaches it) the variable's Undefined version, the read noted for the warning. In
  // code no path reaches (after a `return`), numba types nothing: no warning there.
  size_t versionRead(const ast::Name* n, VariableId var) {
    size_t v = env_.current[var];
    if (v == kNoVersion) {
      if (env_.reachable)
        out_.unassignedReads.push_back(n);
      v = undefinedVersionOf(var);
    }
    ++out_.versions[v].reads;
    return v;
  }

  void define(const ast::Name* n) {
    std::optional<VariableId> var = variableOf(n);
    if (!var)
      return;
    LocalVersion v;
    v.kind = LocalVersion::Kind::Def;
    v.variable = *var;
    v.name = n;
    const size_t id = add(std::move(v));
    env_.current[*var] = id;
    out_.ofName[n] = id;
  }

  // The reads of an expression, in evaluation order; `:=` defines its target after its value.
  void reads(const ast::Expr* e) {
    if (e == nullptr)
      return;
    if (const auto* n = e->as<ast::Name>()) {
      if (n->ctx == ast::ExprContext::Store)
        define(n);
      else
        read(n);
      return;
    }
    if (const auto* w = e->as<ast::NamedExpr>()) {
      reads(w->value);
      store(w->target);
      return;
    }
    if (const auto* i = e->as<ast::IfExp>()) {
      reads(i->test);
      reads(i->body);
      reads(i->orelse);
      return;
    }
    if (opensScope(e))
      return;
    ast::forEachChild(const_cast<ast::Expr*>(e), [&](ast::Node* child) {
      if (const auto* ce = child->as<ast::Expr>())
        reads(ce);
    });
  }

  // An assignment target, after the value is computed.
  void store(const ast::Expr* target) {
    if (const auto* n = target->as<ast::Name>())
      return define(n);
    if (const auto* t = target->as<ast::Tuple>()) {
      for (const ast::Expr* e : t->elts)
        store(e);
      return;
    }
    if (const auto* l = target->as<ast::List>()) {
      for (const ast::Expr* e : l->elts)
        store(e);
      return;
    }
    if (const auto* s = target->as<ast::Starred>())
      return store(s->value);
    if (const auto* s = target->as<ast::Subscript>()) {
      reads(s->value);
      reads(s->slice);
      return;
    }
    if (const auto* a = target->as<ast::Attribute>())
      return reads(a->value);
    reads(target);
  }

  // ---- joins ----
  // The state after paths join at `at`: each variable's one version where the reachable paths
  // agree, else a phi of theirs.
  Env join(const ast::Node* at, const std::vector<Incoming>& paths) {
    std::vector<const Incoming*> live;
    for (const Incoming& p : paths)
      if (p.env.reachable)
        live.push_back(&p);
    if (live.empty()) {
      Env dead = paths.empty() ? env_ : paths.front().env;
      dead.reachable = false;
      return dead;
    }
    Env out;
    out.current.assign(env_.current.size(), kNoVersion);
    for (size_t var = 0; var < out.current.size(); ++var) {
      std::set<size_t> distinct;
      for (const Incoming* p : live)
        if (p->env.current[var] != kNoVersion)
          distinct.insert(p->env.current[var]);
      if (distinct.size() <= 1) {
        out.current[var] = distinct.empty() ? kNoVersion : *distinct.begin();
        continue;
      }
      LocalVersion phi;
      phi.kind = LocalVersion::Kind::Phi;
      phi.variable = var;
      phi.join = at;
      for (const Incoming* p : live)
        if (p->env.current[var] != kNoVersion)
          phi.inputs.push_back({p->env.current[var], p->edge, p->at});
      const size_t id = add(std::move(phi));
      out_.joinPhis[at].push_back(id);
      out.current[var] = id;
    }
    return out;
  }

  // The variables a loop's target and body assign (nested loops included, nested scopes not).
  std::vector<VariableId> assignedIn(const ast::Expr* target, const std::vector<ast::Stmt*>& body) {
    std::set<VariableId> vars;
    auto visit = [&](ast::Node* node) {
      if (const auto* n = node->as<ast::Name>(); n && n->ctx == ast::ExprContext::Store)
        if (std::optional<VariableId> v = variableOf(n))
          vars.insert(*v);
      return true;
    };
    if (target != nullptr)
      walkScope(const_cast<ast::Expr*>(target), visit);
    walkScope(body, visit);
    return {vars.begin(), vars.end()};
  }

  // A `for` or `while`: phis at the head for what the loop assigns, the body, the back edges
  // into those phis, then the `else` on the normal exit and the join with the `break`s.
  void loop(const ast::Stmt* s, const ast::Expr* target, const ast::Expr* test,
            const std::vector<ast::Stmt*>& body, const std::vector<ast::Stmt*>& orelse) {
    const std::vector<VariableId> assigned = assignedIn(target, body);
    std::vector<size_t> heads;
    for (VariableId var : assigned) {
      LocalVersion phi;
      phi.kind = LocalVersion::Kind::Phi;
      phi.variable = var;
      phi.join = s;
      if (env_.current[var] != kNoVersion && env_.reachable)
        phi.inputs.push_back({env_.current[var], PhiEdge::LoopEntry, s});
      const size_t id = add(std::move(phi));
      heads.push_back(id);
      out_.headPhis[s].push_back(id);
      env_.current[var] = id;
    }
    reads(test);
    const Env head = env_;
    loops_.emplace_back();
    if (target != nullptr)
      store(target);
    block(body);
    Loop ctx = std::move(loops_.back());
    loops_.pop_back();
    std::vector<Incoming> back;
    if (env_.reachable)
      back.push_back({env_, PhiEdge::LoopBack, s});
    for (Incoming& c : ctx.continues)
      back.push_back(std::move(c));
    for (size_t k = 0; k < assigned.size(); ++k)
      for (const Incoming& b : back)
        if (b.env.current[assigned[k]] != kNoVersion)
          out_.versions[heads[k]].inputs.push_back({b.env.current[assigned[k]], b.edge, b.at});
    env_ = head;
    block(orelse);
    std::vector<Incoming> exits;
    exits.push_back({env_, PhiEdge::LoopExit, s});
    for (Incoming& b : ctx.breaks)
      exits.push_back(std::move(b));
    env_ = join(s, exits);
  }

  // ---- statements ----
  void block(const std::vector<ast::Stmt*>& body) {
    for (const ast::Stmt* s : body)
      statement(s);
  }

  void statement(const ast::Stmt* s) {
    switch (s->kind) {
    case ast::NodeKind::Assign: {
      const auto* a = s->as<ast::Assign>();
      reads(a->value);
      for (const ast::Expr* t : a->targets) {
        store(t);
        if (const auto* n = t->as<ast::Name>(); n && out_.ofName.count(n))
          out_.versions[out_.ofName[n]].value = a->value;
      }
      return;
    }
    case ast::NodeKind::AugAssign: {
      const auto* a = s->as<ast::AugAssign>();
      if (const auto* n = a->target->as<ast::Name>()) {
        reads(a->value);
        if (std::optional<VariableId> var = variableOf(n))
          out_.augmentedRead[a] = versionRead(n, *var);
        define(n);
      } else {
        store(a->target);
        reads(a->value);
      }
      return;
    }
    case ast::NodeKind::AnnAssign: {
      const auto* a = s->as<ast::AnnAssign>();
      if (a->value != nullptr) {
        reads(a->value);
        store(a->target);
        if (const auto* n = a->target->as<ast::Name>(); n && out_.ofName.count(n))
          out_.versions[out_.ofName[n]].value = a->value;
      }
      return;
    }
    case ast::NodeKind::ExprStmt:
      return reads(s->as<ast::ExprStmt>()->value);
    case ast::NodeKind::Return:
      reads(s->as<ast::Return>()->value);
      env_.reachable = false;
      return;
    case ast::NodeKind::Raise:
      reads(s->as<ast::Raise>()->exc);
      reads(s->as<ast::Raise>()->cause);
      env_.reachable = false;
      return;
    case ast::NodeKind::Assert:
      reads(s->as<ast::Assert>()->test);
      reads(s->as<ast::Assert>()->msg);
      return;
    case ast::NodeKind::If: {
      const auto* i = s->as<ast::If>();
      reads(i->test);
      const Env start = env_;
      block(i->body);
      Incoming then{env_, PhiEdge::IfThen, s};
      env_ = start;
      block(i->orelse);
      Incoming otherwise{env_, PhiEdge::IfElse, s};
      env_ = join(s, {std::move(then), std::move(otherwise)});
      return;
    }
    case ast::NodeKind::While: {
      const auto* w = s->as<ast::While>();
      return loop(s, nullptr, w->test, w->body, w->orelse);
    }
    case ast::NodeKind::For: {
      const auto* f = s->as<ast::For>();
      reads(f->iter);
      return loop(s, f->target, nullptr, f->body, f->orelse);
    }
    case ast::NodeKind::Break:
      if (!loops_.empty())
        loops_.back().breaks.push_back({env_, PhiEdge::Break, s});
      env_.reachable = false;
      return;
    case ast::NodeKind::Continue:
      if (!loops_.empty())
        loops_.back().continues.push_back({env_, PhiEdge::Continue, s});
      env_.reachable = false;
      return;
    default:
      // pass, and the statements kernels cannot hold (reported by resolution): their reads
      // still see a version, so that typing them says nothing misleading, and the names they
      // bind are not reported as unassigned.
      walkScope(const_cast<ast::Stmt*>(s), [&](ast::Node* node) {
        if (const auto* n = node->as<ast::Name>(); n && n->ctx == ast::ExprContext::Store)
          if (std::optional<VariableId> v = variableOf(n))
            otherwiseBound_.insert(*v);
        return true;
      });
      bindsByName(s);
      ast::forEachChild(const_cast<ast::Stmt*>(s), [&](ast::Node* child) {
        if (const auto* e = child->as<ast::Expr>())
          reads(e);
      });
      return;
    }
  }

  // Names an import, a nested def or class, a `with` or an `except` binds.
  void bindsByName(const ast::Stmt* s) {
    std::vector<std::string> names;
    if (const auto* i = s->as<ast::Import>())
      for (const ast::Alias& a : i->names)
        names.push_back(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
    if (const auto* i = s->as<ast::ImportFrom>())
      for (const ast::Alias& a : i->names)
        names.push_back(a.asname.empty() ? a.name : a.asname);
    if (const auto* f = s->as<ast::FunctionDef>())
      names.push_back(f->name);
    if (const auto* c = s->as<ast::ClassDef>())
      names.push_back(c->name);
    if (const auto* t = s->as<ast::Try>())
      for (const ast::ExceptHandler& h : t->handlers)
        if (!h.name.empty())
          names.push_back(h.name);
    for (const std::string& n : names) {
      auto p = std::find(scope_.params.begin(), scope_.params.end(), n);
      if (p != scope_.params.end()) {
        otherwiseBound_.insert(static_cast<size_t>(p - scope_.params.begin()));
        continue;
      }
      auto l = std::find(scope_.locals.begin(), scope_.locals.end(), n);
      if (l != scope_.locals.end())
        otherwiseBound_.insert(scope_.params.size() +
                               static_cast<size_t>(l - scope_.locals.begin()));
    }
  }

  const FunctionScope& scope_;
  std::set<VariableId> otherwiseBound_;
  std::map<VariableId, size_t> undefined_; // each variable's Undefined version
  LocalVersions out_;
  Env env_;
  std::vector<Loop> loops_;
};

} // namespace

LocalVersions buildLocalVersions(const std::vector<ast::Stmt*>& body, const FunctionScope& scope) {
  return VersionBuilder(scope).run(body);
}

const char* nameOf(PhiEdge edge) {
  static const char* const kNames[] = {"then",     "else",  "entry", "back",
                                       "continue", "break", "exit"};
  return kNames[static_cast<size_t>(edge)];
}

} // namespace pyk::sema
