// LocalPlacement: which regions use each local, whether one may read it before assigning it (it
// then needs the value another region, or its own previous trip round a loop, left), and which
// uniform locals every thread would compute alike (two LocalFixpoints: the candidates, and an
// order in which they can be computed).
#include "codegen/LocalPlacement.h"

#include <map>

namespace pyk::codegen {

namespace {

class Placement {
public:
  Placement(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
            const LocalSet& loopCounters, const BarrierSplitPlan& plan)
      : kernel_(kernel), scope_(kernel.function->scope), uniformity_(uniformity),
        loopCounters_(loopCounters), plan_(plan) {}

  LocalPlacement place(std::vector<const ast::Node*> controls) {
    LocalPlacement out;
    collectRegions(plan_.steps, false);
    std::map<size_t, std::set<size_t>> regionsOf; // local -> the regions that use it
    LocalSet selfDependent;
    for (size_t r = 0; r < regions_.size(); ++r)
      for (const RegionStatement& s : regions_[r]->statements)
        s.forEachNode([&](const ast::Node* n) {
          if (const std::optional<size_t> x = local(n)) {
            regionsOf[*x].insert(r);
            if (n->as<ast::Name>()->ctx == ast::ExprContext::Store)
              out.assignedInRegion.insert(*x);
          }
          if (const auto* a = n->as<ast::AugAssign>())
            if (const std::optional<size_t> t = local(a->target))
              selfDependent.insert(*t);
        });
    // Locals read or written by hoisted statements: those written there live once per block
    // (written by the block alone); those read there are read by block-level code.
    hoistedStatements(plan_.steps, controls, out.hoistedTargets);
    LocalSet inControl;
    for (const ast::Node* c : controls)
      ast::forEachNode(c, [&](const ast::Node* n) {
        if (const std::optional<size_t> x = local(n))
          inControl.insert(*x);
      });
    // The values each local is assigned; unpacking: keep it simple, per thread.
    std::map<size_t, std::vector<const ast::Expr*>> assignedValues;
    ast::forEachNode(kernel_.function->def, [&](const ast::Node* n) {
      auto note = [&](const ast::Expr* target, const ast::Expr* value) {
        if (target->is<ast::Name>()) {
          if (const std::optional<size_t> t = local(target))
            assignedValues[*t].push_back(value);
        } else if (target->is<ast::Tuple>() || target->is<ast::List>()) {
          ast::forEachNode(target, [&](const ast::Node* x) {
            if (const std::optional<size_t> t = local(x))
              selfDependent.insert(*t);
          });
        }
      };
      if (const auto* a = n->as<ast::Assign>())
        for (const ast::Expr* t : a->targets)
          note(t, a->value);
      if (const auto* a = n->as<ast::AnnAssign>(); a && a->value)
        note(a->target, a->value);
    });
    const LocalSet computable = blockComputable(regionsOf, selfDependent, assignedValues);

    // Locals that carry a value from one region to another, or to block-level control: per
    // block when every thread computes the same value from what no region changes, else per
    // thread. The others live inside their region.
    out.perBlock = loopCounters_;
    // A local written by hoisted statements and by no region is written only by the block.
    for (size_t x : out.hoistedTargets)
      if (!out.assignedInRegion.count(x))
        out.perBlock.insert(x);
    for (const auto& [x, regions] : regionsOf) {
      if (out.perBlock.count(x) || plan_.rematerializedLocals.count(x))
        continue;
      // A region that may read the local before assigning it needs the value another region
      // (or its own previous trip round a loop) left; one that always assigns it first does not.
      bool carried = inControl.count(x) != 0;
      for (size_t r : regions) {
        bool written = false;
        if ((regions.size() > 1 || inLoop_[r]) &&
            anyReadsFirst(regions_[r]->statements, x, written))
          carried = true;
      }
      if (!carried)
        continue;
      if (computable.count(x))
        out.perBlock.insert(x);
      else
        out.perThread.insert(x);
    }
    for (size_t x : inControl)
      if (!out.perBlock.count(x) && !out.perThread.count(x) && !plan_.rematerializedLocals.count(x))
        out.perThread.insert(x);
    return out;
  }

private:
  std::optional<size_t> local(const ast::Node* n) const {
    const auto* name = n->as<ast::Name>();
    return name != nullptr ? localIndex(scope_, name) : std::nullopt;
  }

  bool mentions(const ast::Node* n, size_t x) const {
    bool found = false;
    ast::forEachNode(n, [&](const ast::Node* m) { found = found || isLocal(scope_, m, x); });
    return found;
  }

  void collectRegions(const std::vector<SplitStep>& steps, bool inLoop) {
    for (const SplitStep& s : steps) {
      if (s.kind == SplitStep::Kind::Region) {
        regions_.push_back(&s);
        inLoop_.push_back(inLoop);
      }
      const bool loop = s.kind == SplitStep::Kind::For || s.kind == SplitStep::Kind::While;
      collectRegions(s.body, inLoop || loop);
      collectRegions(s.orelse, inLoop);
    }
  }

  // The hoisted statements, as control, and the locals they assign.
  void hoistedStatements(const std::vector<SplitStep>& list,
                         std::vector<const ast::Node*>& controls, LocalSet& targets) const {
    for (const SplitStep& step : list) {
      if (step.kind == SplitStep::Kind::Uniform)
        for (const RegionStatement& st : step.statements) {
          controls.push_back(st.statement);
          ast::forEachNode(st.statement, [&](const ast::Node* n) {
            if (const std::optional<size_t> x = local(n);
                x && n->as<ast::Name>()->ctx == ast::ExprContext::Store)
              targets.insert(*x);
          });
        }
      hoistedStatements(step.body, controls, targets);
      hoistedStatements(step.orelse, controls, targets);
    }
  }

  // The uniform locals every thread computes alike from what no region changes, in an order in
  // which each is computed from those before it. Start from the uniform ones, drop those
  // computed from themselves or from a local that is not a candidate; then order them (a cycle,
  // `a = b + 1; b = a`, would make them self-dependent).
  LocalSet blockComputable(const std::map<size_t, std::set<size_t>>& regionsOf,
                           const LocalSet& selfDependent,
                           std::map<size_t, std::vector<const ast::Expr*>>& assignedValues) const {
    const size_t count = scope_.locals.size();
    LocalFixpoint candidates(count);
    for (const auto& [x, regions] : regionsOf)
      if (uniformity_.uniformVariable(x) && !selfDependent.count(x) && !loopCounters_.count(x))
        candidates.admit(x);
    candidates.solve([&] {
      for (size_t c : candidates.members())
        for (const ast::Expr* v : assignedValues[c])
          ast::forEachNode(v, [&](const ast::Node* n) {
            if (const std::optional<size_t> x = local(n))
              if (*x == c || (!candidates.holds(*x) && !loopCounters_.count(*x)))
                candidates.demote(c);
          });
    });
    LocalFixpoint ordered(count);
    ordered.solve([&] {
      for (size_t c : candidates.members()) {
        if (ordered.holds(c))
          continue;
        bool ready = true;
        for (const ast::Expr* v : assignedValues[c])
          ast::forEachNode(v, [&](const ast::Node* n) {
            if (const std::optional<size_t> x = local(n))
              if (candidates.holds(*x) && !ordered.holds(*x))
                ready = false;
          });
        if (ready)
          ordered.admit(c);
      }
    });
    return ordered.members();
  }

  // Whether a thread running `s` may read local `x` before assigning it (`written`: whether it
  // is assigned on every path so far; updated). Branches count as assigning only when both do;
  // loops and other statements only read.
  bool readsFirst(const ast::Stmt* s, size_t x, bool& written) const {
    if (const auto* a = s->as<ast::Assign>()) {
      if (mentions(a->value, x))
        return true;
      for (const ast::Expr* t : a->targets) {
        std::vector<const ast::Expr*> parts{t};
        if (const auto* tuple = t->as<ast::Tuple>())
          parts.assign(tuple->elts.begin(), tuple->elts.end());
        for (const ast::Expr* part : parts) {
          if (isLocal(scope_, part, x))
            written = true;
          else if (mentions(part, x))
            return true;
        }
      }
      return false;
    }
    if (const auto* i = s->as<ast::If>()) {
      if (mentions(i->test, x))
        return true;
      bool inBody = false, inElse = false;
      if (anyReadsFirst(i->body, x, inBody) || anyReadsFirst(i->orelse, x, inElse))
        return true;
      written = inBody && inElse;
      return false;
    }
    return mentions(s, x);
  }
  // A guarded statement reads as the `if` of its guard around it alone (which never assigns on
  // every path: it has no `else`).
  bool readsFirst(const RegionStatement& s, size_t x, bool& written) const {
    if (s.guard == nullptr)
      return readsFirst(s.statement, x, written);
    bool inBody = false;
    return mentions(s.guard->test, x) || readsFirst(s.statement, x, inBody);
  }
  template <class Statements>
  bool anyReadsFirst(const Statements& body, size_t x, bool& written) const {
    for (const auto& s : body) {
      if (written)
        return false;
      if (readsFirst(s, x, written))
        return true;
    }
    return false;
  }

  const sema::Specialization& kernel_;
  const sema::FunctionScope& scope_;
  const UniformityAnalysis& uniformity_;
  const LocalSet& loopCounters_;
  const BarrierSplitPlan& plan_;
  std::vector<const SplitStep*> regions_; // every region of the plan
  std::vector<bool> inLoop_;              // whether it is inside a block-level loop
};

} // namespace

LocalPlacement placeLocals(const sema::Specialization& kernel, const UniformityAnalysis& uniformity,
                           const LocalSet& loopCounters,
                           const std::vector<const ast::Node*>& controls,
                           const BarrierSplitPlan& plan) {
  return Placement(kernel, uniformity, loopCounters, plan).place(controls);
}

bool hoistedLocalWrittenByThreads(const LocalPlacement& placement) {
  for (size_t x : placement.hoistedTargets)
    if (placement.assignedInRegion.count(x))
      return true;
  return false;
}

std::string placementConflict(const sema::Specialization& kernel, const LocalSet& loopCounters,
                              const LocalPlacement& placement) {
  const sema::FunctionScope& scope = kernel.function->scope;
  // (The first by name, when several are.)
  const std::string* counter = nullptr;
  for (size_t x : loopCounters)
    if (placement.assignedInRegion.count(x) && (counter == nullptr || scope.locals[x] < *counter))
      counter = &scope.locals[x];
  if (counter != nullptr)
    return "the counter `" + *counter + "` of a loop with a barrier is assigned in the loop";
  // A local array lives in its region's stack frame: one whose values must outlive the region
  // would need storage per thread, which only fibers give.
  std::string carriedLocalArray;
  ast::forEachNode(kernel.function->def, [&](const ast::Node* n) {
    const auto* a = n->as<ast::Assign>();
    const auto* c = a != nullptr ? a->value->as<ast::Call>() : nullptr;
    if (c == nullptr || kernel.intrinsicOf(c->func) != sema::Intrinsic::LocalArray)
      return;
    for (const ast::Expr* t : a->targets)
      if (const auto* name = t->as<ast::Name>())
        if (std::optional<size_t> x = localIndex(scope, name);
            x && (placement.perThread.count(*x) || placement.perBlock.count(*x)))
          carriedLocalArray = name->id + "` at " + sourcePosition(a);
  });
  if (!carriedLocalArray.empty())
    return "the local array `" + carriedLocalArray + " is used on both sides of a barrier";
  return "";
}

} // namespace pyk::codegen
