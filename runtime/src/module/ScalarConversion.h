// ScalarConversion: runtime dtypes as the compiler's scalar kinds and back, and a scalar argument
// converted to a parameter's type as numba converts it (C++'s conversions, complex to real by its
// real part).
#pragma once

#include <optional>

#include "base/NumbaType.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// The scalar kind of a dtype (int64 for datetime64 and timedelta64, how they are held).
types::ScalarKind scalarKindOf(Dtype d);
// The dtype of a scalar kind; none for kinds no array holds.
std::optional<Dtype> dtypeOfKind(types::ScalarKind kind);
// numba's type of one value of a dtype other than Record: its scalar, or datetime64 /
// timedelta64 of its unit.
types::NumbaType valueTypeOf(Dtype d);
// The dtype of a value of `t` (a scalar, a datetime64 or timedelta64); none for other types.
std::optional<Dtype> dtypeOfType(const types::NumbaType& t);

// `a`'s value as `to`, written to `out` (at least 16 bytes). Throws pyk::Error (InvalidArgument)
// for a type pyk does not convert (records).
void convertScalar(const KernelArgument& a, types::ScalarKind to, unsigned char* out);

} // namespace pyk::detail
