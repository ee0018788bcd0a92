// Ast: pyk's own syntax tree for Python source, with a source range on every node.
//
// The node set mirrors Python's `ast` module (so readers who know that module know this one);
// nodes are plain structs owned by an AstContext arena and linked by raw pointers. No ANTLR type
// appears here: the parse tree is turned into these nodes right after parsing (AstBuilder).
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

// ---- module -----------------------------------------------------------------------------------

struct Module : Node {
  PYK_AST_CLASSOF(Module)
  Module() : Node(NodeKind::Module) {}
  std::vector<Stmt*> body;
};

// ---- statements -------------------------------------------------------------------------------

struct FunctionDef : Stmt {
  PYK_AST_CLASSOF(FunctionDef)
  FunctionDef() : Stmt(NodeKind::FunctionDef) {}
  std::string name;
  SourceRange nameRange;
  Arguments args;
  std::vector<Stmt*> body;
  std::vector<Expr*> decorators;
  Expr* returns = nullptr;
  bool isAsync = false;
};

struct ClassDef : Stmt {
  PYK_AST_CLASSOF(ClassDef)
  ClassDef() : Stmt(NodeKind::ClassDef) {}
  std::string name;
  SourceRange nameRange;
  std::vector<Expr*> bases;
  std::vector<Keyword> keywords;
  std::vector<Stmt*> body;
  std::vector<Expr*> decorators;
};

struct Return : Stmt {
  PYK_AST_CLASSOF(Return)
  Return() : Stmt(NodeKind::Return) {}
  Expr* value = nullptr;
};

struct Delete : Stmt {
  PYK_AST_CLASSOF(Delete)
  Delete() : Stmt(NodeKind::Delete) {}
  std::vector<Expr*> targets;
};

struct Assign : Stmt {
  PYK_AST_CLASSOF(Assign)
  Assign() : Stmt(NodeKind::Assign) {}
  std::vector<Expr*> targets; // a = b = value has two
  Expr* value = nullptr;
};

struct AugAssign : Stmt {
  PYK_AST_CLASSOF(AugAssign)
  AugAssign() : Stmt(NodeKind::AugAssign) {}
  Expr* target = nullptr;
  BinOpKind op = BinOpKind::Add;
  Expr* value = nullptr;
};

struct AnnAssign : Stmt {
  PYK_AST_CLASSOF(AnnAssign)
  AnnAssign() : Stmt(NodeKind::AnnAssign) {}
  Expr* target = nullptr;
  Expr* annotation = nullptr;
  Expr* value = nullptr; // may be null
  bool simple = true;    // target is a plain name, not parenthesised
};

struct For : Stmt {
  PYK_AST_CLASSOF(For)
  For() : Stmt(NodeKind::For) {}
  Expr* target = nullptr;
  Expr* iter = nullptr;
  std::vector<Stmt*> body;
  std::vector<Stmt*> orelse;
  bool isAsync = false;
};

struct While : Stmt {
  PYK_AST_CLASSOF(While)
  While() : Stmt(NodeKind::While) {}
  Expr* test = nullptr;
  std::vector<Stmt*> body;
  std::vector<Stmt*> orelse;
};

struct If : Stmt {
  PYK_AST_CLASSOF(If)
  If() : Stmt(NodeKind::If) {}
  Expr* test = nullptr;
  std::vector<Stmt*> body;
  std::vector<Stmt*> orelse; // an `elif` is a single nested If here
};

struct With : Stmt {
  PYK_AST_CLASSOF(With)
  With() : Stmt(NodeKind::With) {}
  std::vector<WithItem> items;
  std::vector<Stmt*> body;
  bool isAsync = false;
};

struct Match : Stmt {
  PYK_AST_CLASSOF(Match)
  Match() : Stmt(NodeKind::Match) {}
  Expr* subject = nullptr;
  std::vector<MatchCase> cases;
};

struct Raise : Stmt {
  PYK_AST_CLASSOF(Raise)
  Raise() : Stmt(NodeKind::Raise) {}
  Expr* exc = nullptr;
  Expr* cause = nullptr;
};

struct Try : Stmt {
  PYK_AST_CLASSOF(Try)
  Try() : Stmt(NodeKind::Try) {}
  std::vector<Stmt*> body;
  std::vector<ExceptHandler> handlers;
  std::vector<Stmt*> orelse;
  std::vector<Stmt*> finalbody;
  bool isStar = false; // except*
};

struct Assert : Stmt {
  PYK_AST_CLASSOF(Assert)
  Assert() : Stmt(NodeKind::Assert) {}
  Expr* test = nullptr;
  Expr* msg = nullptr;
};

struct Import : Stmt {
  PYK_AST_CLASSOF(Import)
  Import() : Stmt(NodeKind::Import) {}
  std::vector<Alias> names;
};

struct ImportFrom : Stmt {
  PYK_AST_CLASSOF(ImportFrom)
  ImportFrom() : Stmt(NodeKind::ImportFrom) {}
  std::string module;       // empty for `from . import x`
  std::vector<Alias> names; // one alias named "*" for `import *`
  int level = 0;            // leading dots
};

struct Global : Stmt {
  PYK_AST_CLASSOF(Global)
  Global() : Stmt(NodeKind::Global) {}
  std::vector<std::string> names;
};

struct Nonlocal : Stmt {
  PYK_AST_CLASSOF(Nonlocal)
  Nonlocal() : Stmt(NodeKind::Nonlocal) {}
  std::vector<std::string> names;
};

struct ExprStmt : Stmt {
  PYK_AST_CLASSOF(ExprStmt)
  ExprStmt() : Stmt(NodeKind::ExprStmt) {}
  Expr* value = nullptr;
};

struct Pass : Stmt {
  PYK_AST_CLASSOF(Pass)
  Pass() : Stmt(NodeKind::Pass) {}
};

struct Break : Stmt {
  PYK_AST_CLASSOF(Break)
  Break() : Stmt(NodeKind::Break) {}
};

struct Continue : Stmt {
  PYK_AST_CLASSOF(Continue)
  Continue() : Stmt(NodeKind::Continue) {}
};

// ---- expressions ------------------------------------------------------------------------------

struct BoolOp : Expr {
  PYK_AST_CLASSOF(BoolOp)
  BoolOp() : Expr(NodeKind::BoolOp) {}
  BoolOpKind op = BoolOpKind::And;
  std::vector<Expr*> values;
};

struct NamedExpr : Expr {
  PYK_AST_CLASSOF(NamedExpr)
  NamedExpr() : Expr(NodeKind::NamedExpr) {}
  Expr* target = nullptr; // a Name
  Expr* value = nullptr;
};

struct BinOp : Expr {
  PYK_AST_CLASSOF(BinOp)
  BinOp() : Expr(NodeKind::BinOp) {}
  Expr* left = nullptr;
  BinOpKind op = BinOpKind::Add;
  Expr* right = nullptr;
};

struct UnaryOp : Expr {
  PYK_AST_CLASSOF(UnaryOp)
  UnaryOp() : Expr(NodeKind::UnaryOp) {}
  UnaryOpKind op = UnaryOpKind::USub;
  Expr* operand = nullptr;
};

struct Lambda : Expr {
  PYK_AST_CLASSOF(Lambda)
  Lambda() : Expr(NodeKind::Lambda) {}
  Arguments args;
  Expr* body = nullptr;
};

struct IfExp : Expr {
  PYK_AST_CLASSOF(IfExp)
  IfExp() : Expr(NodeKind::IfExp) {}
  Expr* test = nullptr;
  Expr* body = nullptr;
  Expr* orelse = nullptr;
};

struct Dict : Expr {
  PYK_AST_CLASSOF(Dict)
  Dict() : Expr(NodeKind::Dict) {}
  std::vector<Expr*> keys; // nullptr for `**mapping`
  std::vector<Expr*> values;
};

struct Set : Expr {
  PYK_AST_CLASSOF(Set)
  Set() : Expr(NodeKind::Set) {}
  std::vector<Expr*> elts;
};

struct ListComp : Expr {
  PYK_AST_CLASSOF(ListComp)
  ListComp() : Expr(NodeKind::ListComp) {}
  Expr* elt = nullptr;
  std::vector<Comprehension> generators;
};

struct SetComp : Expr {
  PYK_AST_CLASSOF(SetComp)
  SetComp() : Expr(NodeKind::SetComp) {}
  Expr* elt = nullptr;
  std::vector<Comprehension> generators;
};

struct DictComp : Expr {
  PYK_AST_CLASSOF(DictComp)
  DictComp() : Expr(NodeKind::DictComp) {}
  Expr* key = nullptr;
  Expr* value = nullptr;
  std::vector<Comprehension> generators;
};

struct GeneratorExp : Expr {
  PYK_AST_CLASSOF(GeneratorExp)
  GeneratorExp() : Expr(NodeKind::GeneratorExp) {}
  Expr* elt = nullptr;
  std::vector<Comprehension> generators;
};

struct Await : Expr {
  PYK_AST_CLASSOF(Await)
  Await() : Expr(NodeKind::Await) {}
  Expr* value = nullptr;
};

struct Yield : Expr {
  PYK_AST_CLASSOF(Yield)
  Yield() : Expr(NodeKind::Yield) {}
  Expr* value = nullptr; // may be null
};

struct YieldFrom : Expr {
  PYK_AST_CLASSOF(YieldFrom)
  YieldFrom() : Expr(NodeKind::YieldFrom) {}
  Expr* value = nullptr;
};

struct Compare : Expr {
  PYK_AST_CLASSOF(Compare)
  Compare() : Expr(NodeKind::Compare) {}
  Expr* left = nullptr;
  std::vector<CmpOpKind> ops;
  std::vector<Expr*> comparators;
};

struct Call : Expr {
  PYK_AST_CLASSOF(Call)
  Call() : Expr(NodeKind::Call) {}
  Expr* func = nullptr;
  std::vector<Expr*> args; // may hold Starred
  std::vector<Keyword> keywords;
};

struct FormattedValue : Expr {
  PYK_AST_CLASSOF(FormattedValue)
  FormattedValue() : Expr(NodeKind::FormattedValue) {}
  Expr* value = nullptr;
  char conversion = 0;        // 0, 's', 'r' or 'a'
  Expr* formatSpec = nullptr; // a JoinedStr, or null
};

struct JoinedStr : Expr {
  PYK_AST_CLASSOF(JoinedStr)
  JoinedStr() : Expr(NodeKind::JoinedStr) {}
  std::vector<Expr*> values; // Constant strings and FormattedValues
};

enum class ConstantKind : uint8_t { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis };

struct Constant : Expr {
  PYK_AST_CLASSOF(Constant)
  Constant() : Expr(NodeKind::Constant) {}
  ConstantKind valueKind = ConstantKind::None;
  bool boolValue = false;
  __int128 intValue = 0;    // Int, exact when !intTooLarge
  bool intTooLarge = false; // the literal needs more than 127 bits (host code may do that)
  double floatValue = 0;    // Float; the imaginary part of Complex
  std::string strValue;     // Str (UTF-8) or Bytes (raw)
  std::string spelling;     // the literal as written (numbers), for messages
};

struct Attribute : Expr {
  PYK_AST_CLASSOF(Attribute)
  Attribute() : Expr(NodeKind::Attribute) {}
  Expr* value = nullptr;
  std::string attr;
  SourceRange attrRange;
  ExprContext ctx = ExprContext::Load;
};

struct Subscript : Expr {
  PYK_AST_CLASSOF(Subscript)
  Subscript() : Expr(NodeKind::Subscript) {}
  Expr* value = nullptr;
  Expr* slice = nullptr; // a Tuple for a[i, j]; a Slice for a[i:j]
  ExprContext ctx = ExprContext::Load;
};

struct Starred : Expr {
  PYK_AST_CLASSOF(Starred)
  Starred() : Expr(NodeKind::Starred) {}
  Expr* value = nullptr;
  ExprContext ctx = ExprContext::Load;
};

struct Name : Expr {
  PYK_AST_CLASSOF(Name)
  Name() : Expr(NodeKind::Name) {}
  std::string id;
  ExprContext ctx = ExprContext::Load;
};

struct List : Expr {
  PYK_AST_CLASSOF(List)
  List() : Expr(NodeKind::List) {}
  std::vector<Expr*> elts;
  ExprContext ctx = ExprContext::Load;
};

struct Tuple : Expr {
  PYK_AST_CLASSOF(Tuple)
  Tuple() : Expr(NodeKind::Tuple) {}
  std::vector<Expr*> elts;
  ExprContext ctx = ExprContext::Load;
  bool parenthesized = false;
};

struct Slice : Expr {
  PYK_AST_CLASSOF(Slice)
  Slice() : Expr(NodeKind::Slice) {}
  Expr* lower = nullptr;
  Expr* upper = nullptr;
  Expr* step = nullptr;
};

// ---- patterns ---------------------------------------------------------------------------------

struct MatchValue : Pattern {
  PYK_AST_CLASSOF(MatchValue)
  MatchValue() : Pattern(NodeKind::MatchValue) {}
  Expr* value = nullptr;
};

struct MatchSingleton : Pattern {
  PYK_AST_CLASSOF(MatchSingleton)
  MatchSingleton() : Pattern(NodeKind::MatchSingleton) {}
  Constant* value = nullptr; // None, True or False
};

struct MatchSequence : Pattern {
  PYK_AST_CLASSOF(MatchSequence)
  MatchSequence() : Pattern(NodeKind::MatchSequence) {}
  std::vector<Pattern*> patterns;
};

struct MatchMapping : Pattern {
  PYK_AST_CLASSOF(MatchMapping)
  MatchMapping() : Pattern(NodeKind::MatchMapping) {}
  std::vector<Expr*> keys;
  std::vector<Pattern*> patterns;
  std::string rest; // **rest, empty when absent
};

struct MatchClass : Pattern {
  PYK_AST_CLASSOF(MatchClass)
  MatchClass() : Pattern(NodeKind::MatchClass) {}
  Expr* cls = nullptr;
  std::vector<Pattern*> patterns;
  std::vector<std::string> kwdAttrs;
  std::vector<Pattern*> kwdPatterns;
};

struct MatchStar : Pattern {
  PYK_AST_CLASSOF(MatchStar)
  MatchStar() : Pattern(NodeKind::MatchStar) {}
  std::string name; // empty for *_
};

struct MatchAs : Pattern {
  PYK_AST_CLASSOF(MatchAs)
  MatchAs() : Pattern(NodeKind::MatchAs) {}
  Pattern* pattern = nullptr; // null for a bare capture or `_`
  std::string name;           // empty for `_`
};

struct MatchOr : Pattern {
  PYK_AST_CLASSOF(MatchOr)
  MatchOr() : Pattern(NodeKind::MatchOr) {}
  std::vector<Pattern*> patterns;
};

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

// A visitor in the manner of Halide's IRVisitor: visit(Node*) dispatches to one overridable
// function per node kind, each of which by default visits the node's children.
class AstVisitor {
public:
  virtual ~AstVisitor() = default;
  void visit(Node* node);
  void visitChildren(Node* node);

#define AST_NODE(Name, Base)                                                                       \
  virtual void visit##Name(Name* node) {                                                           \
    visitChildren(node);                                                                           \
  }
#include "syntax/AstNodes.def"
};

} // namespace pyk::ast

#include "syntax/AstTraversal.h"
