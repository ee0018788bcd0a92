// NonNegativeAnalysis: which signed integer values of a function are never negative by
// construction (thread and block indices, `cuda.grid`, shapes and sizes, non-negative constants,
// `range` counters that start at zero or above, and `+ * // % min max` of those), so that array
// indexing can skip Python's wrap of negative indices: the access stays affine in the thread
// index and the CPU backend's loops vectorise.
#pragma once

#include <set>
#include <string>

#include "sema/ResolvedModule.h"
#include "sema/Specialization.h"

namespace pyk::codegen {

class NonNegativeAnalysis {
public:
  NonNegativeAnalysis(const sema::Specialization& spec, const sema::ResolvedModule& module);

  // Whether `e` is an integer (or boolean) that is never negative wherever it is evaluated.
  bool nonNegative(const ast::Expr* e) const;

private:
  // One pass over the body; returns whether a local was found possibly negative.
  bool pass(const std::vector<ast::Stmt*>& body);
  bool demote(const ast::Expr* target);
  bool assignTo(const ast::Expr* target, const ast::Expr* value);
  bool nonNegativeBinary(ast::BinOpKind op, const ast::Expr* left, const ast::Expr* right) const;
  bool integerTyped(const ast::Expr* e) const;

  const sema::Specialization& spec_;
  const sema::ResolvedModule& module_;
  std::set<std::string> nonNegativeLocals_;
};

} // namespace pyk::codegen
