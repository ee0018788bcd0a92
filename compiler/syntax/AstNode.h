// AstNode: the base of pyk's syntax tree: the node kinds (from AstNodes.def), Node with its source
// range and is<T>() / as<T>(), the Stmt / Expr / Pattern families, the operator and constant
// kinds, and the parts of nodes that are not nodes themselves (Arguments, Keyword, Comprehension,
// ...). Include syntax/Ast.h for the whole tree: the node structs are generated there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "diag/SourceLocation.h"

namespace pyk::ast {

enum class NodeKind : uint8_t {
#define AST_NODE(Name, Base, Fields) Name,
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

// What a Constant holds.
enum class ConstantKind : uint8_t { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis };

// ---- helpers that are not nodes ---------------------------------------------------------------
//
// The parts of a node that Python's `ast` makes objects of their own. They stay hand-written, not
// generated from AstNodes.def: they are not nodes (no kind, not in the arena, held by value in
// their node), and neither their traversal nor their dump follows their fields (Arguments visits
// every annotation before the defaults but dumps each keyword-only default under its parameter; a
// WithItem's fields dump as `context` and `vars`). Each has one traversal function
// (AstTraversal.h) and one dump function (AstPrinter.cpp), written once, which AstNodes.def's
// HELPER and HELPERS fields reach; an Alias, which holds no node, is the value of a DATA field.

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
