// CpuExecutionPlan: finds the thread-model operations a kernel uses and, for block barriers,
// plans the split into regions and decides where each local lives.
#include "codegen/CpuExecutionPlan.h"

#include <algorithm>
#include <functional>
#include <map>

#include "codegen/RegionNarrowing.h"
#include "codegen/UniformityAnalysis.h"
#include "sema/ModuleApiCatalog.h"

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

using sema::Intrinsic;
using sema::intrinsicInfo;
namespace flags = sema::intrinsic_flags;

void walk(const ast::Node* n, const std::function<void(const ast::Node*)>& visit) {
  ast::forEachNode(n, visit);
}

std::string where(const ast::Node* n) {
  return std::to_string(n->range.begin.line) + ":" + std::to_string(n->range.begin.column);
}

// The first call in `n` of an intrinsic with `flag` (a barrier, a warp operation), or null.
const ast::Call* findCall(const Specialization& spec, const ast::Node* n, uint32_t flag) {
  const ast::Call* found = nullptr;
  walk(n, [&](const ast::Node* x) {
    if (found == nullptr)
      if (const auto* c = x->as<ast::Call>())
        if (const Intrinsic id = spec.intrinsicOf(c->func);
            id != Intrinsic::None && intrinsicInfo(id).has(flag))
          found = c;
  });
  return found;
}

// How a message names a call's intrinsic: `cuda.syncthreads`.
std::string apiOf(const Specialization& spec, const ast::Call* c) {
  return std::string(intrinsicInfo(spec.intrinsicOf(c->func)).shortName());
}

// A call of a scalar type (`float32(x)`, `np.int32(x)`): a conversion, thread-pure.
bool isCast(const Specialization& spec, const ast::Call* c) {
  const std::string api = sema::qualifiedApiName(spec.function->scope, c->func);
  const sema::ApiEntity* entity = api.empty() ? nullptr : sema::findApi(api);
  return entity != nullptr && entity->kind == sema::ApiKind::Type;
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
    distributeRegions(kernel_, uniformity_, plan.steps, plan);
    if (hoist_)
      hoistUniformStatements(plan.steps, plan);
    for (SplitStep& step : plan.steps)
      if (step.kind == SplitStep::Kind::Region && !plan.rematerialized.empty() &&
          std::find(step.statements.begin(), step.statements.end(), plan.rematerialized[0]) !=
              step.statements.end())
        step.definesRematerialized = true;
    collectRegions(plan.steps, false);
    classify(plan);
    narrowRegions(kernel_, uniformity_, plan.steps, plan);
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
      if (c == nullptr || kernel_.intrinsicOf(c->func) != Intrinsic::LocalArray)
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
    return findCall(kernel_, n, flags::Barrier) != nullptr;
  }
  bool isBareBarrier(const ast::Stmt* s) const {
    const auto* e = s->as<ast::ExprStmt>();
    const ast::Call* c = e ? e->value->as<ast::Call>() : nullptr;
    return c != nullptr && c->args.empty() &&
           kernel_.intrinsicOf(c->func) == Intrinsic::Syncthreads;
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
        if (call == nullptr || kernel_.intrinsicOf(call->func) != Intrinsic::Range ||
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
        const ast::Call* c = findCall(kernel_, s, flags::Barrier);
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
      if (const Intrinsic id = kernel_.intrinsicOf(e); id != Intrinsic::None)
        return intrinsicInfo(id).has(flags::ThreadIndex);
      if (!sema::qualifiedApiName(kernel_.function->scope, e).empty())
        return false;
      const auto* a = e->as<ast::Attribute>();
      return threadPure(a->value, remat) && (a->attr == "real" || a->attr == "imag");
    }
    case ast::NodeKind::Subscript: {
      const auto* sub = e->as<ast::Subscript>();
      const sema::NumbaType* t = kernel_.typeOf(sub->value);
      return t != nullptr && t->isTuple() && threadPure(sub->value, remat) &&
             threadPure(sub->slice, remat);
    }
    case ast::NodeKind::Call: {
      const auto* c = e->as<ast::Call>();
      if (kernel_.callees.count(c) != 0)
        return false;
      const Intrinsic id = kernel_.intrinsicOf(c->func);
      const bool pure =
          id != Intrinsic::None ? intrinsicInfo(id).has(flags::ThreadPure) : isCast(kernel_, c);
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
             !findCall(kernel_, a->value, flags::Barrier);
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
    if (const ast::Call* c = findCall(*s, s->function->def, flags::WarpCollective)) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the warp operation `" + apiOf(*s, c) + "` at " + where(c);
      return plan;
    }
    if (s != &kernel)
      if (const ast::Call* c = findCall(*s, s->function->def, flags::Barrier)) {
        plan.mode = CpuExecutionMode::Fiber;
        plan.fiberReason = "`" + apiOf(*s, c) + "` in the device function `" + s->function->name +
                           "` at " + where(c);
        return plan;
      }
  }
  if (findCall(kernel, kernel.function->def, flags::Barrier) == nullptr)
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
