// LocalPlacement: which regions use each local, whether one may read it before assigning it (it
// then needs the value another region, or its own previous trip round a loop, left), and which
// uniform locals every thread would compute alike (two LocalFixpoints: the candidates, and an
// order in which they can be computed).
#include "codegen/cpu/LocalPlacement.h"

#include <map>

#include "codegen/emit/VariableStorage.h"

namespace pyk::codegen {

namespace {

class Placement {
public:
  Placement(const ir::Function& kernel, const UniformityAnalysis& uniformity,
            const LocalSet& loopCounters, const BarrierSplitPlan& plan)
      : kernel_(kernel), uniformity_(uniformity), loopCounters_(loopCounters), plan_(plan) {}

  LocalPlacement place(std::vector<const ir::Node*> controls) {
    LocalPlacement out;
    collectRegions(plan_.steps, false);
    std::map<sema::VariableId, std::set<size_t>> regionsOf; // local -> the regions that use it
    LocalSet selfDependent;
    for (size_t r = 0; r < regions_.size(); ++r)
      for (const RegionStatement& s : regions_[r]->statements)
        s.forEachNode([&](const ir::Node* n) {
          if (const std::optional<sema::VariableId> x = local(n)) {
            regionsOf[*x].insert(r);
            if (storeOf(n))
              out.assignedInRegion.insert(*x);
          }
          if (const auto* st = n->as<ir::Store>(); st != nullptr && st->augmented)
            if (const std::optional<sema::VariableId> t = local(st->target))
              selfDependent.insert(*t);
        });
    // Locals read or written by hoisted statements: those written there live once per block
    // (written by the block alone); those read there are read by block-level code.
    hoistedStatements(plan_.steps, controls, out.hoistedTargets);
    LocalSet inControl;
    for (const ir::Node* c : controls)
      ir::forEachNode(c, [&](const ir::Node* n) {
        if (const std::optional<sema::VariableId> x = local(n))
          inControl.insert(*x);
      });
    // The values each local is assigned; unpacking: keep it simple, per thread.
    std::map<sema::VariableId, std::vector<const ir::Expr*>> assignedValues;
    ir::forEachNode(kernel_.body, [&](const ir::Node* n) {
      auto note = [&](const ir::Target* target, const ir::Expr* value) {
        if (const std::optional<sema::VariableId> t = local(target)) {
          assignedValues[*t].push_back(value);
        } else if (target->is<ir::UnpackTarget>()) {
          ir::forEachNode(static_cast<const ir::Node*>(target), [&](const ir::Node* x) {
            if (const std::optional<sema::VariableId> t = local(x))
              selfDependent.insert(*t);
          });
        }
      };
      if (const auto* a = n->as<ir::Assign>())
        for (const ir::Target* t : a->targets)
          note(t, a->value);
      if (const auto* st = n->as<ir::Store>(); st != nullptr && !st->augmented)
        note(st->target, st->value);
    });
    const LocalSet computable = blockComputable(regionsOf, selfDependent, assignedValues);

    // Locals that carry a value from one region to another, or to block-level control: per
    // block when every thread computes the same value from what no region changes, else per
    // thread. The others live inside their region.
    out.perBlock = loopCounters_;
    // A local written by hoisted statements and by no region is written only by the block.
    for (sema::VariableId x : out.hoistedTargets)
      if (!out.assignedInRegion.count(x))
        out.perBlock.insert(x);
    for (const auto& [x, regions] : regionsOf) {
      if (out.perBlock.count(x) || plan_.rematerializedLocals.count(x) ||
          plan_.strideCounters.count(x))
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
    for (sema::VariableId x : inControl)
      if (!out.perBlock.count(x) && !out.perThread.count(x) && !plan_.rematerializedLocals.count(x))
        out.perThread.insert(x);
    return out;
  }

private:
  // The local (not a parameter) `n` reads or stores to.
  std::optional<sema::VariableId> local(const ir::Node* n) const {
    const std::optional<sema::VariableId> v = variableOf(n);
    return v && !kernel_.variables[*v].parameter ? v : std::nullopt;
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
  void hoistedStatements(const std::vector<SplitStep>& list, std::vector<const ir::Node*>& controls,
                         LocalSet& targets) const {
    for (const SplitStep& step : list) {
      // A reduction's predicate is read by every thread, its local written by the block.
      std::vector<const ir::Stmt*> blockStatements;
      if (step.kind == SplitStep::Kind::Uniform)
        for (const RegionStatement& st : step.statements)
          blockStatements.push_back(st.statement);
      if (step.kind == SplitStep::Kind::Reduction)
        blockStatements.push_back(step.control);
      for (const ir::Stmt* st : blockStatements) {
        controls.push_back(st);
        ir::forEachNode(static_cast<const ir::Node*>(st), [&](const ir::Node* n) {
          if (const std::optional<sema::VariableId> x = local(n); x && storeOf(n))
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
  LocalSet
  blockComputable(const std::map<sema::VariableId, std::set<size_t>>& regionsOf,
                  const LocalSet& selfDependent,
                  std::map<sema::VariableId, std::vector<const ir::Expr*>>& assignedValues) const {
    const size_t count = kernel_.variables.size();
    LocalFixpoint candidates(count);
    for (const auto& [x, regions] : regionsOf)
      if (uniformity_.uniformVariable(x) && !selfDependent.count(x) && !loopCounters_.count(x))
        candidates.admit(x);
    candidates.solve([&] {
      for (sema::VariableId c : candidates.members())
        for (const ir::Expr* v : assignedValues[c])
          ir::forEachNode(static_cast<const ir::Node*>(v), [&](const ir::Node* n) {
            if (const std::optional<sema::VariableId> x = local(n))
              if (*x == c || (!candidates.holds(*x) && !loopCounters_.count(*x)))
                candidates.demote(c);
          });
    });
    LocalFixpoint ordered(count);
    ordered.solve([&] {
      for (sema::VariableId c : candidates.members()) {
        if (ordered.holds(c))
          continue;
        bool ready = true;
        for (const ir::Expr* v : assignedValues[c])
          ir::forEachNode(static_cast<const ir::Node*>(v), [&](const ir::Node* n) {
            if (const std::optional<sema::VariableId> x = local(n))
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
  bool readsFirst(const ir::Stmt* s, sema::VariableId x, bool& written) const {
    if (const auto* a = s->as<ir::Assign>()) {
      if (mentions(a->value, x))
        return true;
      for (const ir::Target* t : a->targets) {
        std::vector<const ir::Target*> parts{t};
        if (const auto* unpack = t->as<ir::UnpackTarget>())
          parts.assign(unpack->elements.begin(), unpack->elements.end());
        for (const ir::Target* part : parts) {
          if (storeOf(part) == x)
            written = true;
          else if (mentions(part, x))
            return true;
        }
      }
      return false;
    }
    if (const auto* i = s->as<ir::If>()) {
      if (mentions(i->condition, x))
        return true;
      bool inBody = false, inElse = false;
      if (anyReadsFirst(i->then, x, inBody) || anyReadsFirst(i->otherwise, x, inElse))
        return true;
      written = inBody && inElse;
      return false;
    }
    return mentions(s, x);
  }
  // A guarded statement reads as the `if` of its guard around it alone (which never assigns on
  // every path: it has no `else`).
  bool readsFirst(const RegionStatement& s, sema::VariableId x, bool& written) const {
    if (s.guard == nullptr)
      return readsFirst(s.statement, x, written);
    bool inBody = false;
    return mentions(s.guard->condition, x) || readsFirst(s.statement, x, inBody);
  }
  template <class Statements>
  bool anyReadsFirst(const Statements& body, sema::VariableId x, bool& written) const {
    for (const auto& s : body) {
      if (written)
        return false;
      if (readsFirst(s, x, written))
        return true;
    }
    return false;
  }

  const ir::Function& kernel_;
  const UniformityAnalysis& uniformity_;
  const LocalSet& loopCounters_;
  const BarrierSplitPlan& plan_;
  std::vector<const SplitStep*> regions_; // every region of the plan
  std::vector<bool> inLoop_;              // whether it is inside a block-level loop
};

} // namespace

LocalPlacement placeLocals(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                           const LocalSet& loopCounters,
                           const std::vector<const ir::Node*>& controls,
                           const BarrierSplitPlan& plan) {
  return Placement(kernel, uniformity, loopCounters, plan).place(controls);
}

bool hoistedLocalWrittenByThreads(const LocalPlacement& placement) {
  for (sema::VariableId x : placement.hoistedTargets)
    if (placement.assignedInRegion.count(x))
      return true;
  return false;
}

namespace {

// The statements block-level steps run (loops and branches with barriers inside).
void blockLevelControls(const std::vector<SplitStep>& steps, std::set<const ir::Stmt*>& out) {
  for (const SplitStep& s : steps) {
    if (s.kind != SplitStep::Kind::Region && s.control != nullptr)
      out.insert(s.control);
    blockLevelControls(s.body, out);
    blockLevelControls(s.orelse, out);
  }
}

} // namespace

std::string placementConflict(const ir::Function& kernel, const LocalSet& loopCounters,
                              const LocalPlacement& placement, const BarrierSplitPlan& plan) {
  // (The first by name, when several are.)
  const std::string* counter = nullptr;
  for (sema::VariableId x : loopCounters)
    if (placement.assignedInRegion.count(x) &&
        (counter == nullptr || kernel.variableName(x) < *counter))
      counter = &kernel.variableName(x);
  if (counter != nullptr)
    return "the counter `" + *counter + "` of a loop with a barrier is assigned in the loop";
  // A local array lives in its region's stack frame: one whose values must outlive the region
  // would need storage per thread, which only fibers give.
  std::string carriedLocalArray;
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    const auto* a = n->as<ir::Assign>();
    const auto* allocation = a != nullptr ? a->value->as<ir::ArrayAllocation>() : nullptr;
    if (allocation == nullptr || allocation->intrinsic != sema::Intrinsic::LocalArray)
      return;
    for (const ir::Target* t : a->targets)
      if (const std::optional<sema::VariableId> x = storeOf(t);
          x && (placement.perThread.count(*x) || placement.perBlock.count(*x)))
        carriedLocalArray = kernel.variableName(*x) + "` at " + sourcePosition(a);
  });
  if (!carriedLocalArray.empty())
    return "the local array `" + carriedLocalArray + " is used on both sides of a barrier";
  // A phi joining two C++ variables of one local at block-level control: the block runs that
  // control, not the threads, and converts nothing at its edges.
  std::set<const ir::Stmt*> controls;
  blockLevelControls(plan.steps, controls);
  const VariableStorage storage(kernel);
  for (const ir::Version& v : kernel.versions) {
    if (v.kind != ir::Version::Kind::Phi || !controls.count(v.join) ||
        storage.slotsOf(v.variable).size() < 2)
      continue;
    for (const ir::PhiInput& in : v.inputs)
      for (const VariableStorage::Copy& copy : storage.copiesAt(in.edge, in.at))
        if (copy.variable == v.variable)
          return "`" + kernel.variableName(v.variable) + "` takes the types " +
                 copy.from->type.str() + " and " + copy.to->type.str() +
                 " (numba types each assignment on its own), joined after the block-level "
                 "statement at " +
                 sourcePosition(v.join) + ", whose edges the split does not convert";
  }
  return "";
}

} // namespace pyk::codegen
