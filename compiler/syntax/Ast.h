// Ast: pyk's own syntax tree for Python source, with a source range on every node.
//
// The node set mirrors Python's `ast` module (so readers who know that module know this one);
// nodes are plain structs owned by an AstContext arena and linked by raw pointers. No ANTLR type
// appears here: the parse tree is turned into these nodes right after parsing (AstBuilder).
//
// The node kinds and their fields are declared once, in AstNodes.def; the node structs here, the
// child traversal (forEachChild, AstTraversal.h) and the dump (AstPrinter.h) are generated from
// it, and so are the visitors (ExprVisitor and StmtVisitor, ResultVisitor.h). This header is the
// whole tree: the base, the operators and the helper structs (AstNode.h), the node structs, the
// arena that owns the nodes, and traversal (forEachChild, forEachNode).
#pragma once

#include <memory>
#include <vector>

#include "syntax/AstNode.h"

namespace pyk::ast {

// ---- the node structs, from AstNodes.def ------------------------------------------------------

#define AST_NODE(Name, Base, Fields) struct Name;
#include "syntax/AstNodes.def"

#define CHILD(Type, name) Type* name = nullptr;
#define OPTIONAL(Type, name) Type* name = nullptr;
#define CHILDREN(Type, name) std::vector<Type*> name;
#define DICT_ITEMS(keys, values)                                                                   \
  std::vector<Expr*> keys;                                                                         \
  std::vector<Expr*> values;
#define HELPER(Type, name) Type name;
#define HELPERS(Type, name) std::vector<Type> name;
#define DATA(Type, name, Default, Show) Type name = Default;
#define AST_NODE(Name, Base, Fields)                                                               \
  struct Name : Base {                                                                             \
    static bool classof(const Node* n) { return n->kind == NodeKind::Name; }                       \
    Name() : Base(NodeKind::Name) {}                                                               \
    Fields                                                                                         \
  };
#include "syntax/AstNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DICT_ITEMS
#undef HELPER
#undef HELPERS
#undef DATA

// ---- ownership --------------------------------------------------------------------------------

// Owns every node of one parsed file. Nodes are freed together, without recursion, so a deeply
// nested tree cannot overflow the stack when it dies.
class AstContext {
public:
  template <class T>
  T* make(SourceRange range = {}) {
    auto node = std::make_unique<T>();
    node->range = range;
    T* raw = node.get();
    nodes_.push_back(std::move(node));
    return raw;
  }
  size_t nodeCount() const { return nodes_.size(); }

private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

// ---- displays ---------------------------------------------------------------------------------

// The elements of a tuple or list display (`(a, b)`, `[a, b]`, also as assignment targets);
// null for any other expression.
const std::vector<Expr*>* tupleOrListElements(const Expr* e);

// ---- traversal --------------------------------------------------------------------------------

// Calls `fn` on each direct child node of `node` that is not null, in field order (AstNodes.def:
// source order). Helper structs (Arguments, Keyword, Comprehension, ...) are looked through: their
// nodes count as children of `node`.
template <class Fn>
void forEachChild(Node* node, Fn&& fn);

} // namespace pyk::ast

#include "syntax/AstTraversal.h"
