// ResultVisitor: ExprVisitor and StmtVisitor, return-valued visitors over const AST nodes whose
// dispatch is generated from AstNodes.def (in the manner of clang's StmtVisitor).
//
// A class derives from ExprVisitor<Itself, R, Args...> (or StmtVisitor) and defines the visit
// functions of the kinds it handles, with the node's own type:
//
//   struct Typer : ast::ExprVisitor<Typer, OptType> {
//     OptType visitBinOp(const ast::BinOp* e);
//     OptType visitName(const ast::Name* e);
//     OptType visitExpr(const ast::Expr* e); // every other expression kind
//   };
//   OptType t = Typer().visit(expr);
//
// visit(e, args...) switches on e->kind once and calls the derived class's visit<Kind>(node,
// args...). A kind the derived class does not handle falls back to visitExpr (visitStmt), whose
// default returns R() (nothing for void). Args are extra parameters passed through to every visit
// function (a context, an output stream). The calls are resolved at compile time (CRTP, no virtual
// functions): a derived visit function hides the base's of the same name, so it must be reachable
// from the base (public, or the base a friend). One class may derive from both, bringing in both
// entry points with `using ExprVisitor<...>::visit; using StmtVisitor<...>::visit;`.
#pragma once

#include <utility>

#include "syntax/Ast.h"

namespace pyk::ast {

// AstNodes.def's entries, picked by family: each AST_NODE(Name, Base, Fields) becomes
// PYK_RESULT_VISITOR_PICK_<Base>(Name), which each use below defines as the code for one kind of
// its own family and as nothing for the other families (node and pattern kinds: always nothing).
#define PYK_RESULT_VISITOR_PICK_Node(Name)
#define PYK_RESULT_VISITOR_PICK_Pattern(Name)

template <class Derived, class R = void, class... Args>
class ExprVisitor {
public:
  R visit(const Expr* e, Args... args) {
    switch (e->kind) {
#define PYK_RESULT_VISITOR_PICK_Stmt(Name)
#define PYK_RESULT_VISITOR_PICK_Expr(Name)                                                         \
  case NodeKind::Name:                                                                             \
    return derived().visit##Name(static_cast<const Name*>(e), std::forward<Args>(args)...);
#define AST_NODE(Name, Base, Fields) PYK_RESULT_VISITOR_PICK_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_RESULT_VISITOR_PICK_Expr
#undef PYK_RESULT_VISITOR_PICK_Stmt
    default:
      break; // not an expression kind: cannot happen for a well-formed Expr
    }
    return derived().visitExpr(e, std::forward<Args>(args)...);
  }

  // The fallback for every expression kind the derived class does not handle.
  R visitExpr(const Expr*, Args...) {
    return R();
  }

  // One default per expression kind: the fallback.
#define PYK_RESULT_VISITOR_PICK_Stmt(Name)
#define PYK_RESULT_VISITOR_PICK_Expr(Name)                                                         \
  R visit##Name(const Name* e, Args... args) {                                                     \
    return derived().visitExpr(e, std::forward<Args>(args)...);                                    \
  }
#define AST_NODE(Name, Base, Fields) PYK_RESULT_VISITOR_PICK_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_RESULT_VISITOR_PICK_Expr
#undef PYK_RESULT_VISITOR_PICK_Stmt

private:
  Derived& derived() {
    return static_cast<Derived&>(*this);
  }
};

template <class Derived, class R = void, class... Args>
class StmtVisitor {
public:
  R visit(const Stmt* s, Args... args) {
    switch (s->kind) {
#define PYK_RESULT_VISITOR_PICK_Expr(Name)
#define PYK_RESULT_VISITOR_PICK_Stmt(Name)                                                         \
  case NodeKind::Name:                                                                             \
    return derived().visit##Name(static_cast<const Name*>(s), std::forward<Args>(args)...);
#define AST_NODE(Name, Base, Fields) PYK_RESULT_VISITOR_PICK_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_RESULT_VISITOR_PICK_Stmt
#undef PYK_RESULT_VISITOR_PICK_Expr
    default:
      break; // not a statement kind: cannot happen for a well-formed Stmt
    }
    return derived().visitStmt(s, std::forward<Args>(args)...);
  }

  // The fallback for every statement kind the derived class does not handle.
  R visitStmt(const Stmt*, Args...) {
    return R();
  }

  // One default per statement kind: the fallback.
#define PYK_RESULT_VISITOR_PICK_Expr(Name)
#define PYK_RESULT_VISITOR_PICK_Stmt(Name)                                                         \
  R visit##Name(const Name* s, Args... args) {                                                     \
    return derived().visitStmt(s, std::forward<Args>(args)...);                                    \
  }
#define AST_NODE(Name, Base, Fields) PYK_RESULT_VISITOR_PICK_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_RESULT_VISITOR_PICK_Stmt
#undef PYK_RESULT_VISITOR_PICK_Expr

private:
  Derived& derived() {
    return static_cast<Derived&>(*this);
  }
};

#undef PYK_RESULT_VISITOR_PICK_Node
#undef PYK_RESULT_VISITOR_PICK_Pattern

} // namespace pyk::ast
