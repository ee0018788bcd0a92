// UfuncSignature: which of a @vectorize or @guvectorize function's signatures a call runs.
#include "module/UfuncSignature.h"

#include "module/ScalarConversion.h"
#include "pyk/error.hpp"

namespace pyk::detail {

bool safeCast(Dtype from, Dtype to) {
  if (from == to || from == Dtype::Bool)
    return true;
  auto isSigned = [](Dtype d) {
    return d == Dtype::Int8 || d == Dtype::Int16 || d == Dtype::Int32 || d == Dtype::Int64;
  };
  auto isUnsigned = [](Dtype d) {
    return d == Dtype::UInt8 || d == Dtype::UInt16 || d == Dtype::UInt32 || d == Dtype::UInt64;
  };
  auto isFloat = [](Dtype d) {
    return d == Dtype::Float16 || d == Dtype::Float32 || d == Dtype::Float64;
  };
  const std::size_t f = dtype_itemsize(from), t = dtype_itemsize(to);
  if (isSigned(from))
    return (isSigned(to) && t >= f) || (isFloat(to) && t > f) ||
           (is_complex_dtype(to) && t / 2 > f);
  if (isUnsigned(from))
    return (isUnsigned(to) && t >= f) || (isSigned(to) && t > f) || (isFloat(to) && t > f) ||
           (is_complex_dtype(to) && t / 2 > f);
  if (isFloat(from))
    return (isFloat(to) && t >= f) || (is_complex_dtype(to) && t / 2 >= f);
  if (is_complex_dtype(from))
    return is_complex_dtype(to) && t >= f;
  return false;
}

std::optional<Dtype> signatureOperandDtype(const types::FunctionSignature& s, size_t i) {
  // (a gufunc's parameters are arrays: their items' dtype)
  if (i < s.params.size())
    return dtypeOfType(s.params[i].isArray() ? s.params[i].elementType() : s.params[i]);
  if (i == s.params.size() && s.returnType)
    return dtypeOfType(*s.returnType);
  return std::nullopt;
}

const types::FunctionSignature& chooseSignature(const jit::FunctionInfo& f,
                                                std::span<const SignatureOperand> operands,
                                                size_t inputs, const std::string& where,
                                                const std::string& what) {
  for (int pass = 0; pass < 2; ++pass)
    for (const types::FunctionSignature& s : f.signatures) {
      bool ok = true;
      for (size_t i = 0; i < operands.size() && ok; ++i) {
        const std::optional<Dtype> want = signatureOperandDtype(s, i);
        ok = want && (*want == operands[i].dtype ||
                      (pass == 1 && operands[i].convertible && safeCast(operands[i].dtype, *want)));
      }
      if (ok)
        return s;
    }
  if (f.signatures.empty())
    throw Error(ErrorKind::InvalidArgument,
                where + what +
                    " has no signatures (numba's dynamic ufunc, typed at each call): a call "
                    "from C++ needs the signatures in its decorator");
  std::string given, known;
  for (size_t i = 0; i < operands.size(); ++i)
    given += (i == 0        ? ""
              : i == inputs ? " -> "
                            : ", ") +
             std::string(dtype_name(operands[i].dtype));
  for (const types::FunctionSignature& s : f.signatures)
    known += "\n  " + s.spelling();
  throw Error(ErrorKind::InvalidArgument, where + "no signature of " + what + " takes (" + given +
                                              ") (device arrays and outputs are never "
                                              "converted); it has:" +
                                              known);
}

} // namespace pyk::detail
