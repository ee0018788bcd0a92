// CpuExecutionPlan: finds the thread-model operations a kernel uses and, for block barriers,
// plans the split into regions and decides where each local lives.
#include "codegen/CpuExecutionPlan.h"

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
  SplitPlanner(const Specialization& kernel) : kernel_(kernel), uniformity_(kernel) {}

  std::optional<BarrierSplitPlan> plan(std::string& whyNot) {
    BarrierSplitPlan plan;
    if (!steps(kernel_.function->def->body, plan.steps, whyNot))
      return std::nullopt;
    collectRegions(plan.steps, false);
    classify(plan);
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

  // Whether the first statement of `region` that mentions `name` assigns it a value computed
  // without it (so the region needs no value of it from before).
  bool definedFirst(const SplitStep& region, const std::string& name) const {
    for (const ast::Stmt* s : region.statements) {
      bool mentions = false;
      walk(s, [&](const ast::Node* n) {
        if (const auto* x = n->as<ast::Name>(); x && x->id == name && isLocal(x))
          mentions = true;
      });
      if (!mentions)
        continue;
      const auto* a = s->as<ast::Assign>();
      if (a == nullptr)
        return false;
      bool target = false;
      for (const ast::Expr* t : a->targets)
        if (const auto* n = t->as<ast::Name>(); n && n->id == name)
          target = true;
      bool read = false;
      walk(a->value, [&](const ast::Node* n) {
        if (const auto* x = n->as<ast::Name>(); x && x->id == name)
          read = true;
      });
      return target && !read;
    }
    return true;
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
    for (const auto& [name, regions] : regionsOf) {
      if (plan.perBlock.count(name))
        continue;
      bool carried = regions.size() > 1 || inControl.count(name);
      for (size_t r : regions)
        if (inLoop_[r] && !definedFirst(*regionOf_[r], name))
          carried = true;
      if (!carried)
        continue;
      if (ordered.count(name))
        plan.perBlock.insert(name);
      else
        plan.perThread.insert(name);
    }
    for (const std::string& name : inControl)
      if (!plan.perBlock.count(name) && !plan.perThread.count(name))
        plan.perThread.insert(name);
  }

  const Specialization& kernel_;
  UniformityAnalysis uniformity_;
  std::vector<const SplitStep*> regionOf_; // every region of the finished plan
  std::vector<bool> inLoop_;               // whether it is inside a block-level loop
  std::set<std::string> loopCounters_;
  std::set<std::string> assignedInRegion_;
  std::vector<const ast::Node*> controls_;
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
  SplitPlanner planner(kernel);
  plan.split = planner.plan(whyNot);
  if (plan.split) {
    plan.mode = CpuExecutionMode::Split;
  } else {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = whyNot;
  }
  return plan;
}

} // namespace pyk::codegen
