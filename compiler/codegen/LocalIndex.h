// LocalIndex: the locals of a compiled function by their index in FunctionScope::locals, as the
// CPU backend's analyses key them: the local a name binds, the locals an assignment target binds,
// sets of locals.
#pragma once

#include <cstddef>
#include <optional>
#include <set>

#include "sema/NameBinding.h"

namespace pyk::codegen {

// Locals by index, in the order FunctionScope::locals lists them.
using LocalSet = std::set<size_t>;

// The local `n` binds, or nullopt for a parameter, constant, module or builtin.
inline std::optional<size_t> localIndex(const sema::FunctionScope& scope, const ast::Name* n) {
  auto it = scope.names.find(n);
  if (it == scope.names.end() || it->second.kind != sema::NameBinding::Kind::Local)
    return std::nullopt;
  return it->second.index;
}

// Whether `n` is local `local`.
inline bool isLocal(const sema::FunctionScope& scope, const ast::Node* n, size_t local) {
  const auto* name = n->as<ast::Name>();
  return name != nullptr && localIndex(scope, name) == local;
}

// Calls fn(name) for each Name an assignment target binds: the target itself, or the names of
// the tuple or list it unpacks into, at any depth (an item or attribute target binds none).
template <class Fn>
void forEachTargetName(const ast::Expr* target, Fn&& fn) {
  if (const auto* n = target->as<ast::Name>()) {
    fn(n);
  } else if (const auto* t = target->as<ast::Tuple>()) {
    for (const ast::Expr* e : t->elts)
      forEachTargetName(e, fn);
  } else if (const auto* l = target->as<ast::List>()) {
    for (const ast::Expr* e : l->elts)
      forEachTargetName(e, fn);
  }
}

} // namespace pyk::codegen
