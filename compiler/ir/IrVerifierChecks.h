// IrVerifierChecks: the verifier's walk of one function (internal to ir/: the public face is
// IrVerifier.h): statements, targets and iterations in execution order, tracking the versions
// defined so far (IrVerifier.cpp), and every value's type against its operands'
// (IrVerifierValues.cpp).
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/Ir.h"

namespace pyk::ir::verification {

using types::NumbaType;
using types::ScalarKind;

inline bool isBoolean(const NumbaType& t) {
  return t.isScalar() && t.scalarKind() == ScalarKind::Boolean;
}
inline bool isIntegerOrBoolean(const NumbaType& t) {
  return t.isScalar() &&
         (types::isInteger(t.scalarKind()) || t.scalarKind() == ScalarKind::Boolean);
}
inline bool isInt64(const NumbaType& t) {
  return t.isScalar() && t.scalarKind() == ScalarKind::Int64;
}

class Verifier {
public:
  Verifier(const Module& module, const Function& f, std::vector<std::string>& problems)
      : module_(module), f_(f), problems_(problems) {}

  void run();

private:
  // ---- statements, in execution order ----
  void block(const std::vector<Stmt*>& body);
  // Runs `body` with the versions defined now, then restores them; returns what it defined.
  // Versions are "defined" on some path: numba makes no phi where one path assigns a variable and
  // the other leaves it unassigned (a read there may raise UnboundLocalError in Python), so a
  // version assigned in one branch is what a read after the join sees.
  template <class Fn>
  std::set<size_t> branch(Fn&& body) {
    const std::set<size_t> before = defined_;
    body();
    std::set<size_t> after = std::move(defined_);
    defined_ = before;
    return after;
  }
  void join(const std::set<size_t>& a, const std::set<size_t>& b);
  void definePhis(const Stmt* at, bool loopHead);
  void statement(const Stmt* s);
  // A loop's body: what it defines is seen after it (it may run), and by the loop's `else`.
  template <class Fn>
  void loop(Fn&& body) {
    ++loopDepth_;
    body();
    --loopDepth_;
  }
  void condition(const Node* at, const Expr* e);
  // ---- targets ----
  void target(const Target* t);
  // ---- iterations ----
  void iteration(const Iter* it);
  void parts(const Iter* it, const std::vector<Iter*>& parts, bool counted);
  // ---- values ----
  void value(const Expr* e);
  void binary(const Binary* b);
  void call(const Call* c);
  void arrayItem(const Node* at, const Expr* array, const std::vector<Expr*>& indices,
                 const NumbaType& item);
  bool versionOf(const Node* at, const VersionRef& v);
  void expectType(const Node* n, const NumbaType& expected, const char* what);
  void expectBoolean(const Expr* e);
  void problem(const Node* at, const std::string& what);

  const Module& module_;
  const Function& f_;
  std::vector<std::string>& problems_;
  std::set<size_t> defined_;
  int loopDepth_ = 0;
  std::vector<std::pair<int, NumbaType>> bound_; // the bindings of the SpreadCalls around
};

} // namespace pyk::ir::verification
