// UniformityAnalysis: which values of a kernel are the same in every thread of a block (built from
// block indices and sizes, scalar arguments, array shapes and constants), so that control flow on
// them is taken alike by the whole block.
#pragma once

#include <set>
#include <string>

#include "sema/Specialization.h"

namespace pyk::codegen {

class UniformityAnalysis {
public:
  explicit UniformityAnalysis(const sema::Specialization& kernel);

  // Whether `e` has the same value in every (live) thread of a block.
  bool uniform(const ast::Expr* e) const;
  // Whether local `name` holds a block-uniform value wherever it is read.
  bool uniformVariable(const std::string& name) const { return uniformLocals_.count(name) != 0; }

private:
  // One pass over the body; returns whether a variable was found not to be uniform.
  bool pass(const std::vector<ast::Stmt*>& body, bool uniformControl);
  bool demoteTargets(const ast::Expr* target, bool uniformValue);

  const sema::Specialization& kernel_;
  std::set<std::string> uniformLocals_;
};

// Whether `body` has a break, continue or return (at any depth).
bool hasJump(const std::vector<ast::Stmt*>& body);

} // namespace pyk::codegen
