// DeferredAtomics: the kernel's atomics its CPU workers may gather (DeferredAtomics.h).
#include "codegen/cpu/DeferredAtomics.h"

#include <algorithm>
#include <map>

#include "codegen/cpu/ThreadModelScan.h"
#include "codegen/cpu/VariableUses.h"

namespace pyk::codegen {

namespace {

// Whether `t` holds memory an argument could share unseen: an array or pointer inside a tuple
// or an Optional (a plain array argument is checked at launch).
bool hidesMemory(const types::NumbaType& t) {
  if (t.isPointer())
    return true;
  if (t.isOptional())
    return t.optionalValue().isArray() || hidesMemory(t.optionalValue());
  if (t.isTuple())
    return std::any_of(t.elements().begin(), t.elements().end(),
                       [](const types::NumbaType& e) { return e.isArray() || hidesMemory(e); });
  return false;
}

// Whether a memory fence (cuda.threadfence*) lies in `kernel` or any function it calls: gathered
// atomics would pass it.
bool reachesFence(const ir::Function& kernel) {
  if (firstIntrinsicCall(kernel.body, sema::intrinsic_flags::MemoryFence) != nullptr)
    return true;
  for (const ir::Function* f : functionsCalledBy(kernel))
    if (firstIntrinsicCall(f->body, sema::intrinsic_flags::MemoryFence) != nullptr)
      return true;
  return false;
}

// The values every thread of the grid computes alike: constants, scalar arguments never
// reassigned, arithmetic, casts and tuples of them, and the locals only ever given such values.
class GridUniform {
public:
  explicit GridUniform(const ir::Function& f) {
    std::map<size_t, const ir::Expr*> assigned = assignedValues(f);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t v = 0; v < f.versions.size(); ++v) {
        if (versions_.count(v) != 0)
          continue;
        const ir::Version& version = f.versions[v];
        bool holds = false;
        if (version.kind == ir::Version::Kind::Entry)
          holds = f.variables[version.variable].parameter && version.type.has_value() &&
                  version.type->isScalar();
        else if (version.kind == ir::Version::Kind::Def && assigned.count(v) != 0)
          holds = uniform(assigned[v]);
        else if (version.kind == ir::Version::Kind::Phi && !version.inputs.empty())
          holds = std::all_of(version.inputs.begin(), version.inputs.end(),
                              [&](const ir::PhiInput& in) { return versions_.count(in.version); });
        if (holds)
          changed = versions_.insert(v).second || changed;
      }
    }
  }

  bool uniform(const ir::Expr* e) const {
    if (e->as<ir::Literal>() != nullptr)
      return true;
    if (const auto* c = e->as<ir::FrozenConstant>())
      return c->type.isScalar();
    if (const auto* r = e->as<ir::Read>())
      return versions_.count(r->variable.version) != 0;
    if (const auto* c = e->as<ir::Cast>())
      return uniform(c->value);
    if (const auto* u = e->as<ir::Unary>())
      return uniform(u->operand);
    if (const auto* b = e->as<ir::Binary>())
      return uniform(b->lhs) && uniform(b->rhs);
    if (const auto* t = e->as<ir::MakeTuple>())
      return std::all_of(t->elements.begin(), t->elements.end(),
                         [&](const ir::Expr* x) { return uniform(x); });
    return false;
  }

private:
  std::set<size_t> versions_;
};

} // namespace

AtomicGathering planAtomicGathering(const ir::Function& kernel) {
  AtomicGathering none;
  if (kernel.kind != types::CompiledFunctionKind::Kernel)
    return none;
  std::vector<sema::VariableId> arrays;
  for (sema::VariableId v = 0; v < kernel.variables.size() && kernel.variables[v].parameter; ++v) {
    const auto& type = kernel.variables[v].type;
    if (!type.has_value())
      continue;
    if (hidesMemory(*type))
      return none;
    if (type->isArray())
      arrays.push_back(v);
  }
  if (arrays.empty() || reachesFence(kernel))
    return none;

  // Each array parameter's reads, and the gatherable atomics among them.
  const GridUniform gridUniform(kernel);
  std::map<sema::VariableId, size_t> reads;
  std::map<sema::VariableId, std::vector<const ir::IntrinsicCall*>> atomics;
  std::set<sema::VariableId> assigned;
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    if (const auto* r = n->as<ir::Read>())
      ++reads[r->variable.variable];
    if (const auto* t = n->as<ir::LocalTarget>())
      assigned.insert(t->variable.variable);
    const auto* statement = n->as<ir::Evaluate>();
    const auto* c = statement != nullptr ? statement->value->as<ir::IntrinsicCall>() : nullptr;
    if (c == nullptr ||
        !sema::intrinsicInfo(c->intrinsic).has(sema::intrinsic_flags::GatherableAtomic) ||
        c->args.size() != 3)
      return;
    const auto* array = c->args[0]->as<ir::Read>();
    if (array != nullptr && gridUniform.uniform(c->args[1]))
      atomics[array->variable.variable].push_back(c);
  });

  AtomicGathering g;
  for (sema::VariableId v : arrays) {
    const auto it = atomics.find(v);
    if (it != atomics.end() && assigned.count(v) == 0 && it->second.size() == reads[v]) {
      g.arrays.push_back(v);
      g.sites.insert(it->second.begin(), it->second.end());
    } else {
      g.others.push_back(v);
    }
  }
  if (g.sites.empty())
    return none;
  return g;
}

} // namespace pyk::codegen
