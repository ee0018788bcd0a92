// FunctionKind: the kinds of functions numba compiles (kernel, device function, vectorize and
// guvectorize ufuncs) and their names in messages; a header of its own, without the syntax tree,
// for the IR and code generation.
#pragma once

#include <cstdint>

namespace pyk::sema {

enum class CompiledFunctionKind : uint8_t { Kernel, DeviceFunction, Vectorize, GuVectorize };

const char* nameOf(CompiledFunctionKind kind); // "kernel", "device function", "vectorize", ...
// The kind as the subject of a message: "kernels", "device functions", "`vectorize` functions".
const char* pluralNounOf(CompiledFunctionKind kind);

} // namespace pyk::sema
