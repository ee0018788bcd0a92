// GeneratedUnit: the CPU execution modes' names.
#include "base/GeneratedUnit.h"

namespace pyk::base {

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

} // namespace pyk::base
