// TypeCallRules: numba's typing of calls on scalars (CUDA target): the math functions
// (numba/cuda/cudamath.py), cmath (core/typing/cmathdecl.py), the numeric builtins
// (core/typing/builtins.py), numba.cuda's intrinsics (cuda/cudadecl.py) and libdevice
// (cuda/libdevicedecl.py), each a list of typed cases resolved as numba resolves overloads.
#include "sema/typing/TypeRuleCases.h"
#include "sema/typing/TypeRules.h"

#include <algorithm>
#include <vector>

namespace pyk::sema {

using namespace type_rules;

namespace {

// A call's typing: the chosen case (result + argument types) and the tuple shape of the result.
struct CallTyping {
  K result;
  std::vector<K> args;
  enum class Shape : uint8_t { Scalar, PairWithInt32, Pair } shape = Shape::Scalar;
};

Cases unaryFloatCases() { // cudamath's Math_unary
  return {{K::Float64, {K::Int64}},
          {K::Float64, {K::UInt64}},
          {K::Float32, {K::Float32}},
          {K::Float64, {K::Float64}}};
}

Cases binaryFloatCases(bool withIntegers) { // atan2, hypot (with), copysign, fmod, remainder
  Cases c;
  if (withIntegers) {
    c.push_back({K::Float64, {K::Int64, K::Int64}});
    c.push_back({K::Float64, {K::UInt64, K::UInt64}});
  }
  addSame(c, kReals, 2);
  return c;
}

std::optional<CallTyping> fromCases(const Cases& cases, std::span<const K> args,
                                    CallTyping::Shape shape = CallTyping::Shape::Scalar) {
  const Case* c = selectCase(cases, args, /*unsafeCasting=*/true);
  if (!c)
    return std::nullopt;
  return CallTyping{c->result, c->args, shape};
}

std::optional<CallTyping> typeMath(IntrinsicTyping rule, std::span<const K> args) {
  using Shape = CallTyping::Shape;
  static const Cases unary = unaryFloatCases();
  static const Cases atan2Like = binaryFloatCases(true);
  static const Cases binary = binaryFloatCases(false);
  static const Cases pow = [] {
    Cases c;
    addSame(c, kReals, 2);
    c.push_back({K::Float32, {K::Float32, K::Int32}});
    c.push_back({K::Float64, {K::Float64, K::Int32}});
    return c;
  }();
  static const Cases frexp{{K::Float32, {K::Float32}}, {K::Float64, {K::Float64}}};
  static const Cases ldexp{{K::Float32, {K::Float32, K::Int32}},
                           {K::Float64, {K::Float64, K::Int32}}};
  static const Cases classify{{K::Boolean, {K::Int64}},
                              {K::Boolean, {K::UInt64}},
                              {K::Boolean, {K::Float32}},
                              {K::Boolean, {K::Float64}}};
  static const Cases modf{{K::Float64, {K::Float64}}, {K::Float32, {K::Float32}}};

  const size_t arity = args.size();
  switch (rule) {
  case IntrinsicTyping::MathUnary:
    return arity == 1 ? fromCases(unary, args) : std::nullopt;
  case IntrinsicTyping::MathClassify:
    return arity == 1 ? fromCases(classify, args) : std::nullopt;
  case IntrinsicTyping::MathFrexp:
    return arity == 1 ? fromCases(frexp, args, Shape::PairWithInt32) : std::nullopt;
  case IntrinsicTyping::MathModf:
    return arity == 1 ? fromCases(modf, args, Shape::Pair) : std::nullopt;
  case IntrinsicTyping::MathAtan2:
    return arity == 2 ? fromCases(atan2Like, args) : std::nullopt;
  case IntrinsicTyping::MathBinary:
    return arity == 2 ? fromCases(binary, args) : std::nullopt;
  case IntrinsicTyping::MathPow:
    return arity == 2 ? fromCases(pow, args) : std::nullopt;
  case IntrinsicTyping::MathLdexp:
    return arity == 2 ? fromCases(ldexp, args) : std::nullopt;
  default:
    return std::nullopt;
  }
}

// float(), complex(): numba's number_domain (float16 and boolean are outside it).
bool isNumberDomain(K k) {
  return k != K::Boolean && k != K::Float16;
}

std::optional<CallTyping> typeBuiltin(IntrinsicTyping rule, std::span<const K> args) {
  using Shape = CallTyping::Shape;
  auto as = [&](K result) {
    return CallTyping{result, std::vector<K>(args.begin(), args.end()), Shape::Scalar};
  };
  if (rule == IntrinsicTyping::Abs && args.size() == 1) {
    static const Cases abs = [] {
      Cases c;
      addSame(c, kSigned, 1);
      addSame(c, kUnsigned, 1);
      addSame(c, kReals, 1);
      c.push_back({K::Float32, {K::Complex64}});
      c.push_back({K::Float64, {K::Complex128}});
      return c;
    }();
    return fromCases(abs, args);
  }
  if (rule == IntrinsicTyping::MinMax && args.size() >= 2) {
    // numba unifies every argument's type; it types min/max of complex numbers but cannot
    // compile them (no complex ordering).
    K result = args[0];
    for (K a : args) {
      if (a == K::Boolean || isComplex(a))
        return std::nullopt;
      result = promoteNumbers(result, a);
    }
    return CallTyping{result, std::vector<K>(args.size(), result), Shape::Scalar};
  }
  if (rule == IntrinsicTyping::Round) {
    static const Cases round{{K::Int64, {K::Float32}},
                             {K::Int64, {K::Float64}},
                             {K::Float32, {K::Float32, K::Int64}},
                             {K::Float64, {K::Float64, K::Int64}}};
    return fromCases(round, args);
  }
  if (rule == IntrinsicTyping::IntCast && args.size() == 1) {
    if (isComplex(args[0]))
      return std::nullopt;
    return as(isInteger(args[0]) ? args[0] : K::Int64);
  }
  if (rule == IntrinsicTyping::FloatCast && args.size() == 1) {
    if (!isNumberDomain(args[0]) || isComplex(args[0]))
      return std::nullopt;
    return as(isInteger(args[0]) ? K::Float64 : args[0]);
  }
  if (rule == IntrinsicTyping::BoolCast && args.size() == 1)
    return as(K::Boolean);
  if (rule == IntrinsicTyping::ComplexCast && (args.size() == 1 || args.size() == 2)) {
    for (K a : args)
      if (!isNumberDomain(a))
        return std::nullopt;
    // numba.cuda types complex(re, im) with a complex part but CPU numba rejects it, and the
    // lowering would drop the complex part's imaginary half; pyk rejects it.
    if (args.size() == 2 && (isComplex(args[0]) || isComplex(args[1])))
      return std::nullopt;
    bool single = args[0] == K::Float32 && (args.size() == 1 || args[1] == K::Float32);
    return as(single ? K::Complex64 : K::Complex128);
  }
  if (rule == IntrinsicTyping::BuiltinPow && args.size() == 2) {
    const Case* c = selectBinary(ast::BinOpKind::Pow, args[0], args[1]);
    if (!c)
      return std::nullopt;
    return CallTyping{c->result, c->args, Shape::Scalar};
  }
  if (rule == IntrinsicTyping::Divmod && args.size() == 2) {
    static const Cases divmod{{K::Int64, {K::Int64, K::Int64}},
                              {K::UInt64, {K::UInt64, K::UInt64}},
                              {K::Float32, {K::Float32, K::Float32}},
                              {K::Float64, {K::Float64, K::Float64}}};
    return fromCases(divmod, args, Shape::Pair);
  }
  return std::nullopt;
}

// cmath (numba's cmathdecl): ConcreteTemplates over complex64 and complex128, except polar
// (complex arguments only, as they are); a real argument converts to the complex type that needs
// the cheapest conversion (float32 → complex64, float64 and int64 → complex128). phase and rect
// list complex128 first, so cmath.phase(float32) is float64.
std::optional<CallTyping> typeCmath(IntrinsicTyping rule, std::span<const K> args) {
  using Shape = CallTyping::Shape;
  static const Cases unary{{K::Complex64, {K::Complex64}}, {K::Complex128, {K::Complex128}}};
  static const Cases binary{{K::Complex64, {K::Complex64, K::Complex64}},
                            {K::Complex128, {K::Complex128, K::Complex128}}};
  static const Cases classify{{K::Boolean, {K::Complex64}}, {K::Boolean, {K::Complex128}}};
  static const Cases phase{{K::Float64, {K::Complex128}}, {K::Float32, {K::Complex64}}};
  static const Cases rect{{K::Complex128, {K::Float64, K::Float64}},
                          {K::Complex64, {K::Float32, K::Float32}}};
  switch (rule) {
  case IntrinsicTyping::CmathComplex:
    return fromCases(args.size() == 1 ? unary : binary, args);
  case IntrinsicTyping::CmathClassify:
    return fromCases(classify, args);
  case IntrinsicTyping::CmathPhase:
    return fromCases(phase, args);
  case IntrinsicTyping::CmathRect:
    return fromCases(rect, args);
  case IntrinsicTyping::CmathPolar:
    if (args.size() == 1 && isComplex(args[0]))
      return CallTyping{args[0] == K::Complex64 ? K::Float32 : K::Float64, {args[0]}, Shape::Pair};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// numba.cuda's integer and float intrinsics (cudadecl's ConcreteTemplates): popc and clz keep
// any integer width, ffs gives uint32, brev takes uint32 or uint64 (an int64 converts to uint32,
// the first case), fma and cbrt one float type; other arguments convert to a case as numba
// converts them (popc(float32) is popc(int8)). selp takes two values of one type.
std::optional<CallTyping> typeIntegerAndFloat(IntrinsicTyping rule, std::span<const K> args) {
  static const Cases sameInteger = [] {
    Cases c;
    addSame(c, kSigned, 1);
    addSame(c, kUnsigned, 1);
    return c;
  }();
  static const Cases firstSet = [] {
    Cases c;
    for (std::span<const K> kinds : {std::span<const K>(kSigned), std::span<const K>(kUnsigned)})
      for (K k : kinds)
        c.push_back({K::UInt32, {k}});
    return c;
  }();
  static const Cases bitReverse{{K::UInt32, {K::UInt32}}, {K::UInt64, {K::UInt64}}};
  static const Cases cbrt{{K::Float32, {K::Float32}}, {K::Float64, {K::Float64}}};
  static const Cases fma{{K::Float32, {K::Float32, K::Float32, K::Float32}},
                         {K::Float64, {K::Float64, K::Float64, K::Float64}}};
  switch (rule) {
  case IntrinsicTyping::BitCount:
    return fromCases(sameInteger, args);
  case IntrinsicTyping::FirstSet:
    return fromCases(firstSet, args);
  case IntrinsicTyping::BitReverse:
    return fromCases(bitReverse, args);
  case IntrinsicTyping::SameFloat:
    return fromCases(args.size() == 3 ? fma : cbrt, args);
  case IntrinsicTyping::Select: {
    // Cuda_selp (an AbstractTemplate): both values of one type among float64, float32 and the
    // integers of 16 bits and more; the predicate as it is.
    if (args.size() != 3 || args[1] != args[2])
      return std::nullopt;
    const K k = args[1];
    if (k != K::Float64 && k != K::Float32 && !(isInteger(k) && bitWidth(k) >= 16))
      return std::nullopt;
    return CallTyping{k, {args[0], k, k}};
  }
  default:
    return std::nullopt;
  }
}

K libdeviceKind(char code) {
  switch (code) {
  case 'f':
    return K::Float32;
  case 'd':
    return K::Float64;
  case 'i':
    return K::Int32;
  case 'l':
    return K::Int64;
  default:
    return K::Int16;
  }
}

// numba.cuda.libdevice.<f> (libdevicedecl's ConcreteTemplate of one case): the value arguments
// converted to the prototype's, the return value followed by what the function writes through
// its pointers: one scalar, or a pair (sincos, modf: UniTuple; frexp, remquo: (float, int32)).
std::optional<CallTyping> typeLibdevice(Intrinsic function, std::span<const K> args) {
  const LibdeviceSignature* signature = libdeviceSignature(function);
  if (signature == nullptr)
    return std::nullopt;
  std::vector<K> results;
  if (signature->result != 'v')
    results.push_back(libdeviceKind(signature->result));
  for (char code : signature->outputs)
    results.push_back(libdeviceKind(code));
  Case c{results[0], {}};
  for (char code : signature->values)
    c.args.push_back(libdeviceKind(code));
  CallTyping::Shape shape = CallTyping::Shape::Scalar;
  if (results.size() == 2)
    shape = results[1] == results[0] ? CallTyping::Shape::Pair : CallTyping::Shape::PairWithInt32;
  return fromCases(Cases{c}, args, shape);
}

// numba.cuda.fp16 (cudadecl's Cuda_fp16_unary, Cuda_fp16_binary, Cuda_hfma,
// Cuda_fp16_binary_comparison): one case over float16 arguments, to which any number but a
// complex one converts (unsafely): hmul(h, 2) converts the int64 2, hmul(h, 2.5) the float64.
std::optional<CallTyping> typeHalf(const IntrinsicInfo& info, std::span<const K> args) {
  if (!info.acceptsArgumentCount(args.size()))
    return std::nullopt;
  const K result = info.typing == IntrinsicTyping::HalfPredicate ? K::Boolean : K::Float16;
  return fromCases({{result, std::vector<K>(args.size(), K::Float16)}}, args);
}

std::optional<CallTyping> typeCall(Intrinsic function, std::span<const K> args) {
  if (function == Intrinsic::None)
    return std::nullopt;
  const IntrinsicTyping rule = intrinsicInfo(function).typing;
  if (rule == IntrinsicTyping::Half || rule == IntrinsicTyping::HalfPredicate)
    return typeHalf(intrinsicInfo(function), args);
  if (rule == IntrinsicTyping::Libdevice)
    return typeLibdevice(function, args);
  if (rule == IntrinsicTyping::OperatorFunction) {
    // The operator's own typing (TypeRules), its operands as given.
    const OperatorOf op = operatorOf(function);
    std::optional<K> result;
    if (op.binary && args.size() == 2)
      result = binaryResultType(*op.binary, args[0], args[1]);
    else if (op.comparison && args.size() == 2 &&
             comparisonOperandType(*op.comparison, args[0], args[1]))
      result = K::Boolean;
    else if (op.unary && args.size() == 1)
      result = unaryResultType(*op.unary, args[0]);
    if (!result)
      return std::nullopt;
    return CallTyping{*result, std::vector<K>(args.begin(), args.end())};
  }
  if (familyOf(rule) == IntrinsicFamily::Cmath)
    return typeCmath(rule, args);
  if (familyOf(rule) == IntrinsicFamily::IntegerAndFloat)
    return typeIntegerAndFloat(rule, args);
  if (std::optional<CallTyping> math = typeMath(rule, args))
    return math;
  return typeBuiltin(rule, args);
}

} // namespace

OperatorOf operatorOf(Intrinsic function) {
  using B = ast::BinOpKind;
  using C = ast::CmpOpKind;
  using U = ast::UnaryOpKind;
  switch (function) {
  case Intrinsic::OperatorAdd:
  case Intrinsic::OperatorIadd:
    return {B::Add, {}, {}};
  case Intrinsic::OperatorSub:
  case Intrinsic::OperatorIsub:
    return {B::Sub, {}, {}};
  case Intrinsic::OperatorMul:
  case Intrinsic::OperatorImul:
    return {B::Mult, {}, {}};
  case Intrinsic::OperatorTruediv:
  case Intrinsic::OperatorItruediv:
    return {B::Div, {}, {}};
  case Intrinsic::OperatorFloordiv:
  case Intrinsic::OperatorIfloordiv:
    return {B::FloorDiv, {}, {}};
  case Intrinsic::OperatorMod:
  case Intrinsic::OperatorImod:
    return {B::Mod, {}, {}};
  case Intrinsic::OperatorPow:
  case Intrinsic::OperatorIpow:
    return {B::Pow, {}, {}};
  case Intrinsic::OperatorLshift:
  case Intrinsic::OperatorIlshift:
    return {B::LShift, {}, {}};
  case Intrinsic::OperatorRshift:
  case Intrinsic::OperatorIrshift:
    return {B::RShift, {}, {}};
  case Intrinsic::OperatorAnd:
  case Intrinsic::OperatorIand:
    return {B::BitAnd, {}, {}};
  case Intrinsic::OperatorOr:
  case Intrinsic::OperatorIor:
    return {B::BitOr, {}, {}};
  case Intrinsic::OperatorXor:
  case Intrinsic::OperatorIxor:
    return {B::BitXor, {}, {}};
  case Intrinsic::OperatorEq:
    return {{}, C::Eq, {}};
  case Intrinsic::OperatorNe:
    return {{}, C::NotEq, {}};
  case Intrinsic::OperatorLt:
    return {{}, C::Lt, {}};
  case Intrinsic::OperatorLe:
    return {{}, C::LtE, {}};
  case Intrinsic::OperatorGt:
    return {{}, C::Gt, {}};
  case Intrinsic::OperatorGe:
    return {{}, C::GtE, {}};
  case Intrinsic::OperatorNeg:
    return {{}, {}, U::USub};
  case Intrinsic::OperatorPos:
    return {{}, {}, U::UAdd};
  case Intrinsic::OperatorInvert:
    return {{}, {}, U::Invert};
  case Intrinsic::OperatorNot:
    return {{}, {}, U::Not};
  default:
    return {};
  }
}

std::optional<ScalarKind> mathResultType(Intrinsic function, std::span<const ScalarKind> args) {
  std::optional<CallTyping> typing = typeCall(function, args);
  if (!typing)
    return std::nullopt;
  return typing->result;
}

std::optional<NumbaType> callResultType(Intrinsic function, std::span<const ScalarKind> args) {
  std::optional<CallTyping> typing = typeCall(function, args);
  if (!typing)
    return std::nullopt;
  NumbaType element = NumbaType::scalar(typing->result);
  switch (typing->shape) {
  case CallTyping::Shape::Scalar:
    return element;
  case CallTyping::Shape::Pair:
    return NumbaType::uniTuple(element, 2);
  case CallTyping::Shape::PairWithInt32:
    return NumbaType::tuple({element, NumbaType::scalar(K::Int32)});
  }
  return std::nullopt;
}

std::optional<std::vector<ScalarKind>> callArgumentTypes(Intrinsic function,
                                                         std::span<const ScalarKind> args) {
  std::optional<CallTyping> typing = typeCall(function, args);
  if (!typing)
    return std::nullopt;
  return typing->args;
}

std::optional<ScalarKind> mathResultType(std::string_view function,
                                         std::span<const ScalarKind> args) {
  return mathResultType(intrinsicNamed(function), args);
}

std::optional<NumbaType> callResultType(std::string_view function,
                                        std::span<const ScalarKind> args) {
  return callResultType(intrinsicNamed(function), args);
}

std::optional<std::vector<ScalarKind>> callArgumentTypes(std::string_view function,
                                                         std::span<const ScalarKind> args) {
  return callArgumentTypes(intrinsicNamed(function), args);
}

} // namespace pyk::sema
