// UfuncSignature: which of a @vectorize or @guvectorize function's signatures a call runs, as
// numba chooses: the first whose dtypes are the operands' own, else the first the convertible
// operands (host arrays and scalars) can be cast to safely, by numpy's rule.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "jit/CompilerService.h"
#include "pyk/dtype.hpp"

namespace pyk::detail {

// numpy's can_cast(from, to, 'safe') for the dtypes pyk has.
bool safeCast(Dtype from, Dtype to);

// One operand's part in the choice.
struct SignatureOperand {
  Dtype dtype = Dtype::Float64;
  bool convertible = false; // a host input, copied anyway: it may be cast safely
};

// The dtype of operand `i` in `s`: its parameter's, or past them (a @vectorize function's output)
// the return type's; none for a type no array holds.
std::optional<Dtype> signatureOperandDtype(const types::FunctionSignature& s, size_t i);

// The first signature of `f` that takes `operands` (the inputs, then any outputs given) exactly,
// else with safe casts of the convertible ones. pyk::Error (InvalidArgument) listing the
// signatures when none does; `where` (the file) starts it, `what` ("the ufunc `f`") and `inputs`
// (how many operands are inputs) word it.
const types::FunctionSignature& chooseSignature(const jit::FunctionInfo& f,
                                                std::span<const SignatureOperand> operands,
                                                size_t inputs, const std::string& where,
                                                const std::string& what);

} // namespace pyk::detail
