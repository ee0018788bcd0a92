// UniformityAnalysis: pass 3 of the CPU pipeline: which values of a kernel are the same in every
// thread of a block (built from block indices and sizes, scalar arguments, array shapes and
// constants), so that control flow on them is taken alike by the whole block. Consumes the
// kernel's IR; concludes, per variable and per expression, whether it is block-uniform.
#pragma once

#include <cstdint>

#include "codegen/cpu/LocalFixpoint.h"

namespace pyk::codegen {

class UniformityAnalysis {
public:
  explicit UniformityAnalysis(const ir::Function& kernel);

  // Whether `e` has the same value in every (live) thread of a block.
  bool uniform(const ir::Expr* e) const;
  // Whether variable `v` holds a block-uniform value wherever it is read (a parameter always).
  bool uniformVariable(sema::VariableId v) const {
    return kernel_.variables[v].parameter || uniformLocals_.holds(v);
  }

private:
  class UniformValue;

  // One pass over a body: demotes the locals assigned a value that may differ between threads,
  // or assigned under control flow that may (`uniformControl` false).
  void demoteIn(const std::vector<ir::Stmt*>& body, bool uniformControl);
  void assignValue(const ir::Target* target, const ir::Expr* value, bool uniformControl);
  void assign(const ir::Target* target, bool uniformValue);

  const ir::Function& kernel_;
  LocalFixpoint uniformLocals_;
};

// Whether `e` computes its result from its operands alone, with the property `flag` names
// (sema::intrinsic_flags::BlockUniform, ThreadPure): an intrinsic call that has it, or a cast the
// source writes (`float32(x)`); never a device function's call (it may read memory).
bool callOfArgumentsAlone(const ir::Expr* e, uint32_t flag);

} // namespace pyk::codegen
