// NonNegativeAnalysis: which signed integer values of a function are never negative by
// construction (thread and block indices, `cuda.grid`, shapes and sizes, non-negative constants,
// `range` counters that start at zero or above, and `+ * // % min max` of those), so that array
// indexing can skip Python's wrap of negative indices: the access stays affine in the thread
// index and the CPU backend's loops vectorise. It serves the emission of both backends
// (UnitEmitter::arrayIndex), for every function a unit holds, over the function's typed IR.
#pragma once

#include "codegen/cpu/LocalFixpoint.h"
#include "ir/Ir.h"

namespace pyk::codegen {

class NonNegativeAnalysis {
public:
  explicit NonNegativeAnalysis(const ir::Function& f);

  // Whether `e` is an integer (or boolean) that is never negative wherever it is evaluated.
  bool nonNegative(const ir::Expr* e) const;
  // Whether variable `v` (a local: a parameter never is) is never negative.
  bool nonNegativeVariable(sema::VariableId v) const { return nonNegativeLocals_.holds(v); }

private:
  class NonNegativeValue;

  bool nonNegativeBinary(ir::BinaryOp op, const ir::Expr* left, const ir::Expr* right) const;
  // One pass over a body: demotes the locals bound to values not known to be non-negative.
  void demoteIn(const std::vector<ir::Stmt*>& body);
  void assignTo(const ir::Target* target, const ir::Expr* value);
  void demote(const ir::Target* target);

  const ir::Function& f_;
  LocalFixpoint nonNegativeLocals_; // by variable
};

} // namespace pyk::codegen
