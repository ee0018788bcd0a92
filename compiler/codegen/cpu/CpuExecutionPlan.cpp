// CpuExecutionPlan: the names of the CPU execution modes, and the plan's small queries.
#include "codegen/cpu/CpuExecutionPlan.h"

#include <algorithm>

namespace pyk::codegen {

bool BarrierSplitPlan::isRematerialized(const ir::Stmt* s) const {
  return std::find(rematerialized.begin(), rematerialized.end(), s) != rematerialized.end();
}

namespace {

// Thread loops (regions) in `steps`, and how many of them block-level control holds.
void countRegions(const std::vector<SplitStep>& steps, bool nested, int& regions, int& inControl) {
  for (const SplitStep& s : steps) {
    if (s.kind == SplitStep::Kind::Region || s.kind == SplitStep::Kind::Reduction) {
      ++regions;
      inControl += nested;
    }
    countRegions(s.body, nested || s.control != nullptr, regions, inControl);
    countRegions(s.orelse, true, regions, inControl);
  }
}

} // namespace

bool hasGridStrideLoop(const std::vector<SplitStep>& steps) {
  for (const SplitStep& s : steps)
    if (s.strideAxis >= 0 || hasGridStrideLoop(s.body) || hasGridStrideLoop(s.orelse))
      return true;
  return false;
}

std::string describeMode(const CpuExecutionPlan& plan) {
  switch (plan.mode) {
  case CpuExecutionMode::Loop:
    if (!plan.split)
      return "no barrier: the block's threads run as one loop";
    return hasGridStrideLoop(plan.split->steps)
               ? "no barrier: the block's threads run as loops, its grid-stride loops' rounds in "
                 "lockstep"
               : "no barrier: the block's threads run as one loop, over the box of threads its "
                 "thread-index tests admit";
  case CpuExecutionMode::Split: {
    if (!plan.split)
      return "split at its barriers";
    int regions = 0, inControl = 0;
    countRegions(plan.split->steps, false, regions, inControl);
    std::string out =
        "cut at its barriers into " + std::to_string(regions) + " loops over the block's threads";
    if (inControl > 0)
      out += ", " + std::to_string(inControl) +
             " of them inside loops or branches every thread takes alike";
    return out + (plan.split->hasReturn ? "; threads that return skip the loops after" : "");
  }
  case CpuExecutionMode::Fiber:
    return "each thread a fiber: " + plan.fiberReason;
  }
  return "";
}

std::string sourcePosition(SourceRange r) {
  return std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

std::string sourcePosition(const ir::Node* n) {
  return sourcePosition(n->range);
}

} // namespace pyk::codegen
