// SignatureParser: numba's signature strings (`void(float32[:, ::1], int64)`) parsed into types.
#pragma once

#include <optional>
#include <string_view>

#include "base/FunctionSignature.h"
#include "base/NumbaType.h"
#include "diag/DiagnosticEngine.h"
#include "sema/resolve/StringLiteralLocation.h"

namespace pyk::sema {

// Parses a signature string as numba evaluates it against `numba.types`:
//   `ret(args...)` — ret any type or `void`/`none`;
//   `(args...)`    — a tuple of argument types, return type inferred (`(int64,)` for one);
// where a type is a scalar name (aliases included), an array `dtype[:, ::1]` (1..8 slices;
// `::1` last: C, first: F, none: A), `UniTuple(type, n)`, `Tuple((type, ...))` (also written
// `Tuple(type, ...)`) or `Array(dtype, ndim, 'C'|'F'|'A')`. The first problem is reported at the
// offending characters (through `where`) and ends the parse with std::nullopt.
std::optional<FunctionSignature>
parseSignature(std::string_view text, const StringLiteralLocation& where, DiagnosticEngine& diags);

// Parses a lone type in the same syntax (`float32[::1]`, `int64`); `void` is rejected.
std::optional<NumbaType> parseTypeSpelling(std::string_view text,
                                           const StringLiteralLocation& where,
                                           DiagnosticEngine& diags);

} // namespace pyk::sema
