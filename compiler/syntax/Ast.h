// Ast: pyk's own syntax tree for Python source, with a source range on every node.
//
// The node set mirrors Python's `ast` module (so readers who know that module know this one);
// nodes are plain structs owned by an AstContext arena and linked by raw pointers. No ANTLR type
// appears here: the parse tree is turned into these nodes right after parsing (AstBuilder).
//
// This header is the whole tree: the base (AstNode.h), the statement, expression and pattern nodes
// (AstStatements.h, AstExpressions.h, AstPatterns.h), the module, the arena that owns the nodes,
// and traversal (forEachChild, forEachNode; the visitors generated from the node list,
// ExprVisitor and StmtVisitor, are in ResultVisitor.h).
#pragma once

#include <memory>
#include <vector>

#include "syntax/AstExpressions.h"
#include "syntax/AstNode.h"
#include "syntax/AstPatterns.h"
#include "syntax/AstStatements.h"

namespace pyk::ast {

// ---- module -----------------------------------------------------------------------------------

struct Module : Node {
  PYK_AST_CLASSOF(Module)
  Module() : Node(NodeKind::Module) {}
  std::vector<Stmt*> body;
};

// The node headers' shorthand ends here (AstNode.h defines it).
#undef PYK_AST_CLASSOF

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

// ---- traversal --------------------------------------------------------------------------------

// Calls `fn` on each direct child node of `node`, in source order. Non-node helpers (Arguments,
// Keyword, Comprehension, ...) are looked through: their nodes count as children of `node`.
template <class Fn>
void forEachChild(Node* node, Fn&& fn);

} // namespace pyk::ast

#include "syntax/AstTraversal.h"
