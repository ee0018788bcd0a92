// ExecutionModeDecision: fibers where a thread must be able to wait in the middle of a
// function the block does not run statement by statement, a loop where no thread ever waits.
#include "codegen/ExecutionModeDecision.h"

namespace pyk::codegen {

CpuExecutionPlan decideExecutionMode(const sema::Specialization& kernel,
                                     const std::vector<ThreadModelUse>& uses) {
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
  if (kernelBarrier)
    plan.mode = CpuExecutionMode::Split;
  return plan;
}

} // namespace pyk::codegen
