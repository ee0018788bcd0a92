// ScopeWalk: visits the nodes of one Python scope (a function body) in source order, stopping at
// nested scopes (function and class definitions, lambdas, comprehensions), whose own nodes are
// visited but not their insides.
#pragma once

#include <vector>

#include "syntax/Ast.h"

namespace pyk::sema {

inline bool opensScope(const ast::Node* node) {
  switch (node->kind) {
  case ast::NodeKind::FunctionDef:
  case ast::NodeKind::ClassDef:
  case ast::NodeKind::Lambda:
  case ast::NodeKind::ListComp:
  case ast::NodeKind::SetComp:
  case ast::NodeKind::DictComp:
  case ast::NodeKind::GeneratorExp:
    return true;
  default:
    return false;
  }
}

// Calls `fn(node)` for `node` and, unless it opens a scope, for everything below it. `fn` returns
// false to skip the node's children.
template <class Fn>
void walkScope(ast::Node* node, Fn&& fn) {
  if (!fn(node) || opensScope(node))
    return;
  ast::forEachChild(node, [&](ast::Node* child) { walkScope(child, fn); });
}

template <class Fn>
void walkScope(const std::vector<ast::Stmt*>& body, Fn&& fn) {
  for (ast::Stmt* stmt : body)
    walkScope(stmt, fn);
}

} // namespace pyk::sema
