// IrVisitor: return-valued visitors over const IR nodes of one family, their dispatch generated
// from IrNodes.def (in the manner of clang's StmtVisitor and the AST's ResultVisitor).
//
// A class derives from ExprVisitor<Itself, R, Args...> (StmtVisitor, TargetVisitor,
// IterVisitor) and defines the visit functions of the kinds it handles, with the node's own type:
//
//   struct Printer : ir::ExprVisitor<Printer, std::string> {
//     std::string visitBinary(const ir::Binary* e);
//     std::string visitRead(const ir::Read* e);
//     std::string visitOther(const ir::Expr* e); // every other expression kind (optional)
//   };
//
// visit(n, args...) switches on n->kind once and calls the derived class's visit<Kind>(node,
// args...) when it has one, else its visitOther(n, args...), else returns R(). Args are passed
// through to every visit function. The calls are resolved at compile time (CRTP): a visit
// function must be reachable from the base (public, or the base a friend). A class deriving from
// two of these brings both entry points in with `using ExprVisitor<...>::visit;` and the other.
#pragma once

#include <type_traits>
#include <utility>

#include "ir/Ir.h"

namespace pyk::ir {

template <class Derived, class Base, class R, class... Args>
class Visitor {
public:
  R visit(const Base* n, Args... args) {
    switch (n->kind) {
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name:                                                                             \
    if constexpr (std::is_same_v<Family, Base>) {                                                  \
      if constexpr (requires(Derived & d, const Name* x) {                                         \
                      d.visit##Name(x, std::declval<Args>()...);                                   \
                    })                                                                             \
        return derived().visit##Name(static_cast<const Name*>(n), std::forward<Args>(args)...);    \
    }                                                                                              \
    break;
#include "ir/IrNodes.def"
    }
    if constexpr (requires(Derived & d, const Base* x) {
                    d.visitOther(x, std::declval<Args>()...);
                  })
      return derived().visitOther(n, std::forward<Args>(args)...);
    else
      return R();
  }

private:
  Derived& derived() {
    return static_cast<Derived&>(*this);
  }
};

template <class Derived, class R = void, class... Args>
using ExprVisitor = Visitor<Derived, Expr, R, Args...>;
template <class Derived, class R = void, class... Args>
using StmtVisitor = Visitor<Derived, Stmt, R, Args...>;
template <class Derived, class R = void, class... Args>
using TargetVisitor = Visitor<Derived, Target, R, Args...>;
template <class Derived, class R = void, class... Args>
using IterVisitor = Visitor<Derived, Iter, R, Args...>;

} // namespace pyk::ir
