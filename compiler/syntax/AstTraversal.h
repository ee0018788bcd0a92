// AstTraversal: forEachChild, generated from the fields AstNodes.def declares, and the traversal
// of each helper struct, written once here.
#pragma once

// Included at the end of Ast.h.

namespace pyk::ast {

namespace detail {

// ---- nodes and lists of nodes: the ones that are not null ----

template <class Fn, class T>
void each(Fn& fn, T* node) {
  if (node != nullptr)
    fn(static_cast<Node*>(node));
}
template <class Fn, class T>
void each(Fn& fn, const std::vector<T*>& nodes) {
  for (T* node : nodes)
    each(fn, node);
}
// A Dict's items: each key (none for `**mapping`), then its value.
template <class Fn>
void eachPair(Fn& fn, const std::vector<Expr*>& keys, const std::vector<Expr*>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    each(fn, keys[i]);
    each(fn, values[i]);
  }
}

// ---- the nodes each helper struct holds (HELPER and HELPERS fields) ----

template <class Fn>
void eachIn(Fn& fn, const Arg& arg) {
  each(fn, arg.annotation);
}
// The annotations in parameter order, then the defaults, then the keyword-only defaults.
template <class Fn>
void eachIn(Fn& fn, const Arguments& a) {
  for (const Arg& arg : a.posonlyargs)
    eachIn(fn, arg);
  for (const Arg& arg : a.args)
    eachIn(fn, arg);
  if (a.vararg)
    eachIn(fn, *a.vararg);
  for (const Arg& arg : a.kwonlyargs)
    eachIn(fn, arg);
  if (a.kwarg)
    eachIn(fn, *a.kwarg);
  each(fn, a.defaults);
  each(fn, a.kwDefaults);
}
template <class Fn>
void eachIn(Fn& fn, const Keyword& k) {
  each(fn, k.value);
}
template <class Fn>
void eachIn(Fn& fn, const WithItem& item) {
  each(fn, item.contextExpr);
  each(fn, item.optionalVars);
}
template <class Fn>
void eachIn(Fn& fn, const ExceptHandler& h) {
  each(fn, h.type);
  each(fn, h.body);
}
template <class Fn>
void eachIn(Fn& fn, const Comprehension& c) {
  each(fn, c.target);
  each(fn, c.iter);
  each(fn, c.ifs);
}
template <class Fn>
void eachIn(Fn& fn, const MatchCase& c) {
  each(fn, c.pattern);
  each(fn, c.guard);
  each(fn, c.body);
}
template <class Fn, class Helper>
void eachIn(Fn& fn, const std::vector<Helper>& helpers) {
  for (const Helper& h : helpers)
    eachIn(fn, h);
}

} // namespace detail

template <class Fn>
void forEachChild(Node* node, Fn&& fn) {
  using namespace detail;
  switch (node->kind) {
#define CHILD(Type, name) each(fn, self->name);
#define OPTIONAL(Type, name) each(fn, self->name);
#define CHILDREN(Type, name) each(fn, self->name);
#define DICT_ITEMS(keys, values) eachPair(fn, self->keys, self->values);
#define HELPER(Type, name) eachIn(fn, self->name);
#define HELPERS(Type, name) eachIn(fn, self->name);
#define DATA(Type, name, Default, Show)
#define AST_NODE(Name, Base, Fields)                                                               \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] auto* self = static_cast<Name*>(node);                                        \
    Fields break;                                                                                  \
  }
#include "syntax/AstNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DICT_ITEMS
#undef HELPER
#undef HELPERS
#undef DATA
  }
}

// Calls fn(node) for `root` and every node below it, parents before children.
template <class Fn>
void forEachNode(const Node* root, Fn&& fn) {
  fn(root);
  forEachChild(const_cast<Node*>(root), [&](Node* child) {
    if (child != nullptr)
      forEachNode(child, fn);
  });
}

} // namespace pyk::ast
