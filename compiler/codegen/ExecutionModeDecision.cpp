// ExecutionModeDecision: fibers where a thread must be able to wait in the middle of a
// function the block does not run statement by statement, a loop where no thread ever waits.
#include "codegen/ExecutionModeDecision.h"

#include "codegen/VariableStorage.h"

namespace pyk::codegen {

CpuExecutionPlan decideExecutionMode(const sema::Specialization& kernel,
                                     const std::vector<ThreadModelUse>& uses,
                                     const ir::Function& irKernel) {
  CpuExecutionPlan plan;
  bool kernelBarrier = false;
  for (const ThreadModelUse& use : uses) {
    const sema::Specialization& s = *use.function;
    if (use.warpOperation != nullptr) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the warp operation `" + intrinsicNameOf(s, use.warpOperation) + "` at " +
                         sourcePosition(use.warpOperation);
      return plan;
    }
    if (&s == &kernel) {
      kernelBarrier = use.barrier != nullptr;
    } else if (use.barrier != nullptr) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "`" + intrinsicNameOf(s, use.barrier) + "` in the device function `" +
                         s.function->name + "` at " + sourcePosition(use.barrier);
      return plan;
    }
  }
  if (!kernelBarrier)
    return plan;
  const sema::FunctionScope& scope = kernel.function->scope;
  for (const sema::LocalVersion& v : scope.versions.versions)
    if (v.kind == sema::LocalVersion::Kind::Def && scope.isParameter(v.variable)) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the parameter `" + scope.variableName(v.variable) +
                         "` is assigned to at " + sourcePosition(v.name) +
                         ", and split regions share the parameters between threads";
      return plan;
    }
  const VariableStorage storage(irKernel);
  for (size_t var = 0; var < scope.params.size() + scope.locals.size(); ++var)
    if (storage.slotsOf(var).size() > 1) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "`" + scope.variableName(var) + "` takes the types " +
                         storage.slotsOf(var)[0].type.str() + " and " +
                         storage.slotsOf(var)[1].type.str() +
                         " (numba types each assignment on its own), which split regions do "
                         "not keep apart";
      return plan;
    }
  plan.mode = CpuExecutionMode::Split;
  return plan;
}

} // namespace pyk::codegen
