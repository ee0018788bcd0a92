// CpuExecutionPlan: the names of the CPU execution modes, and the plan's small queries.
#include "codegen/CpuExecutionPlan.h"

#include <algorithm>

namespace pyk::codegen {

const char* nameOf(CpuExecutionMode mode) {
  switch (mode) {
  case CpuExecutionMode::Loop:
    return "loop";
  case CpuExecutionMode::Split:
    return "split";
  case CpuExecutionMode::Fiber:
    return "fiber";
  }
  return "?";
}

bool BarrierSplitPlan::isRematerialized(const ast::Stmt* s) const {
  return std::find(rematerialized.begin(), rematerialized.end(), s) != rematerialized.end();
}

std::string sourcePosition(const ast::Node* n) {
  return std::to_string(n->range.begin.line) + ":" + std::to_string(n->range.begin.column);
}

} // namespace pyk::codegen
