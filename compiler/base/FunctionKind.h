// FunctionKind: the kinds of functions numba compiles (kernel, device function, vectorize and
// guvectorize ufuncs) and their names in messages: base vocabulary, for typing, the IR, code
// generation and the runtime.
#pragma once

#include <cstdint>

namespace pyk::types {

enum class CompiledFunctionKind : uint8_t { Kernel, DeviceFunction, Vectorize, GuVectorize };

const char* nameOf(CompiledFunctionKind kind); // "kernel", "device function", "vectorize", ...
// The kind as the subject of a message: "kernels", "device functions", "`vectorize` functions".
const char* pluralNounOf(CompiledFunctionKind kind);

} // namespace pyk::types

namespace pyk::sema {
using namespace pyk::types; // typing's own vocabulary (base/NumbaType.h)
} // namespace pyk::sema
