// ScalarConversion: runtime dtypes as the compiler's scalar kinds and back, and a scalar argument
// converted to a parameter's type as numba converts it (C++'s conversions, complex to real by its
// real part).
#pragma once

#include <optional>

#include "base/NumbaType.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

types::ScalarKind scalarKindOf(Dtype d);
// The dtype of a scalar kind; none for kinds no array holds.
std::optional<Dtype> dtypeOfKind(types::ScalarKind kind);

// `a`'s value as `to`, written to `out` (at least 16 bytes). Throws pyk::Error (InvalidArgument)
// for a type pyk does not convert (records).
void convertScalar(const KernelArgument& a, types::ScalarKind to, unsigned char* out);

} // namespace pyk::detail
