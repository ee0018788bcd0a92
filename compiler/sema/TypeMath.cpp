// TypeMath: typing of math, cmath and the numeric builtins (numba's overload cases, in
// TypeRules), of print and len, and of numba.cuda's bit and float intrinsics (popc, clz, ffs, brev,
// fma, cbrt, selp).
#include "sema/FunctionTyper.h"
#include "sema/TypeRules.h"

namespace pyk::sema {

namespace {

// The arguments' scalar kinds, or nullopt when one is not a scalar.
std::optional<std::vector<ScalarKind>> scalarsOf(const std::vector<NumbaType>& args) {
  std::vector<ScalarKind> out;
  for (const NumbaType& t : args) {
    if (!t.isScalar())
      return std::nullopt;
    out.push_back(t.scalarKind());
  }
  return out;
}

bool isUnsignedWord(const NumbaType& t) {
  return t.isScalar() &&
         (t.scalarKind() == ScalarKind::UInt32 || t.scalarKind() == ScalarKind::UInt64);
}

} // namespace

OptType FunctionTyper::mathCall(const IntrinsicInfo& info, const ast::Call* c,
                                const std::vector<NumbaType>& args) {
  auto bad = [&] { return badArguments(info.name, c, args); };
  const std::optional<std::vector<ScalarKind>> kinds = scalarsOf(args);
  switch (info.typing) {
  // numba.cuda's integer and float intrinsics.
  case IntrinsicTyping::BitCount:
    return args.size() == 1 && isIntegerType(args[0]) ? OptType(args[0]) : bad();
  case IntrinsicTyping::FirstSet:
    return args.size() == 1 && isIntegerType(args[0])
               ? OptType(NumbaType::scalar(ScalarKind::UInt32))
               : bad();
  case IntrinsicTyping::BitReverse:
    return args.size() == 1 && isUnsignedWord(args[0]) ? OptType(args[0]) : bad();
  case IntrinsicTyping::SameFloat: {
    if (!info.acceptsArgumentCount(args.size()) || !args[0].isScalar())
      return bad();
    for (const NumbaType& a : args)
      if (!(a == args[0]))
        return bad();
    const ScalarKind k = args[0].scalarKind();
    return k == ScalarKind::Float32 || k == ScalarKind::Float64 ? OptType(args[0]) : bad();
  }
  case IntrinsicTyping::Select: {
    if (args.size() != 3 || !args[1].isScalar() || !args[2].isScalar())
      return bad();
    OptType u = unify(args[1], args[2]);
    return u ? u : bad();
  }
  // Builtins with results of their own.
  case IntrinsicTyping::Print:
    return NumbaType::voidType();
  case IntrinsicTyping::Len:
    if (args.size() == 1 && (args[0].isArray() || args[0].isTuple()))
      return NumbaType::scalar(ScalarKind::Int64);
    return bad();
  // Tuple results.
  case IntrinsicTyping::MathFrexp: {
    if (!kinds || kinds->size() != 1)
      return bad();
    std::optional<ScalarKind> m = mathResultType(info.id, *kinds);
    return m ? OptType(
                   NumbaType::tuple({NumbaType::scalar(*m), NumbaType::scalar(ScalarKind::Int32)}))
             : bad();
  }
  case IntrinsicTyping::MathModf:
  case IntrinsicTyping::Divmod: {
    if (!kinds)
      return bad();
    std::optional<ScalarKind> m = mathResultType(info.id, *kinds);
    return m ? OptType(NumbaType::uniTuple(NumbaType::scalar(*m), 2)) : bad();
  }
  default:
    break;
  }
  // Everything else with a scalar result: math.*, abs, min, max, round, int, float, bool,
  // complex, pow.
  if (kinds)
    if (std::optional<ScalarKind> result = mathResultType(info.id, *kinds))
      return NumbaType::scalar(*result);
  // min/max over a UniTuple of scalars.
  if (info.typing == IntrinsicTyping::MinMax && args.size() == 1 &&
      args[0].kind() == NumbaType::Kind::UniTuple && args[0].elements()[0].isScalar())
    return args[0].elements()[0];
  return bad();
}

// cmath: numba's cmathdecl cases (TypeCallRules.cpp).
OptType FunctionTyper::cmathCall(const IntrinsicInfo& info, const ast::Call* c,
                                 const std::vector<NumbaType>& args) {
  const std::optional<std::vector<ScalarKind>> kinds = scalarsOf(args);
  if (!kinds || !info.acceptsArgumentCount(args.size()))
    return badArguments(info.name, c, args);
  if (OptType result = callResultType(info.id, *kinds))
    return result;
  return badArguments(info.name, c, args);
}

} // namespace pyk::sema
