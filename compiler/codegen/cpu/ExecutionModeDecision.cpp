// ExecutionModeDecision: fibers where a thread must be able to wait in the middle of a
// function the block does not run statement by statement, a loop where no thread ever waits.
#include "codegen/cpu/ExecutionModeDecision.h"

namespace pyk::codegen {

CpuExecutionPlan decideExecutionMode(const ir::Function& kernel,
                                     const std::vector<ThreadModelUse>& uses,
                                     const std::string& inliningFailure) {
  CpuExecutionPlan plan;
  bool kernelBarrier = false;
  for (const ThreadModelUse& use : uses) {
    if (use.warpOperation != nullptr) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the warp operation `" + intrinsicNameOf(use.warpOperation) + "` at " +
                         sourcePosition(use.warpOperation);
      return plan;
    }
    if (use.function == &kernel) {
      kernelBarrier = use.barrier != nullptr;
    } else if (use.barrier != nullptr) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = !inliningFailure.empty()
                             ? inliningFailure
                             : "`" + intrinsicNameOf(use.barrier) + "` in the device function `" +
                                   use.function->name + "` at " + sourcePosition(use.barrier);
      return plan;
    }
  }
  if (!kernelBarrier)
    return plan;
  // A barrier BarrierInlining could not give a statement of its own (a `while` test's
  // `syncthreads_or`) is no place to cut.
  if (!inliningFailure.empty()) {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = inliningFailure;
    return plan;
  }
  for (const ir::Version& v : kernel.versions)
    if (v.kind == ir::Version::Kind::Def && kernel.variables[v.variable].parameter) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "the parameter `" + kernel.variableName(v.variable) +
                         "` is assigned to at " + sourcePosition(v.range) +
                         ", and split regions share the parameters between threads";
      return plan;
    }
  plan.mode = CpuExecutionMode::Split;
  return plan;
}

} // namespace pyk::codegen
