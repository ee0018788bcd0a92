// AstNode: the base of pyk's syntax tree: the node kinds (from AstNodes.def), Node with its source
// range and is<T>() / as<T>(), the Stmt / Expr / Pattern families, the operator kinds, and the
// parts of nodes that are not nodes themselves (Arguments, Keyword, Comprehension, ...).
// Include syntax/Ast.h for the whole tree; this header is what the node headers share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "diag/SourceLocation.h"

namespace pyk::ast {

enum class NodeKind : uint8_t {
#define AST_NODE(Name, Base) Name,
#include "syntax/AstNodes.def"
};

const char* nodeKindName(NodeKind kind);

struct Node {
  NodeKind kind;
  SourceRange range;

  explicit Node(NodeKind k) : kind(k) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  template <class T>
  bool is() const {
    return T::classof(this);
  }
  template <class T>
  T* as() {
    return is<T>() ? static_cast<T*>(this) : nullptr;
  }
  template <class T>
  const T* as() const {
    return is<T>() ? static_cast<const T*>(this) : nullptr;
  }
};

struct Stmt : Node {
  using Node::Node;
  static bool classof(const Node* n);
};
struct Expr : Node {
  using Node::Node;
  static bool classof(const Node* n);
};
struct Pattern : Node {
  using Node::Node;
  static bool classof(const Node* n);
};

// The node headers' shorthand for a concrete node's classof; Ast.h undefines it once they are all
// included.
#define PYK_AST_CLASSOF(Name)                                                                      \
  static bool classof(const Node* n) {                                                             \
    return n->kind == NodeKind::Name;                                                              \
  }

// ---- operators --------------------------------------------------------------------------------

enum class ExprContext : uint8_t { Load, Store, Del };
enum class BoolOpKind : uint8_t { And, Or };
enum class BinOpKind : uint8_t {
  Add,
  Sub,
  Mult,
  MatMult,
  Div,
  Mod,
  Pow,
  LShift,
  RShift,
  BitOr,
  BitXor,
  BitAnd,
  FloorDiv
};
enum class UnaryOpKind : uint8_t { Invert, Not, UAdd, USub };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char* toString(ExprContext ctx);
const char* toString(BoolOpKind op);  // "and"
const char* toString(BinOpKind op);   // "+"
const char* toString(UnaryOpKind op); // "-"
const char* toString(CmpOpKind op);   // "<="
const char* nameOf(BoolOpKind op);    // "And"
const char* nameOf(BinOpKind op);     // "Add"
const char* nameOf(UnaryOpKind op);   // "USub"
const char* nameOf(CmpOpKind op);     // "LtE"

// ---- helpers that are not nodes ---------------------------------------------------------------

struct Keyword {
  std::string arg; // empty for `**value`
  Expr* value = nullptr;
  SourceRange range;
};

struct Arg {
  std::string name;
  Expr* annotation = nullptr;
  SourceRange range;
};

struct Arguments {
  std::vector<Arg> posonlyargs;
  std::vector<Arg> args;
  std::unique_ptr<Arg> vararg; // *args
  std::vector<Arg> kwonlyargs;
  std::vector<Expr*> kwDefaults; // one per kwonlyarg, nullptr where none
  std::unique_ptr<Arg> kwarg;    // **kwargs
  std::vector<Expr*> defaults;   // for the last len(defaults) of posonlyargs + args
};

struct Alias {
  std::string name;   // dotted for `import a.b`
  std::string asname; // empty when absent
  SourceRange range;
};

struct WithItem {
  Expr* contextExpr = nullptr;
  Expr* optionalVars = nullptr;
};

struct ExceptHandler {
  Expr* type = nullptr;
  std::string name; // empty when absent
  std::vector<Stmt*> body;
  SourceRange range;
};

struct Comprehension {
  Expr* target = nullptr;
  Expr* iter = nullptr;
  std::vector<Expr*> ifs;
  bool isAsync = false;
};

struct MatchCase {
  Pattern* pattern = nullptr;
  Expr* guard = nullptr;
  std::vector<Stmt*> body;
  SourceRange range;
};

} // namespace pyk::ast
