// CppNames: how Python names, numba types and constants are spelt in the C++ pyk emits, the
// same for every backend.
#pragma once

#include <string>

#include "base/NumbaType.h"
#include "ir/Ir.h"

namespace pyk::codegen {

// A Python identifier as a C++ one: `py_` + the name, non-ASCII bytes as `_xHH_`.
std::string pythonName(const std::string& name);
// A record field as a C++ member: as pythonName, but a name that is no identifier (numpy allows
// any string) is hex-encoded.
std::string recordMemberName(const std::string& name);
// A scalar's code in mangled names (`f32`) and its C++ type (`pyk::float32`; "" for none yet).
std::string scalarCode(types::ScalarKind k);
std::string scalarCpp(types::ScalarKind k);
// A type as part of a mangled name: `f32`, `A2C_f32`, `T2_i64_f64_E`.
std::string typeCode(const types::NumbaType& t);

// The C++ name of a specialization: `pyk_k_<name>__<types>` for kernels, `pyk_d_...` for device
// functions; Python names are spelled so no C++ keyword, macro or helper can collide with them.
std::string mangledName(const ir::Function& f);

bool isIntegral(const types::NumbaType& t);
bool isComplexType(const types::NumbaType& t);
bool isFloating(const types::NumbaType& t);

// C++ literals: a float64 (nan and infinities as builtins), a float16 from its bits (the value
// rounded to float16; a constant expression on both backends, as constant arrays need) and an
// integer of kind `k`.
std::string doubleLiteral(double v);
std::string halfLiteral(double v);
std::string int128Literal(__int128 v, types::ScalarKind k);

} // namespace pyk::codegen
