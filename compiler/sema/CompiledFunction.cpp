// CompiledFunction: a function numba compiles (kernel, device function, vectorize or guvectorize
// ufunc), with its decorator's options and parsed signatures.
#include "sema/CompiledFunction.h"

namespace pyk::sema {

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

} // namespace pyk::sema
