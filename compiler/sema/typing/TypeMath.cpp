// TypeMath: typing of math, cmath and the numeric builtins (numba's overload cases, in
// TypeRules), of print and len, and of numba.cuda's bit and float intrinsics (popc, clz, ffs, brev,
// fma, cbrt, selp).
#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

namespace {

// The arguments' scalar kinds, or nullopt when one is not a scalar.
std::optional<std::vector<ScalarKind>> scalarsOf(const std::vector<NumbaType>& args) {
  std::vector<ScalarKind> out;
  for (const NumbaType& arg : args) {
    const NumbaType t = computedAs(arg); // an IntEnum member as its integer
    if (!t.isScalar())
      return std::nullopt;
    out.push_back(t.scalarKind());
  }
  return out;
}

} // namespace

OptType FunctionTyper::mathCall(const IntrinsicInfo& info, const ast::Call* c,
                                const std::vector<NumbaType>& args) {
  auto bad = [&] { return badArguments(info.name, c, args); };
  if (info.id == Intrinsic::Abs && args.size() == 1 && args[0].isDatetimeLike())
    return datetimeResult(datetimeAbs(args[0]), "abs", args[0], NumbaType(), c->range);
  const std::optional<std::vector<ScalarKind>> kinds = scalarsOf(args);
  switch (info.typing) {
  // numba.cuda's integer and float intrinsics (TypeCallRules' cases).
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse:
  case IntrinsicTyping::SameFloat:
  case IntrinsicTyping::Select: {
    if (!kinds || !info.acceptsArgumentCount(args.size()))
      return bad();
    const std::optional<std::vector<ScalarKind>> converted = callArgumentTypes(info.id, *kinds);
    if (!converted)
      return bad();
    // numba types ffs of an 8- or 16-bit integer but has no lowering for it.
    if (info.typing == IntrinsicTyping::FirstSet && bitWidth((*converted)[0]) < 32) {
      error(DiagKind::TypeNotSupported, c->range,
            {"`cuda.ffs` of `" + args[0].str() +
             "` (numba.cuda compiles it for 32- and 64-bit "
             "integers only)"});
      return std::nullopt;
    }
    return callResultType(info.id, *kinds);
  }
  // Builtins with results of their own.
  case IntrinsicTyping::Print:
    return NumbaType::voidType();
  case IntrinsicTyping::BuiltinSum:
    return builtinSum(c, args);
  case IntrinsicTyping::TupleCopy: // numba's tuple() and tuple(t) of a tuple (not of an array)
    if (args.empty())
      return NumbaType::tuple({});
    if (args.size() == 1 && args[0].isTuple())
      return args[0];
    return bad();
  case IntrinsicTyping::Len:
    if (args.size() == 1 && args[0].isArray() && args[0].ndim() == 0) {
      error(DiagKind::TypeLenOfZeroDim, c->range, {args[0].str()});
      return std::nullopt;
    }
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
  case IntrinsicTyping::RealImag:
    return args.size() == 1 ? realOrImag(args[0], info.id == Intrinsic::NumpyImag, c->range)
                            : bad();
  case IntrinsicTyping::BufferPointer: {
    // numba-cuda's FFI_from_buffer: a buffer, contiguous, of C layout when of several dimensions.
    if (args.size() != 1)
      return bad();
    const NumbaType& a = args[0];
    const char* why = nullptr;
    if (!a.isArray())
      why = "expects an array";
    else if (a.layout() != ArrayLayout::C && a.layout() != ArrayLayout::F)
      why = "takes only contiguous arrays";
    else if (a.layout() != ArrayLayout::C && a.ndim() > 1)
      why = "takes arrays of several dimensions only in C layout";
    if (why != nullptr) {
      error(DiagKind::TypeFromBuffer, c->range, {why, a.str()});
      return std::nullopt;
    }
    if (!a.isNumericArray() && a.scalarKind() != ScalarKind::Boolean) {
      error(DiagKind::TypeNotSupported, c->range,
            {"`ffi.from_buffer` of `" + a.str() + "` (a CPointer to records or characters)"});
      return std::nullopt;
    }
    return NumbaType::pointer(a.scalarKind());
  }
  case IntrinsicTyping::Libdevice: {
    if (!kinds || !info.acceptsArgumentCount(args.size()))
      return bad();
    OptType result = callResultType(info.id, *kinds);
    return result ? result : bad();
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

// sum(iterable, start=0), as numba's overload runs it: `acc = start; for x in iterable: acc += x`,
// acc's type the unification of start's and of each sum's (its fixed point), over a tuple's
// elements (each its own type, as numba unrolls a heterogeneous tuple) or a 1-d array's items.
OptType FunctionTyper::builtinSum(const ast::Call* c, const std::vector<NumbaType>& args) {
  auto bad = [&] { return badArguments("sum", c, args); };
  if (args.empty() || args.size() > 2)
    return bad();
  const NumbaType& iterable = args[0];
  std::vector<NumbaType> items;
  if (iterable.isTuple())
    items = iterable.elements();
  else if (iterable.isArray() && iterable.ndim() == 1 && iterable.isNumericArray())
    items.push_back(iterable.elementType());
  else if (iterable.isArray()) {
    error(DiagKind::TypeNotSupported, c->range,
          {"`sum` of `" + iterable.str() +
           "` (its items are arrays, whose sum makes a new array in device code)"});
    return std::nullopt;
  } else {
    return bad();
  }
  const NumbaType start = args.size() == 2 ? args[1] : NumbaType::scalar(ScalarKind::Int64);
  if (!start.isScalar())
    return bad();
  ScalarKind acc = start.scalarKind();
  for (int pass = 0; pass < 4; ++pass) {
    const ScalarKind before = acc;
    for (const NumbaType& item : items) {
      if (!item.isScalar())
        return bad();
      std::optional<ScalarKind> sum = binaryResultType(ast::BinOpKind::Add, acc, item.scalarKind());
      std::optional<ScalarKind> unified = sum ? unifyScalars(acc, *sum) : std::nullopt;
      if (!unified)
        return bad();
      acc = *unified;
    }
    if (acc == before)
      return NumbaType::scalar(acc);
  }
  return NumbaType::scalar(acc);
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
