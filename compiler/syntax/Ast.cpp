// Ast: node-kind names, operator spellings and the visitor's dispatch.
#include "syntax/Ast.h"

namespace pyk::ast {

const char* nodeKindName(NodeKind kind) {
  switch (kind) {
#define AST_NODE(Name, Base, Fields)                                                               \
  case NodeKind::Name:                                                                             \
    return #Name;
#include "syntax/AstNodes.def"
  }
  return "?";
}

const std::vector<Expr*>* tupleOrListElements(const Expr* e) {
  if (const auto* tuple = e->as<Tuple>())
    return &tuple->elts;
  if (const auto* list = e->as<List>())
    return &list->elts;
  return nullptr;
}

namespace {
template <NodeKind First, NodeKind Last>
bool inRange(const Node* n) {
  return n->kind >= First && n->kind <= Last;
}
} // namespace

bool Stmt::classof(const Node* n) {
  return inRange<NodeKind::FunctionDef, NodeKind::Continue>(n);
}
bool Expr::classof(const Node* n) {
  return inRange<NodeKind::BoolOp, NodeKind::Slice>(n);
}
bool Pattern::classof(const Node* n) {
  return inRange<NodeKind::MatchValue, NodeKind::MatchOr>(n);
}

const char* toString(ExprContext ctx) {
  switch (ctx) {
  case ExprContext::Load:
    return "Load";
  case ExprContext::Store:
    return "Store";
  case ExprContext::Del:
    return "Del";
  }
  return "?";
}

const char* toString(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}
const char* nameOf(BoolOpKind op) {
  return op == BoolOpKind::And ? "And" : "Or";
}

const char* toString(BinOpKind op) {
  static const char* const kSpellings[] = {"+",  "-",  "*", "@", "/", "%", "**",
                                           "<<", ">>", "|", "^", "&", "//"};
  return kSpellings[static_cast<size_t>(op)];
}
const char* nameOf(BinOpKind op) {
  static const char* const kNames[] = {"Add",    "Sub",    "Mult",    "MatMult", "Div",
                                       "Mod",    "Pow",    "LShift",  "RShift",  "BitOr",
                                       "BitXor", "BitAnd", "FloorDiv"};
  return kNames[static_cast<size_t>(op)];
}

const char* toString(UnaryOpKind op) {
  static const char* const kSpellings[] = {"~", "not", "+", "-"};
  return kSpellings[static_cast<size_t>(op)];
}
const char* nameOf(UnaryOpKind op) {
  static const char* const kNames[] = {"Invert", "Not", "UAdd", "USub"};
  return kNames[static_cast<size_t>(op)];
}

const char* toString(CmpOpKind op) {
  static const char* const kSpellings[] = {"==", "!=", "<",      "<=", ">",
                                           ">=", "is", "is not", "in", "not in"};
  return kSpellings[static_cast<size_t>(op)];
}
const char* nameOf(CmpOpKind op) {
  static const char* const kNames[] = {"Eq",  "NotEq", "Lt",    "LtE", "Gt",
                                       "GtE", "Is",    "IsNot", "In",  "NotIn"};
  return kNames[static_cast<size_t>(op)];
}

} // namespace pyk::ast
