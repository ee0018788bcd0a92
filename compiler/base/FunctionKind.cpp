// FunctionKind: the names of the kinds of functions numba compiles, as messages use them.
#include "base/FunctionKind.h"

namespace pyk::types {

const char* nameOf(CompiledFunctionKind kind) {
  switch (kind) {
  case CompiledFunctionKind::Kernel:
    return "kernel";
  case CompiledFunctionKind::DeviceFunction:
    return "device function";
  case CompiledFunctionKind::Vectorize:
    return "vectorize";
  case CompiledFunctionKind::GuVectorize:
    return "guvectorize";
  }
  return "?";
}

const char* pluralNounOf(CompiledFunctionKind kind) {
  switch (kind) {
  case CompiledFunctionKind::Kernel:
    return "kernels";
  case CompiledFunctionKind::DeviceFunction:
    return "device functions";
  case CompiledFunctionKind::Vectorize:
    return "`vectorize` functions";
  case CompiledFunctionKind::GuVectorize:
    return "`guvectorize` functions";
  }
  return "compiled functions";
}

} // namespace pyk::types
