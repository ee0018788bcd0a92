// NonNegativeAnalysis: which signed integer values of a function are never negative by
// construction (thread and block indices, `cuda.grid`, shapes and sizes, non-negative constants,
// `range` counters that start at zero or above, and `+ * // % min max` of those), so that array
// indexing can skip Python's wrap of negative indices: the access stays affine in the thread
// index and the CPU backend's loops vectorise. It serves the emission of both backends
// (UnitEmitter::arrayIndex), for every function a unit holds, not only the CPU plan's kernel.
#pragma once

#include "codegen/LocalFixpoint.h"
#include "sema/ResolvedModule.h"
#include "sema/Specialization.h"

namespace pyk::codegen {

class NonNegativeAnalysis {
public:
  NonNegativeAnalysis(const sema::Specialization& spec, const sema::ResolvedModule& module);

  // Whether `e` is an integer (or boolean) that is never negative wherever it is evaluated.
  bool nonNegative(const ast::Expr* e) const;
  // Whether local `local` (its index in FunctionScope::locals) is never negative.
  bool nonNegativeVariable(size_t local) const { return nonNegativeLocals_.holds(local); }

private:
  class NonNegativeValue;
  class Demotion;

  bool nonNegativeBinary(ast::BinOpKind op, const ast::Expr* left, const ast::Expr* right) const;
  bool integerTyped(const ast::Expr* e) const;
  void demote(const ast::Expr* target);

  const sema::Specialization& spec_;
  const sema::ResolvedModule& module_;
  LocalFixpoint nonNegativeLocals_;
};

} // namespace pyk::codegen
