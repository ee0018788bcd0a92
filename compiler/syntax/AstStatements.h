// AstStatements: the statement nodes of pyk's syntax tree (Python's `ast.stmt` family).
#pragma once

#include "syntax/AstNode.h"

namespace pyk::ast {

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

} // namespace pyk::ast
