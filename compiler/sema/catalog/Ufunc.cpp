// Ufunc: the loop table and numba's loop choice (see Ufunc.h).
#include "sema/catalog/Ufunc.h"

#include <map>
#include <string>

namespace pyk::sema {

namespace {

ScalarKind kindOfLetter(char c) {
  switch (c) {
  case '?':
    return ScalarKind::Boolean;
  case 'b':
    return ScalarKind::Int8;
  case 'B':
    return ScalarKind::UInt8;
  case 'h':
    return ScalarKind::Int16;
  case 'H':
    return ScalarKind::UInt16;
  case 'i':
    return ScalarKind::Int32;
  case 'I':
    return ScalarKind::UInt32;
  case 'l':
  case 'q':
    return ScalarKind::Int64;
  case 'L':
  case 'Q':
    return ScalarKind::UInt64;
  case 'f':
    return ScalarKind::Float32;
  case 'd':
    return ScalarKind::Float64;
  case 'F':
    return ScalarKind::Complex64;
  default: // 'D' (the generator writes no other letter)
    return ScalarKind::Complex128;
  }
}

char letterOf(ScalarKind k) {
  switch (k) {
  case ScalarKind::Boolean:
    return '?';
  case ScalarKind::Int8:
    return 'b';
  case ScalarKind::UInt8:
    return 'B';
  case ScalarKind::Int16:
    return 'h';
  case ScalarKind::UInt16:
    return 'H';
  case ScalarKind::Int32:
    return 'i';
  case ScalarKind::UInt32:
    return 'I';
  case ScalarKind::Int64:
    return 'q';
  case ScalarKind::UInt64:
    return 'Q';
  case ScalarKind::Float16:
    return 'e';
  case ScalarKind::Float32:
    return 'f';
  case ScalarKind::Float64:
    return 'd';
  case ScalarKind::Complex64:
    return 'F';
  case ScalarKind::Complex128:
    return 'D';
  }
  return '?';
}

const std::map<Intrinsic, std::vector<UfuncLoop>>& loopTable() {
  static const auto* table = [] {
    auto* out = new std::map<Intrinsic, std::vector<UfuncLoop>>;
#define UFUNC_LOOP(Id, Inputs, Output, Lowered, Compiled)                                          \
  {                                                                                                \
    UfuncLoop loop;                                                                                \
    for (char c : std::string_view(Inputs))                                                        \
      loop.inputs.push_back(kindOfLetter(c));                                                      \
    loop.output = kindOfLetter(Output);                                                            \
    loop.lowered = Lowered;                                                                        \
    loop.compiled = Compiled;                                                                      \
    (*out)[Intrinsic::Id].push_back(std::move(loop));                                              \
  }
#include "sema/catalog/UfuncLoops.def"
    return out;
  }();
  return *table;
}

// numpy's kind order for "same_kind": bool, unsigned, signed, float, complex.
int kindRank(ScalarKind k) {
  if (k == ScalarKind::Boolean)
    return 0;
  if (isInteger(k))
    return isSignedInteger(k) ? 2 : 1;
  return isComplex(k) ? 4 : 3;
}

// The bits of precision a float or complex kind holds exactly an integer of (its mantissa).
int mantissaBits(ScalarKind k) {
  switch (k) {
  case ScalarKind::Float32:
  case ScalarKind::Complex64:
    return 24;
  default:
    return 53;
  }
}

} // namespace

bool numpyCanCastSafely(ScalarKind from, ScalarKind to) {
  if (from == to || from == ScalarKind::Boolean)
    return true;
  if (to == ScalarKind::Boolean)
    return false;
  const int fromBits = bitWidth(from);
  const int toBits = bitWidth(to);
  if (isInteger(from)) {
    const bool fromSigned = isSignedInteger(from);
    if (isInteger(to)) {
      if (isSignedInteger(to))
        return fromSigned ? toBits >= fromBits : toBits > fromBits;
      return !fromSigned && toBits >= fromBits;
    }
    // numpy: integers of up to 16 bits go to float32 and complex64 safely, every integer (64-bit
    // ones too) to float64 and complex128.
    return mantissaBits(to) == 53 || fromBits <= 16;
  }
  if (isFloat(from)) {
    if (isFloat(to))
      return toBits >= fromBits;
    return isComplex(to) && toBits >= 2 * fromBits;
  }
  return isComplex(to) && toBits >= fromBits; // complex to complex
}

bool numpyCanCastSameKind(ScalarKind from, ScalarKind to) {
  return numpyCanCastSafely(from, to) || kindRank(to) >= kindRank(from);
}

bool isUfunc(Intrinsic id) {
  return loopTable().count(id) != 0;
}

const std::vector<UfuncLoop>& ufuncLoops(Intrinsic id) {
  static const std::vector<UfuncLoop> none;
  auto it = loopTable().find(id);
  return it == loopTable().end() ? none : it->second;
}

std::optional<UfuncLoop> matchUfuncLoop(Intrinsic id, const std::vector<ScalarKind>& inputs,
                                        const std::vector<ScalarKind>& outputs) {
  bool anyInteger = false, anyInexact = false;
  for (ScalarKind k : inputs) {
    anyInteger = anyInteger || isInteger(k);
    anyInexact = anyInexact || isFloat(k) || isComplex(k);
  }
  const bool mixed = anyInteger && anyInexact;
  auto castsIn = [&](ScalarKind from, ScalarKind to) {
    if (mixed && isInteger(from) && (isFloat(to) || isComplex(to)))
      return true;
    return numpyCanCastSafely(from, to);
  };
  for (const UfuncLoop& loop : ufuncLoops(id)) {
    if (loop.inputs.size() != inputs.size())
      continue;
    bool viable = true;
    for (size_t i = 0; viable && i < inputs.size(); ++i)
      viable = castsIn(inputs[i], loop.inputs[i]);
    for (size_t i = 0; viable && i < outputs.size(); ++i)
      viable = numpyCanCastSameKind(loop.output, outputs[i]);
    if (viable)
      return loop;
  }
  return std::nullopt;
}

std::string ufuncLoopText(const UfuncLoop& loop) {
  std::string out;
  for (ScalarKind k : loop.inputs)
    out += letterOf(k);
  return out + "->" + letterOf(loop.output);
}

} // namespace pyk::sema
