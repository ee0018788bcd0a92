// FunctionSignature: a numba function type, `ret(args...)`, or `(args...)` with the return
// inferred.
#include "base/FunctionSignature.h"

namespace pyk::types {

std::string FunctionSignature::spelling() const {
  std::string out = returnType ? returnType->spelling() : std::string();
  out += '(';
  for (size_t i = 0; i < params.size(); ++i)
    out += (i ? ", " : "") + params[i].spelling();
  if (!returnType && params.size() == 1)
    out += ',';
  return out + ')';
}

} // namespace pyk::types
