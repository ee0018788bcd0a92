// FunctionSignature: a numba function type, `ret(args...)`, or `(args...)` with the return
// inferred.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/NumbaType.h"

namespace pyk::types {

struct FunctionSignature {
  std::optional<NumbaType> returnType; // none: inferred by numba from the body
  std::vector<NumbaType> params;

  // The signature-string spelling: `void(float32[:, ::1], int64)`, or `(int64,)` when the
  // return type is inferred.
  std::string spelling() const;

  friend bool operator==(const FunctionSignature&, const FunctionSignature&) = default;
};

} // namespace pyk::types
