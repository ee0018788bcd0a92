// CpuExecutionPlan: finds the thread-model operations a kernel uses and, for block barriers,
// plans the split into regions and decides where each local lives.
#include "codegen/CpuExecutionPlan.h"

#include <algorithm>
#include <functional>
#include <map>

#include "codegen/UniformityAnalysis.h"

namespace pyk::codegen {

using sema::Specialization;

const char* nameOf(CpuExecutionMode mode) {
  switch (mode) {
  case CpuExecutionMode::Loop:
    return "loop";
  case CpuExecutionMode::Split:
    return "split";
  case CpuExecutionMode::Fiber:
    return "fiber";
  }
  return "?";
}

namespace {

const std::set<std::string> kBarriers = {"numba.cuda.syncthreads", "numba.cuda.syncthreads_count",
                                         "numba.cuda.syncthreads_and", "numba.cuda.syncthreads_or"};
const std::set<std::string> kWarpOperations = {
    "numba.cuda.syncwarp",      "numba.cuda.activemask",     "numba.cuda.all_sync",
    "numba.cuda.any_sync",      "numba.cuda.eq_sync",        "numba.cuda.ballot_sync",
    "numba.cuda.shfl_sync",     "numba.cuda.shfl_up_sync",   "numba.cuda.shfl_down_sync",
    "numba.cuda.shfl_xor_sync", "numba.cuda.match_any_sync", "numba.cuda.match_all_sync"};

void walk(const ast::Node* n, const std::function<void(const ast::Node*)>& visit) {
  visit(n);
  ast::forEachChild(const_cast<ast::Node*>(n), [&](ast::Node* child) {
    if (child != nullptr)
      walk(child, visit);
  });
}

std::string where(const ast::Node* n) {
  return std::to_string(n->range.begin.line) + ":" + std::to_string(n->range.begin.column);
}

// The first call in `n` whose API is in `set`, or null.
const ast::Call* findCall(const Specialization& spec, const ast::Node* n,
                          const std::set<std::string>& set) {
  const ast::Call* found = nullptr;
  walk(n, [&](const ast::Node* x) {
    if (found == nullptr)
      if (const auto* c = x->as<ast::Call>())
        if (set.count(sema::qualifiedApiName(spec.function->scope, c->func)))
          found = c;
  });
  return found;
}

std::string apiOf(const Specialization& spec, const ast::Call* c) {
  std::string api = sema::qualifiedApiName(spec.function->scope, c->func);
  return api.rfind("numba.", 0) == 0 ? api.substr(6) : api;
}

class SplitPlanner {
public:
  SplitPlanner(const Specialization& kernel, bool hoist)
      : kernel_(kernel), uniformity_(kernel), hoist_(hoist) {}

  std::optional<BarrierSplitPlan> plan(std::string& whyNot) {
    BarrierSplitPlan plan;
    if (!steps(kernel_.function->def->body, plan.steps, whyNot))
      return std::nullopt;
    countAssignments();
    rematerialize(plan);
    distributeRegions(plan.steps, plan);
    if (hoist_)
      hoistUniformStatements(plan.steps, plan);
    for (SplitStep& step : plan.steps)
      if (step.kind == SplitStep::Kind::Region && !plan.rematerialized.empty() &&
          std::find(step.statements.begin(), step.statements.end(), plan.rematerialized[0]) !=
              step.statements.end())
        step.definesRematerialized = true;
    collectRegions(plan.steps, false);
    classify(plan);
    narrowRegions(plan.steps, plan);
    // A hoisted statement writes its local once for the block; a thread writing it too would need
    // a copy per thread. The caller then plans again without hoisting.
    if (hoist_)
      for (const std::string& name : hoistedTargets_)
        if (assignedInRegion_.count(name)) {
          whyNot = "hoisting";
          return std::nullopt;
        }
    for (const std::string& counter : loopCounters_)
      if (assignedInRegion_.count(counter)) {
        whyNot = "the counter `" + counter + "` of a loop with a barrier is assigned in the loop";
        return std::nullopt;
      }
    // A local array lives in its region's stack frame: one whose values must outlive the region
    // would need storage per thread, which only fibers give.
    std::string carriedLocalArray;
    walk(kernel_.function->def, [&](const ast::Node* n) {
      plan.hasReturn = plan.hasReturn || n->kind == ast::NodeKind::Return;
      const auto* a = n->as<ast::Assign>();
      const auto* c = a != nullptr ? a->value->as<ast::Call>() : nullptr;
      if (c == nullptr ||
          sema::qualifiedApiName(kernel_.function->scope, c->func) != "numba.cuda.local.array")
        return;
      for (const ast::Expr* t : a->targets)
        if (const auto* name = t->as<ast::Name>())
          if (plan.perThread.count(name->id) || plan.perBlock.count(name->id))
            carriedLocalArray = name->id + "` at " + where(a);
    });
    if (!carriedLocalArray.empty()) {
      whyNot = "the local array `" + carriedLocalArray + " is used on both sides of a barrier";
      return std::nullopt;
    }
    return plan;
  }

private:
  bool isLocal(const ast::Name* n) const {
    auto it = kernel_.function->scope.names.find(n);
    return it != kernel_.function->scope.names.end() &&
           it->second.kind == sema::NameBinding::Kind::Local;
  }
  bool containsBarrier(const ast::Node* n) const {
    return findCall(kernel_, n, kBarriers) != nullptr;
  }
  bool isBareBarrier(const ast::Stmt* s) const {
    const auto* e = s->as<ast::ExprStmt>();
    const ast::Call* c = e ? e->value->as<ast::Call>() : nullptr;
    return c != nullptr && c->args.empty() &&
           sema::qualifiedApiName(kernel_.function->scope, c->func) == "numba.cuda.syncthreads";
  }
  // A break or continue of this loop (not of one nested in it).
  static bool jumpsOutOf(const std::vector<ast::Stmt*>& body) {
    bool found = false;
    std::function<void(const ast::Node*)> visit = [&](const ast::Node* n) {
      if (n->kind == ast::NodeKind::Break || n->kind == ast::NodeKind::Continue)
        found = true;
      if (n->kind == ast::NodeKind::For || n->kind == ast::NodeKind::While)
        return; // its own jumps
      ast::forEachChild(const_cast<ast::Node*>(n), [&](ast::Node* c) {
        if (c != nullptr)
          visit(c);
      });
    };
    for (const ast::Stmt* s : body)
      visit(s);
    return found;
  }
  bool uniformControl(const ast::Expr* e, const ast::Stmt* s, const char* what,
                      std::string& whyNot) {
    if (uniformity_.uniform(e))
      return true;
    whyNot = std::string("a barrier under `") + what + "` at " + where(s) +
             " whose condition may differ between threads";
    return false;
  }

  bool steps(const std::vector<ast::Stmt*>& body, std::vector<SplitStep>& out,
             std::string& whyNot) {
    SplitStep* region = nullptr;
    for (const ast::Stmt* s : body) {
      if (isBareBarrier(s)) {
        region = nullptr;
        continue;
      }
      if (!containsBarrier(s)) {
        if (region == nullptr) {
          out.push_back(SplitStep{});
          region = &out.back();
        }
        region->statements.push_back(s);
        continue;
      }
      region = nullptr;
      SplitStep step;
      step.control = s;
      switch (s->kind) {
      case ast::NodeKind::For: {
        const auto* f = s->as<ast::For>();
        const auto* call = f->iter->as<ast::Call>();
        const auto* target = f->target->as<ast::Name>();
        if (call == nullptr ||
            sema::qualifiedApiName(kernel_.function->scope, call->func) != "range" ||
            target == nullptr || !f->orelse.empty() || jumpsOutOf(f->body)) {
          whyNot = "a barrier inside the `for` at " + where(s) +
                   " (only `for name in range(...)` without break, continue or else is split)";
          return false;
        }
        for (const ast::Expr* a : call->args)
          if (!uniformControl(a, s, "for", whyNot))
            return false;
        step.kind = SplitStep::Kind::For;
        loopCounters_.insert(target->id);
        controls_.push_back(call);
        if (!steps(f->body, step.body, whyNot))
          return false;
        break;
      }
      case ast::NodeKind::While: {
        const auto* w = s->as<ast::While>();
        if (!w->orelse.empty() || jumpsOutOf(w->body)) {
          whyNot = "a barrier inside the `while` at " + where(s) +
                   " (a loop with break, continue or else is not split)";
          return false;
        }
        if (!uniformControl(w->test, s, "while", whyNot))
          return false;
        step.kind = SplitStep::Kind::While;
        controls_.push_back(w->test);
        if (!steps(w->body, step.body, whyNot))
          return false;
        break;
      }
      case ast::NodeKind::If: {
        const auto* i = s->as<ast::If>();
        if (!uniformControl(i->test, s, "if", whyNot))
          return false;
        step.kind = SplitStep::Kind::If;
        controls_.push_back(i->test);
        if (!steps(i->body, step.body, whyNot) || !steps(i->orelse, step.orelse, whyNot))
          return false;
        break;
      }
      default: {
        const ast::Call* c = findCall(kernel_, s, kBarriers);
        whyNot = "`" + apiOf(kernel_, c) + "` at " + where(c) +
                 (c->args.empty() ? " inside a statement the CPU backend does not split"
                                  : " (a barrier with a value)");
        return false;
      }
      }
      out.push_back(std::move(step));
    }
    return true;
  }

  // How many statements bind each local (assignments, augmented ones, loop targets).
  void countAssignments() {
    walk(kernel_.function->def, [&](const ast::Node* n) {
      if (const auto* x = n->as<ast::Name>(); x && isLocal(x) && x->ctx == ast::ExprContext::Store)
        ++assignments_[x->id];
    });
  }

  // Whether each thread computes `e` alike whenever it computes it: uniform values, the thread's
  // own indices, and rematerialized locals, combined without reading memory.
  bool threadPure(const ast::Expr* e, const std::set<std::string>& remat) const {
    if (e == nullptr || uniformity_.uniform(e))
      return true;
    switch (e->kind) {
    case ast::NodeKind::Name: {
      const auto* n = e->as<ast::Name>();
      return isLocal(n) && remat.count(n->id) != 0;
    }
    case ast::NodeKind::Attribute: {
      const std::string api = sema::qualifiedApiName(kernel_.function->scope, e);
      if (api.rfind("numba.cuda.threadIdx.", 0) == 0 || api == "numba.cuda.laneid")
        return true;
      const auto* a = e->as<ast::Attribute>();
      return api.empty() && threadPure(a->value, remat) && (a->attr == "real" || a->attr == "imag");
    }
    case ast::NodeKind::Subscript: {
      const auto* sub = e->as<ast::Subscript>();
      const sema::NumbaType* t = kernel_.typeOf(sub->value);
      return t != nullptr && t->isTuple() && threadPure(sub->value, remat) &&
             threadPure(sub->slice, remat);
    }
    case ast::NodeKind::Call: {
      const auto* c = e->as<ast::Call>();
      const std::string api = sema::qualifiedApiName(kernel_.function->scope, c->func);
      if (kernel_.callees.count(c) != 0)
        return false;
      const bool pure = api == "numba.cuda.grid" || api == "numba.cuda.gridsize" ||
                        api.rfind("math.", 0) == 0 || api == "min" || api == "max" ||
                        api == "abs" || api == "int" || api == "float" || api == "bool" ||
                        api == "round" || api == "len" ||
                        (api.rfind("numba.", 0) == 0 && api.rfind("numba.cuda.", 0) != 0);
      if (!pure)
        return false;
      for (const ast::Expr* a : c->args)
        if (!threadPure(a, remat))
          return false;
      return c->keywords.empty();
    }
    case ast::NodeKind::BinOp:
    case ast::NodeKind::UnaryOp:
    case ast::NodeKind::BoolOp:
    case ast::NodeKind::Compare:
    case ast::NodeKind::IfExp:
    case ast::NodeKind::Tuple: {
      bool all = true;
      ast::forEachChild(const_cast<ast::Expr*>(e), [&](ast::Node* child) {
        if (all && child != nullptr)
          all = threadPure(static_cast<const ast::Expr*>(child), remat);
      });
      return all;
    }
    default:
      return false;
    }
  }

  // The first region's top-level assignments of thread-pure values to locals bound nowhere else.
  void rematerialize(BarrierSplitPlan& plan) {
    if (plan.steps.empty() || plan.steps[0].kind != SplitStep::Kind::Region)
      return;
    for (const ast::Stmt* st : plan.steps[0].statements) {
      const auto* a = st->as<ast::Assign>();
      if (a == nullptr || a->targets.size() != 1)
        continue;
      std::vector<std::string> names;
      bool plain = true;
      auto collect = [&](const ast::Expr* t) {
        if (const auto* n = t->as<ast::Name>())
          names.push_back(n->id);
        else
          plain = false;
      };
      if (const auto* tuple = a->targets[0]->as<ast::Tuple>())
        for (const ast::Expr* e : tuple->elts)
          collect(e);
      else
        collect(a->targets[0]);
      if (!plain || !threadPure(a->value, plan.rematerializedLocals))
        continue;
      bool once = true;
      for (const std::string& n : names)
        once = once && assignments_[n] == 1;
      if (!once)
        continue;
      plan.rematerialized.push_back(st);
      for (const std::string& n : names)
        plan.rematerializedLocals.insert(n);
    }
  }

  // An assignment of a uniform value to a uniform local: the block can run it once.
  bool uniformStatement(const ast::Stmt* st) const {
    if (const auto* a = st->as<ast::Assign>()) {
      if (a->targets.size() != 1)
        return false;
      const auto* n = a->targets[0]->as<ast::Name>();
      return n != nullptr && uniformity_.uniformVariable(n->id) && uniformity_.uniform(a->value) &&
             !findCall(kernel_, a->value, kBarriers);
    }
    if (const auto* a = st->as<ast::AugAssign>()) {
      const auto* n = a->target->as<ast::Name>();
      return n != nullptr && uniformity_.uniformVariable(n->id) && uniformity_.uniform(a->value);
    }
    return false;
  }

  // Moves the uniform statements that begin or end a region out of its thread loop.
  void hoistUniformStatements(std::vector<SplitStep>& list, const BarrierSplitPlan& plan) {
    auto hoistable = [&](const ast::Stmt* st) {
      return uniformStatement(st) &&
             std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) ==
                 plan.rematerialized.end();
    };
    std::vector<SplitStep> out;
    for (SplitStep& s : list) {
      if (s.kind != SplitStep::Kind::Region) {
        hoistUniformStatements(s.body, plan);
        hoistUniformStatements(s.orelse, plan);
        out.push_back(std::move(s));
        continue;
      }
      std::vector<const ast::Stmt*>& st = s.statements;
      size_t begin = 0, end = st.size();
      while (begin < end && hoistable(st[begin]))
        ++begin;
      while (end > begin && hoistable(st[end - 1]))
        --end;
      SplitStep before, after, middle;
      before.kind = after.kind = SplitStep::Kind::Uniform;
      before.statements.assign(st.begin(), st.begin() + static_cast<std::ptrdiff_t>(begin));
      middle.statements.assign(st.begin() + static_cast<std::ptrdiff_t>(begin),
                               st.begin() + static_cast<std::ptrdiff_t>(end));
      after.statements.assign(st.begin() + static_cast<std::ptrdiff_t>(end), st.end());
      for (SplitStep* part : {&before, &middle, &after})
        if (!part->statements.empty())
          out.push_back(std::move(*part));
    }
    list = std::move(out);
  }

  void collectRegions(const std::vector<SplitStep>& steps, bool inLoop) {
    for (const SplitStep& s : steps) {
      if (s.kind == SplitStep::Kind::Region) {
        regionOf_.push_back(&s);
        inLoop_.push_back(inLoop);
      }
      const bool loop = s.kind == SplitStep::Kind::For || s.kind == SplitStep::Kind::While;
      collectRegions(s.body, inLoop || loop);
      collectRegions(s.orelse, inLoop);
    }
  }

  bool mentions(const ast::Node* n, const std::string& name) const {
    bool found = false;
    walk(n, [&](const ast::Node* x) {
      if (const auto* v = x->as<ast::Name>(); v && v->id == name && isLocal(v))
        found = true;
    });
    return found;
  }

  // Whether a thread running `body` may read local `name` before assigning it there (`written`:
  // whether it is assigned on every path so far; updated). Branches count as assigning only when
  // both do; loops and other statements only read.
  template <class Stmts>
  bool readBeforeWritten(const Stmts& body, const std::string& name, bool& written) const {
    for (const ast::Stmt* s : body) {
      if (written)
        return false;
      if (const auto* a = s->as<ast::Assign>()) {
        if (mentions(a->value, name))
          return true;
        for (const ast::Expr* t : a->targets) {
          std::vector<const ast::Expr*> parts{t};
          if (const auto* tuple = t->as<ast::Tuple>())
            parts.assign(tuple->elts.begin(), tuple->elts.end());
          for (const ast::Expr* part : parts) {
            if (const auto* n = part->as<ast::Name>(); n && n->id == name)
              written = true;
            else if (mentions(part, name))
              return true;
          }
        }
        continue;
      }
      if (const auto* i = s->as<ast::If>()) {
        if (mentions(i->test, name))
          return true;
        bool inBody = false, inElse = false;
        if (readBeforeWritten(i->body, name, inBody) || readBeforeWritten(i->orelse, name, inElse))
          return true;
        written = inBody && inElse;
        continue;
      }
      if (mentions(s, name))
        return true;
    }
    return false;
  }

  void classify(BarrierSplitPlan& plan) {
    std::map<std::string, std::set<size_t>> regionsOf;
    std::map<std::string, std::vector<const ast::Expr*>> assignedValues;
    std::set<std::string> selfDependent;
    for (size_t r = 0; r < regionOf_.size(); ++r)
      for (const ast::Stmt* s : regionOf_[r]->statements)
        walk(s, [&](const ast::Node* n) {
          if (const auto* x = n->as<ast::Name>(); x && isLocal(x)) {
            regionsOf[x->id].insert(r);
            if (x->ctx == ast::ExprContext::Store)
              assignedInRegion_.insert(x->id);
          }
          if (const auto* a = n->as<ast::AugAssign>())
            if (const auto* t = a->target->as<ast::Name>())
              selfDependent.insert(t->id);
        });
    // Locals read or written by hoisted statements: those written there live once per block
    // (written by the block alone); those read there are read by block-level code.
    std::set<std::string>& hoistedTargets = hoistedTargets_;
    std::function<void(const std::vector<SplitStep>&)> hoisted =
        [&](const std::vector<SplitStep>& list) {
          for (const SplitStep& step : list) {
            if (step.kind == SplitStep::Kind::Uniform)
              for (const ast::Stmt* st : step.statements) {
                controls_.push_back(st);
                walk(st, [&](const ast::Node* n) {
                  if (const auto* x = n->as<ast::Name>();
                      x && isLocal(x) && x->ctx == ast::ExprContext::Store)
                    hoistedTargets.insert(x->id);
                });
              }
            hoisted(step.body);
            hoisted(step.orelse);
          }
        };
    hoisted(plan.steps);
    std::set<std::string> inControl;
    for (const ast::Node* c : controls_)
      walk(c, [&](const ast::Node* n) {
        if (const auto* x = n->as<ast::Name>(); x && isLocal(x))
          inControl.insert(x->id);
      });

    // Uniform locals whose values depend on nothing a region changes can live once per block:
    // every thread would store the same value. Start from the uniform ones, drop those computed
    // from themselves or from a local that is not a candidate.
    std::set<std::string> candidates;
    for (const auto& [name, regions] : regionsOf)
      if (uniformity_.uniformVariable(name) && !selfDependent.count(name) &&
          !loopCounters_.count(name))
        candidates.insert(name);
    walk(kernel_.function->def, [&](const ast::Node* n) {
      auto note = [&](const ast::Expr* target, const ast::Expr* value) {
        if (const auto* t = target->as<ast::Name>())
          assignedValues[t->id].push_back(value);
        else if (target->is<ast::Tuple>() || target->is<ast::List>())
          walk(target, [&](const ast::Node* x) {
            if (const auto* t2 = x->as<ast::Name>())
              selfDependent.insert(t2->id); // unpacking: keep it simple, per thread
          });
      };
      if (const auto* a = n->as<ast::Assign>())
        for (const ast::Expr* t : a->targets)
          note(t, a->value);
      if (const auto* a = n->as<ast::AnnAssign>(); a && a->value)
        note(a->target, a->value);
    });
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto it = candidates.begin(); it != candidates.end();) {
        bool keep = !selfDependent.count(*it);
        for (const ast::Expr* v : assignedValues[*it])
          walk(v, [&](const ast::Node* n) {
            if (const auto* x = n->as<ast::Name>(); x && isLocal(x))
              if (x->id == *it || (!candidates.count(x->id) && !loopCounters_.count(x->id)))
                keep = false;
          });
        if (keep) {
          ++it;
        } else {
          it = candidates.erase(it);
          changed = true;
        }
      }
    }
    // A cycle among candidates (a = b + 1; b = a) would make them self-dependent: a candidate
    // must be computable from the ones before it.
    std::set<std::string> ordered;
    changed = true;
    while (changed) {
      changed = false;
      for (const std::string& c : candidates) {
        if (ordered.count(c))
          continue;
        bool ready = true;
        for (const ast::Expr* v : assignedValues[c])
          walk(v, [&](const ast::Node* n) {
            if (const auto* x = n->as<ast::Name>(); x && isLocal(x))
              if (candidates.count(x->id) && !ordered.count(x->id))
                ready = false;
          });
        if (ready) {
          ordered.insert(c);
          changed = true;
        }
      }
    }
    // Locals that carry a value from one region to another, or to block-level control: per
    // block when every thread computes the same value from what no region changes, else per
    // thread. The others live inside their region.
    plan.perBlock = loopCounters_;
    // A local written by hoisted statements and by no region is written only by the block.
    for (const std::string& name : hoistedTargets)
      if (!assignedInRegion_.count(name))
        plan.perBlock.insert(name);
    for (const auto& [name, regions] : regionsOf) {
      if (plan.perBlock.count(name) || plan.rematerializedLocals.count(name))
        continue;
      // A region that may read the local before assigning it needs the value another region
      // (or its own previous trip round a loop) left; one that always assigns it first does not.
      bool carried = inControl.count(name) != 0;
      for (size_t r : regions) {
        bool written = false;
        if ((regions.size() > 1 || inLoop_[r]) &&
            readBeforeWritten(regionOf_[r]->statements, name, written))
          carried = true;
      }
      if (!carried)
        continue;
      if (ordered.count(name))
        plan.perBlock.insert(name);
      else
        plan.perThread.insert(name);
    }
    for (const std::string& name : inControl)
      if (!plan.perBlock.count(name) && !plan.perThread.count(name) &&
          !plan.rematerializedLocals.count(name))
        plan.perThread.insert(name);
  }

  // The axis of `e` when it is a thread's index on it: `cuda.threadIdx.x`, or a rematerialized
  // local assigned that or a component of `cuda.grid(n)` (then `global`: the index plus
  // blockIdx * blockDim on the axis); else -1.
  int threadAxis(const ast::Expr* e, const BarrierSplitPlan& plan, bool& global) const {
    global = false;
    const std::string api = sema::qualifiedApiName(kernel_.function->scope, e);
    if (api.rfind("numba.cuda.threadIdx.", 0) == 0 && api.size() == 22)
      return api.back() - 'x';
    const auto* n = e->as<ast::Name>();
    if (n == nullptr || !isLocal(n) || !plan.rematerializedLocals.count(n->id))
      return -1;
    for (const ast::Stmt* st : plan.rematerialized) {
      const auto* a = st->as<ast::Assign>();
      const auto* call = a->value->as<ast::Call>();
      const bool grid = call != nullptr && sema::qualifiedApiName(kernel_.function->scope,
                                                                  call->func) == "numba.cuda.grid";
      if (const auto* t = a->targets[0]->as<ast::Name>(); t != nullptr && t->id == n->id) {
        if (grid) {
          global = true;
          return 0;
        }
        return a->value->is<ast::Name>() ? -1 : threadAxis(a->value, plan, global);
      }
      if (const auto* tuple = a->targets[0]->as<ast::Tuple>(); tuple != nullptr && grid)
        for (size_t i = 0; i < tuple->elts.size() && i < 3; ++i)
          if (const auto* t = tuple->elts[i]->as<ast::Name>(); t != nullptr && t->id == n->id) {
            global = true;
            return static_cast<int>(i);
          }
    }
    return -1;
  }

  // The value a rematerialized local is assigned (`inside = row < n and col < m`), or null.
  const ast::Expr* rematerializedValue(const ast::Expr* e, const BarrierSplitPlan& plan) const {
    const auto* n = e->as<ast::Name>();
    if (n == nullptr || !isLocal(n) || !plan.rematerializedLocals.count(n->id))
      return nullptr;
    for (const ast::Stmt* st : plan.rematerialized) {
      const auto* a = st->as<ast::Assign>();
      if (const auto* t = a->targets[0]->as<ast::Name>(); t != nullptr && t->id == n->id)
        return a->value;
    }
    return nullptr;
  }

  // Whether the block can evaluate `e` before a region, as its first live thread sees it: a
  // uniform signed integer (or a narrow unsigned one) made of constants, parameters and locals
  // that live outside regions, that the region does not assign, and that reads no memory.
  // Before the plan has placed its locals (`placed` false), only the first two conditions.
  bool blockBound(const ast::Expr* e, const SplitStep& region, const BarrierSplitPlan& plan,
                  bool placed) const {
    const sema::NumbaType* t = kernel_.typeOf(e);
    if (t == nullptr || !t->isScalar() || !uniformity_.uniform(e))
      return false;
    const sema::ScalarKind k = t->scalarKind();
    if (!sema::isInteger(k) || k == sema::ScalarKind::UInt64)
      return false;
    bool ok = true;
    walk(e, [&](const ast::Node* n) {
      if (n->is<ast::Call>() || n->is<ast::NamedExpr>())
        ok = false;
      if (const auto* s = n->as<ast::Subscript>()) {
        const sema::NumbaType* base = kernel_.typeOf(s->value);
        ok = ok && base != nullptr && base->isTuple();
      }
      const auto* x = n->as<ast::Name>();
      if (x == nullptr || !isLocal(x) || !placed)
        return;
      if (!plan.perBlock.count(x->id) && !plan.perThread.count(x->id) &&
          !plan.rematerializedLocals.count(x->id))
        ok = false;
      for (const ast::Stmt* st : region.statements)
        walk(st, [&](const ast::Node* m) {
          if (const auto* y = m->as<ast::Name>();
              y && y->id == x->id && y->ctx != ast::ExprContext::Load)
            ok = false;
        });
    });
    return ok;
  }

  // The bounds an `if` test puts on thread indices: from its comparisons `t OP U` / `U OP t`,
  // alone or as leading conjuncts of an `and` (a later conjunct is not evaluated by a thread an
  // earlier one fails, so the walk stops at the first that could do more than compare).
  // Whether `e` only computes: no call, walrus or memory read.
  static bool sideEffectFree(const ast::Expr* e) {
    bool simple = true;
    walk(e, [&](const ast::Node* n) {
      if (n->is<ast::Call>() || n->is<ast::NamedExpr>() || n->is<ast::Subscript>())
        simple = false;
    });
    return simple;
  }

  // The threads for which a region statement can do anything, as alternatives (their union):
  // each a list of bounds that all hold. nullopt: any thread may act. An `if` without `else`
  // gives its test's; when its test only computes and its body is one such `if`, with that
  // one's too (a thread acts only when both hold).
  using Alternatives = std::vector<std::vector<ThreadBound>>;
  static constexpr size_t kMaxAlternatives = 8;

  static std::optional<Alternatives> both(const std::optional<Alternatives>& a,
                                          const std::optional<Alternatives>& b) {
    if (!a)
      return b;
    if (!b)
      return a;
    Alternatives out;
    for (const auto& x : *a)
      for (const auto& y : *b) {
        out.push_back(x);
        out.back().insert(out.back().end(), y.begin(), y.end());
      }
    if (out.size() > kMaxAlternatives)
      return std::nullopt;
    return out;
  }

  std::optional<Alternatives> boundsOf(const ast::Stmt* st, const SplitStep& region,
                                       const BarrierSplitPlan& plan, bool placed) const {
    const auto* i = st->as<ast::If>();
    if (i == nullptr || !i->orelse.empty())
      return std::nullopt;
    std::optional<Alternatives> out = boundsOf(i->test, region, plan, placed);
    if (i->body.size() == 1 && sideEffectFree(i->test))
      out = both(out, boundsOf(i->body[0], region, plan, placed));
    return out;
  }

  // The same for a test: comparisons `t OP U` / `U OP t` of a thread index with a block-level
  // bound; `and` (its leading operands that only compute: a thread stops at the first false
  // one), `or` (when every operand only computes and is bounded), a rematerialized boolean local
  // through its value.
  std::optional<Alternatives> boundsOf(const ast::Expr* test, const SplitStep& region,
                                       const BarrierSplitPlan& plan, bool placed) const {
    if (const ast::Expr* value = rematerializedValue(test, plan))
      return boundsOf(value, region, plan, placed);
    if (const auto* b = test->as<ast::BoolOp>()) {
      if (b->op == ast::BoolOpKind::And) {
        std::optional<Alternatives> out;
        for (const ast::Expr* v : b->values) {
          if (!sideEffectFree(v))
            break;
          out = both(out, boundsOf(v, region, plan, placed));
        }
        return out;
      }
      Alternatives out;
      for (const ast::Expr* v : b->values) {
        std::optional<Alternatives> part;
        if (sideEffectFree(v))
          part = boundsOf(v, region, plan, placed);
        if (!part)
          return std::nullopt;
        out.insert(out.end(), part->begin(), part->end());
      }
      if (out.size() > kMaxAlternatives)
        return std::nullopt;
      return out;
    }
    const auto* cmp = test->as<ast::Compare>();
    if (cmp == nullptr || !sideEffectFree(cmp))
      return std::nullopt;
    auto flip = [](ast::CmpOpKind op) {
      switch (op) {
      case ast::CmpOpKind::Lt:
        return ast::CmpOpKind::Gt;
      case ast::CmpOpKind::LtE:
        return ast::CmpOpKind::GtE;
      case ast::CmpOpKind::Gt:
        return ast::CmpOpKind::Lt;
      case ast::CmpOpKind::GtE:
        return ast::CmpOpKind::LtE;
      default:
        return op;
      }
    };
    std::vector<ThreadBound> all;
    const ast::Expr* left = cmp->left;
    for (size_t i = 0; i < cmp->ops.size(); ++i) {
      const ast::Expr* right = cmp->comparators[i];
      const ast::CmpOpKind op = cmp->ops[i];
      const bool ordered = op == ast::CmpOpKind::Lt || op == ast::CmpOpKind::LtE ||
                           op == ast::CmpOpKind::Gt || op == ast::CmpOpKind::GtE ||
                           op == ast::CmpOpKind::Eq;
      bool global = false;
      if (ordered) {
        if (int axis = threadAxis(left, plan, global);
            axis >= 0 && blockBound(right, region, plan, placed))
          all.push_back({axis, op, right, global});
        else if (axis = threadAxis(right, plan, global);
                 axis >= 0 && blockBound(left, region, plan, placed))
          all.push_back({axis, flip(op), left, global});
      }
      left = right;
    }
    if (all.empty())
      return std::nullopt;
    return Alternatives{all};
  }

  // Whether `test` holds for exactly the threads its bounds admit: comparisons whose every link
  // is a bound, `and`s of such, rematerialized boolean locals holding one.
  bool exactTest(const ast::Expr* test, const SplitStep& region,
                 const BarrierSplitPlan& plan) const {
    if (const ast::Expr* value = rematerializedValue(test, plan))
      return exactTest(value, region, plan);
    if (const auto* b = test->as<ast::BoolOp>()) {
      if (b->op != ast::BoolOpKind::And)
        return false;
      for (const ast::Expr* v : b->values)
        if (!sideEffectFree(v) || !exactTest(v, region, plan))
          return false;
      return true;
    }
    const auto* cmp = test->as<ast::Compare>();
    if (cmp == nullptr || !sideEffectFree(cmp))
      return false;
    std::optional<Alternatives> bounds = boundsOf(test, region, plan, true);
    return bounds && bounds->size() == 1 && bounds->front().size() == cmp->ops.size();
  }

  // A narrowed region's statements without the tests its box makes always true (see
  // SplitStep::exactBody), or empty.
  std::vector<const ast::Stmt*> exactBodyOf(const SplitStep& s,
                                            const BarrierSplitPlan& plan) const {
    const ast::If* only = nullptr;
    bool rematerializedAfter = false;
    for (const ast::Stmt* st : s.statements) {
      const bool remat = std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
                         plan.rematerialized.end();
      if (remat) {
        rematerializedAfter = rematerializedAfter || only != nullptr;
        continue;
      }
      if (only != nullptr)
        return {};
      only = st->as<ast::If>();
      if (only == nullptr)
        return {};
    }
    // Every alternative of the box holds the bounds of each test on the way in, so even the hull
    // of several lies inside the box an exact test admits: such a test always holds there.
    if (only == nullptr || rematerializedAfter || !only->orelse.empty() ||
        !exactTest(only->test, s, plan))
      return {};
    const ast::If* inner = only;
    while (inner->body.size() == 1) {
      const auto* next = inner->body[0]->as<ast::If>();
      if (next == nullptr || !next->orelse.empty() || !exactTest(next->test, s, plan))
        break;
      inner = next;
    }
    return {inner->body.begin(), inner->body.end()};
  }

  // Distributes regions so that statements only some threads act in (by their bounds) run in
  // regions of their own: `if P: S1; S2; ...` (P only computes, the body assigns none of its
  // names) whose body holds such a statement becomes `if P: S1`, `if P: S2`, ...; then each
  // such statement is a region of its own, and the statements between them another. Running
  // one statement for every thread before the next is a schedule CUDA allows (as if a barrier
  // stood between them); values passing from one to the next are carried as across barriers.
  void distributeRegions(std::vector<SplitStep>& list, BarrierSplitPlan& plan) {
    std::vector<SplitStep> out;
    for (SplitStep& s : list) {
      distributeRegions(s.body, plan);
      distributeRegions(s.orelse, plan);
      if (s.kind != SplitStep::Kind::Region) {
        out.push_back(std::move(s));
        continue;
      }
      auto bounded = [&](const ast::Stmt* st) { return boundsOf(st, s, plan, false).has_value(); };
      std::vector<const ast::Stmt*> expanded;
      for (const ast::Stmt* st : s.statements) {
        const auto* i = st->as<ast::If>();
        bool split = i != nullptr && i->orelse.empty() && i->body.size() > 1 &&
                     sideEffectFree(i->test) &&
                     std::any_of(i->body.begin(), i->body.end(), bounded);
        if (split)
          walk(i->test, [&](const ast::Node* n) {
            if (const auto* x = n->as<ast::Name>(); x && isLocal(x))
              for (const ast::Stmt* b : i->body)
                walk(b, [&](const ast::Node* m) {
                  if (const auto* y = m->as<ast::Name>();
                      y && y->id == x->id && y->ctx != ast::ExprContext::Load)
                    split = false;
                });
          });
        if (!split) {
          expanded.push_back(st);
          continue;
        }
        for (ast::Stmt* b : i->body) {
          auto part = std::make_unique<ast::If>();
          part->range = i->range;
          part->test = i->test;
          part->body = {b};
          expanded.push_back(part.get());
          plan.distributed.push_back(std::move(part));
        }
      }
      std::vector<SplitStep> parts;
      for (const ast::Stmt* st : expanded) {
        const bool alone = bounded(st);
        if (alone || parts.empty() || !parts.back().narrowing.empty())
          parts.emplace_back();
        parts.back().statements.push_back(st);
        if (alone)
          parts.back().narrowing.emplace_back(); // marks it alone; narrowRegions fills it in
      }
      // A part of rematerialized assignments alone would compute what every later region
      // computes again: it joins the next.
      auto rematerializedOnly = [&](const SplitStep& part) {
        return std::all_of(
            part.statements.begin(), part.statements.end(), [&](const ast::Stmt* st) {
              return std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
                     plan.rematerialized.end();
            });
      };
      if (parts.size() > 1 && rematerializedOnly(parts[0])) {
        parts[1].statements.insert(parts[1].statements.begin(), parts[0].statements.begin(),
                                   parts[0].statements.end());
        parts.erase(parts.begin());
      }
      // The rematerialized assignments must stay in the region where the source has them.
      bool keep = parts.size() <= 1;
      for (const ast::Stmt* r : plan.rematerialized)
        if (std::find(s.statements.begin(), s.statements.end(), r) != s.statements.end() &&
            std::find(parts[0].statements.begin(), parts[0].statements.end(), r) ==
                parts[0].statements.end())
          keep = true;
      if (keep) {
        out.push_back(std::move(s));
        continue;
      }
      for (SplitStep& part : parts) {
        part.narrowing.clear();
        out.push_back(std::move(part));
      }
    }
    list = std::move(out);
  }

  void narrowRegions(std::vector<SplitStep>& list, const BarrierSplitPlan& plan) const {
    for (SplitStep& s : list) {
      narrowRegions(s.body, plan);
      narrowRegions(s.orelse, plan);
      if (s.kind != SplitStep::Kind::Region)
        continue;
      Alternatives narrowing;
      bool narrowed = true;
      for (const ast::Stmt* st : s.statements) {
        if (std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
            plan.rematerialized.end())
          continue;
        std::optional<Alternatives> bounds = boundsOf(st, s, plan, true);
        narrowed = narrowed && bounds.has_value(); // else a statement every thread may run
        if (bounds)
          narrowing.insert(narrowing.end(), bounds->begin(), bounds->end());
      }
      if (narrowed) {
        s.narrowing = std::move(narrowing);
        s.exactBody = exactBodyOf(s, plan);
      }
    }
  }

  const Specialization& kernel_;
  UniformityAnalysis uniformity_;
  std::vector<const SplitStep*> regionOf_; // every region of the finished plan
  std::vector<bool> inLoop_;               // whether it is inside a block-level loop
  std::set<std::string> loopCounters_;
  std::set<std::string> assignedInRegion_;
  std::vector<const ast::Node*> controls_;
  std::map<std::string, int> assignments_;
  std::set<std::string> hoistedTargets_;
  bool hoist_;
};

} // namespace

CpuExecutionPlan planCpuExecution(const Specialization& kernel,
                                  const std::vector<const Specialization*>& reached) {
  CpuExecutionPlan plan;
  for (const Specialization* s : reached) {
    if (const ast::Call* c = findCall(*s, s->function->def, kWarpOperations)) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the warp operation `" + apiOf(*s, c) + "` at " + where(c);
      return plan;
    }
    if (s != &kernel)
      if (const ast::Call* c = findCall(*s, s->function->def, kBarriers)) {
        plan.mode = CpuExecutionMode::Fiber;
        plan.fiberReason = "`" + apiOf(*s, c) + "` in the device function `" + s->function->name +
                           "` at " + where(c);
        return plan;
      }
  }
  if (findCall(kernel, kernel.function->def, kBarriers) == nullptr)
    return plan;
  std::string whyNot;
  plan.split = SplitPlanner(kernel, true).plan(whyNot);
  if (!plan.split && whyNot == "hoisting")
    plan.split = SplitPlanner(kernel, false).plan(whyNot);
  if (plan.split) {
    plan.mode = CpuExecutionMode::Split;
  } else {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = whyNot;
  }
  return plan;
}

} // namespace pyk::codegen
