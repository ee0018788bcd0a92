// VariableUses: the variables a piece of a function's IR reads and writes, as the CPU backend's
// analyses key them (ir::Function::variables' indices): sets of variables, the variable a Read
// reads, the variables a target (or a node below it) stores to, whether a node mentions one.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>

#include "ir/Ir.h"

namespace pyk::codegen {

// Variables by index, in the order ir::Function::variables lists them (parameters first).
using LocalSet = std::set<sema::VariableId>;

// The variable `n` reads, when it is a Read.
inline std::optional<sema::VariableId> readOf(const ir::Node* n) {
  const auto* r = n->as<ir::Read>();
  return r != nullptr ? std::optional<sema::VariableId>(r->variable.variable) : std::nullopt;
}

// The variable `n` stores to, when it is a LocalTarget.
inline std::optional<sema::VariableId> storeOf(const ir::Node* n) {
  const auto* t = n->as<ir::LocalTarget>();
  return t != nullptr ? std::optional<sema::VariableId>(t->variable.variable) : std::nullopt;
}

// The variable `n` reads or stores to.
inline std::optional<sema::VariableId> variableOf(const ir::Node* n) {
  if (std::optional<sema::VariableId> v = readOf(n))
    return v;
  return storeOf(n);
}

// Calls fn(variable) for each variable an assignment target stores to: the target itself, or
// the targets of the tuple it unpacks into, at any depth (an item or field stores to none).
template <class Fn>
void forEachTargetVariable(const ir::Target* target, Fn&& fn) {
  if (const auto* l = target->as<ir::LocalTarget>())
    fn(l->variable.variable);
  else if (const auto* u = target->as<ir::UnpackTarget>())
    for (const ir::Target* e : u->elements)
      forEachTargetVariable(e, fn);
}

// Whether `n` reads or stores to variable `v` anywhere below it.
inline bool mentions(const ir::Node* n, sema::VariableId v) {
  bool found = false;
  ir::forEachNode(n, [&](const ir::Node* m) { found = found || variableOf(m) == v; });
  return found;
}

// The jumps of kind J (ir::Break, ir::Continue) a loop's body makes for the loop itself, not
// those of loops nested in it.
template <class J>
std::set<const ir::Stmt*> ownJumpsOf(const std::vector<ir::Stmt*>& body) {
  std::set<const ir::Stmt*> out;
  std::function<void(const ir::Node*)> visit = [&](const ir::Node* n) {
    if (const auto* j = n->as<J>())
      out.insert(j);
    if (n->is<ir::ForRange>() || n->is<ir::ForEach>() || n->is<ir::While>())
      return; // its own jumps
    ir::forEachChild(n, visit);
  };
  for (const ir::Stmt* s : body)
    visit(s);
  return out;
}

// The value each Def version of `f` is given by an assignment to that one local (`x = e`), by
// version index.
inline std::map<size_t, const ir::Expr*> assignedValues(const ir::Function& f) {
  std::map<size_t, const ir::Expr*> assigned;
  ir::forEachNode(f.body, [&](const ir::Node* n) {
    if (const auto* a = n->as<ir::Assign>(); a != nullptr && a->targets.size() == 1)
      if (const auto* local = a->targets[0]->as<ir::LocalTarget>())
        assigned[local->variable.version] = a->value;
  });
  return assigned;
}

// What a value is before numba's implicit conversions (a cast the source writes is kept).
inline const ir::Expr* unconverted(const ir::Expr* e) {
  while (const auto* c = e->as<ir::Cast>()) {
    if (c->written)
      break;
    e = c->value;
  }
  return e;
}

} // namespace pyk::codegen
