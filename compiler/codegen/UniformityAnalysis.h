// UniformityAnalysis: pass 3 of the CPU pipeline: which values of a kernel are the same in every
// thread of a block (built from block indices and sizes, scalar arguments, array shapes and
// constants), so that control flow on them is taken alike by the whole block. Consumes the typed
// kernel; concludes, per local (by its index in FunctionScope::locals) and per expression, whether
// it is block-uniform.
#pragma once

#include <cstdint>

#include "codegen/LocalFixpoint.h"
#include "sema/Specialization.h"

namespace pyk::codegen {

class UniformityAnalysis {
public:
  explicit UniformityAnalysis(const sema::Specialization& kernel);

  // Whether `e` has the same value in every (live) thread of a block.
  bool uniform(const ast::Expr* e) const;
  // Whether local `local` holds a block-uniform value wherever it is read.
  bool uniformVariable(size_t local) const { return uniformLocals_.holds(local); }
  // The same for the local a name binds (false for a name that binds no local).
  bool uniformVariable(const ast::Name* n) const;

private:
  class UniformValue;
  class Demotion;

  const sema::Specialization& kernel_;
  LocalFixpoint uniformLocals_;
};

// Whether `c` computes its result from its arguments alone, with the property `flag` names
// (sema::intrinsic_flags::BlockUniform, ThreadPure): a call of an intrinsic that has it, or of a
// scalar type (`float32(x)`, a conversion); never a device function's (it may read memory).
bool callOfArgumentsAlone(const sema::Specialization& spec, const ast::Call* c, uint32_t flag);

} // namespace pyk::codegen
