// AstExpressions: the expression nodes of pyk's syntax tree (Python's `ast.expr` family).
#pragma once

#include "syntax/AstNode.h"

namespace pyk::ast {

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

} // namespace pyk::ast
