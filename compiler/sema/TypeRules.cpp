// TypeRules: numba's typing of operators, casts and math functions on scalars (CUDA target).
#include "sema/TypeRules.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

namespace pyk::sema {
namespace {

using K = ScalarKind;
constexpr int kScalarCount = 14;

// numba's Conversion kinds, in increasing cost; None: no conversion at all.
enum class Conversion : uint8_t { Exact, Promote, Safe, Unsafe, None };

// numba 0.56's typing context `can_convert(from, to)` for every pair of scalars: the transitive
// closure of typeconv/rules.py. Rows: from; columns: to; both in ScalarKind order. E exact,
// P promote, S safe, U unsafe, - none.
constexpr std::array<const char*, kScalarCount> kConversions = {
    "ESSSSSSSSUSSSS", // boolean
    "UEPPPUUUUUSSSS", // int8
    "UUEPPUUUUUSSSS", // int16
    "UUUEPUUUUUUSUS", // int32
    "UUUUEUUUUUUSUS", // int64
    "UUSSSEPPPUSSSS", // uint8
    "UUUSSUEPPUUSUS", // uint16
    "UUUUSUUEPUUSUS", // uint32
    "UUUUUUUUEUUSUS", // uint64
    "UUUUUUUUUEPPSS", // float16
    "UUUUUUUUUUEPSS", // float32
    "UUUUUUUUUUUEUS", // float64
    "------------EP", // complex64
    "------------UE", // complex128
};

Conversion conversion(K from, K to) {
  switch (kConversions[static_cast<size_t>(from)][static_cast<size_t>(to)]) {
  case 'E':
    return Conversion::Exact;
  case 'P':
    return Conversion::Promote;
  case 'S':
    return Conversion::Safe;
  case 'U':
    return Conversion::Unsafe;
  default:
    return Conversion::None;
  }
}

// One typed case of a numba template: `result(args...)`.
struct Case {
  K result;
  std::vector<K> args;
};
using Cases = std::vector<Case>;

// numba's resolve_overload: rate every case by the conversions the arguments need (unsafe,
// then safe, then promote; fewer is better) and take the best, the earliest on a tie.
const Case* selectCase(const Cases& cases, std::span<const K> args, bool unsafeCasting) {
  const Case* best = nullptr;
  std::tuple<int, int, int> bestRating;
  for (const Case& c : cases) {
    if (c.args.size() != args.size())
      continue;
    std::tuple<int, int, int> rating{0, 0, 0};
    bool viable = true;
    for (size_t i = 0; i < args.size() && viable; ++i) {
      switch (conversion(args[i], c.args[i])) {
      case Conversion::Exact:
        break;
      case Conversion::Promote:
        ++std::get<2>(rating);
        break;
      case Conversion::Safe:
        ++std::get<1>(rating);
        break;
      case Conversion::Unsafe:
        if (!unsafeCasting)
          viable = false;
        ++std::get<0>(rating);
        break;
      case Conversion::None:
        viable = false;
        break;
      }
    }
    if (viable && (!best || rating < bestRating)) {
      best = &c;
      bestRating = rating;
    }
  }
  return best;
}

constexpr std::array<K, 4> kSigned = {K::Int8, K::Int16, K::Int32, K::Int64};
constexpr std::array<K, 4> kUnsigned = {K::UInt8, K::UInt16, K::UInt32, K::UInt64};
constexpr std::array<K, 2> kReals = {K::Float32, K::Float64};
constexpr std::array<K, 2> kComplexes = {K::Complex64, K::Complex128};

void addSame(Cases& cases, std::span<const K> kinds, int arity) {
  for (K k : kinds)
    cases.push_back({k, std::vector<K>(arity, k)});
}

// integer_binop_cases: the machine ints (int64, uint64) pairwise, signed if either is.
void addIntegerBinops(Cases& cases) {
  cases.push_back({K::Int64, {K::Int64, K::Int64}});
  cases.push_back({K::Int64, {K::Int64, K::UInt64}});
  cases.push_back({K::Int64, {K::UInt64, K::Int64}});
  cases.push_back({K::UInt64, {K::UInt64, K::UInt64}});
}

// The typed cases of numba's template for a binary operator; `unsafeCasting` false for the
// bitwise templates.
const Cases& binaryCases(ast::BinOpKind op, bool& unsafeCasting) {
  using ast::BinOpKind;
  static const Cases arithmetic = [] { // BinOp: + - *
    Cases c;
    addIntegerBinops(c);
    addSame(c, kReals, 2);
    addSame(c, kComplexes, 2);
    return c;
  }();
  static const Cases trueDiv = [] {
    Cases c;
    for (K a : {K::Int64, K::UInt64})
      for (K b : {K::Int64, K::UInt64})
        c.push_back({K::Float64, {a, b}});
    addSame(c, kReals, 2);
    addSame(c, kComplexes, 2);
    return c;
  }();
  static const Cases flooring = [] { // % //
    Cases c;
    addIntegerBinops(c);
    addSame(c, kReals, 2);
    return c;
  }();
  static const Cases power = [] {
    Cases c;
    addIntegerBinops(c);
    for (K base : kReals)
      for (K exponent : {K::Int32, K::Int64, K::UInt64})
        c.push_back({base, {base, exponent}});
    addSame(c, kReals, 2);
    addSame(c, kComplexes, 2);
    return c;
  }();
  static const Cases shift = [] { // the left operand's signedness, at least 64 bits
    Cases c;
    for (K left : kSigned)
      for (K right : {K::UInt64, K::Int64})
        c.push_back({K::Int64, {left, right}});
    for (K left : kUnsigned)
      for (K right : {K::UInt64, K::Int64})
        c.push_back({K::UInt64, {left, right}});
    return c;
  }();
  static const Cases bitwise = [] { // & | ^
    Cases c{{K::Boolean, {K::Boolean, K::Boolean}}};
    addIntegerBinops(c);
    return c;
  }();
  static const Cases none;
  unsafeCasting = true;
  switch (op) {
  case BinOpKind::Add:
  case BinOpKind::Sub:
  case BinOpKind::Mult:
    return arithmetic;
  case BinOpKind::Div:
    return trueDiv;
  case BinOpKind::Mod:
  case BinOpKind::FloorDiv:
    return flooring;
  case BinOpKind::Pow:
    return power;
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    unsafeCasting = false;
    return shift;
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
  case BinOpKind::BitAnd:
    unsafeCasting = false;
    return bitwise;
  case BinOpKind::MatMult:
    return none;
  }
  return none;
}

const Case* selectBinary(ast::BinOpKind op, K left, K right) {
  bool unsafeCasting = true;
  const Cases& cases = binaryCases(op, unsafeCasting);
  const std::array<K, 2> args{left, right};
  return selectCase(cases, args, unsafeCasting);
}

bool isOrdering(ast::CmpOpKind op) {
  using ast::CmpOpKind;
  return op == CmpOpKind::Lt || op == CmpOpKind::LtE || op == CmpOpKind::Gt || op == CmpOpKind::GtE;
}

// ---- calls -------------------------------------------------------------------------------------

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

// numpy's promote_types on two numbers (numba's Number.unify).
K promoteNumbers(K a, K b) {
  if (a == b)
    return a;
  // The smallest float holding every value of an integer: 8 bits → float16, 16 → float32, wider
  // → float64.
  auto floatFor = [](K k) {
    if (!isInteger(k))
      return k;
    int bits = bitWidth(k);
    return bits <= 8 ? K::Float16 : bits <= 16 ? K::Float32 : K::Float64;
  };
  if (isInteger(a) && isInteger(b)) {
    if (isSignedInteger(a) == isSignedInteger(b))
      return bitWidth(a) >= bitWidth(b) ? a : b;
    K s = isSignedInteger(a) ? a : b;
    K u = isSignedInteger(a) ? b : a;
    if (bitWidth(s) > bitWidth(u))
      return s;
    switch (bitWidth(u)) {
    case 8:
      return K::Int16;
    case 16:
      return K::Int32;
    case 32:
      return K::Int64;
    default:
      return K::Float64;
    }
  }
  if (isComplex(a) || isComplex(b)) {
    auto componentBits = [&](K k) {
      return isComplex(k) ? bitWidth(k) / 2 : bitWidth(floatFor(k));
    };
    return std::max(componentBits(a), componentBits(b)) <= 32 ? K::Complex64 : K::Complex128;
  }
  K fa = floatFor(a);
  K fb = floatFor(b);
  return bitWidth(fa) >= bitWidth(fb) ? fa : fb;
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
  if (std::optional<CallTyping> math = typeMath(rule, args))
    return math;
  return typeBuiltin(rule, args);
}

} // namespace

std::optional<ScalarKind> binaryResultType(ast::BinOpKind op, ScalarKind left, ScalarKind right) {
  const Case* c = selectBinary(op, left, right);
  if (!c)
    return std::nullopt;
  return c->result;
}

std::optional<ScalarKind> binaryOperandType(ast::BinOpKind op, ScalarKind left, ScalarKind right) {
  // numba's lowering casts both operands to the result type (int_add_impl, int_truediv_impl, the
  // shifts, ...; the float and complex cases are over one type already); float ** int keeps the
  // exponent an integer.
  return binaryResultType(op, left, right);
}

std::optional<ScalarKind> unaryResultType(ast::UnaryOpKind op, ScalarKind operand) {
  using ast::UnaryOpKind;
  static const Cases arithmetic = [] { // UnaryOp: - +
    Cases c;
    for (K k : kUnsigned)
      c.push_back({K::UInt64, {k}});
    for (K k : kSigned)
      c.push_back({K::Int64, {k}});
    addSame(c, kReals, 1);
    addSame(c, kComplexes, 1);
    c.push_back({K::Int64, {K::Boolean}});
    return c;
  }();
  static const Cases invert = [] {
    Cases c{{K::Boolean, {K::Boolean}}};
    for (K k : kUnsigned)
      c.push_back({K::UInt64, {k}});
    for (K k : kSigned)
      c.push_back({K::Int64, {k}});
    return c;
  }();
  const std::array<K, 1> args{operand};
  const Case* c = nullptr;
  switch (op) {
  case UnaryOpKind::Not:
    return K::Boolean;
  case UnaryOpKind::USub:
    c = selectCase(arithmetic, args, true);
    break;
  case UnaryOpKind::UAdd:
    c = selectCase(arithmetic, args, true);
    break;
  case UnaryOpKind::Invert:
    c = selectCase(invert, args, false);
    break;
  }
  if (!c)
    return std::nullopt;
  return c->result;
}

std::optional<ScalarKind> comparisonOperandType(ast::CmpOpKind op, ScalarKind a, ScalarKind b) {
  using ast::CmpOpKind;
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot || op == CmpOpKind::In ||
      op == CmpOpKind::NotIn)
    return std::nullopt;
  static const Cases ordered = [] {
    Cases c{{K::Boolean, {K::Boolean, K::Boolean}}};
    addSame(c, kSigned, 2);
    addSame(c, kUnsigned, 2);
    addSame(c, kReals, 2);
    return c;
  }();
  static const Cases unordered = [] {
    Cases c = ordered;
    addSame(c, kComplexes, 2);
    return c;
  }();
  const std::array<K, 2> args{a, b};
  const Case* c = selectCase(isOrdering(op) ? ordered : unordered, args, true);
  if (!c)
    return std::nullopt;
  return c->args[0];
}

std::optional<ScalarKind> unifyScalars(ScalarKind a, ScalarKind b) {
  if (a == b)
    return a;
  if (a != K::Boolean && b != K::Boolean)
    return promoteNumbers(a, b);
  // boolean is not a numba Number: the first side that converts safely to the other.
  auto safe = [](K from, K to) { return conversion(from, to) <= Conversion::Safe; };
  if (safe(a, b))
    return b;
  if (safe(b, a))
    return a;
  return std::nullopt;
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

std::optional<ScalarKind> rangeIterationType(std::span<const ScalarKind> args) {
  static const Cases cases = [] {
    Cases c;
    for (K k : {K::Int32, K::Int64, K::UInt64})
      for (int arity = 1; arity <= 3; ++arity)
        c.push_back({k, std::vector<K>(arity, k)});
    return c;
  }();
  for (K k : args)
    if (k != K::Boolean && std::find(kSigned.begin(), kSigned.end(), k) == kSigned.end() &&
        std::find(kUnsigned.begin(), kUnsigned.end(), k) == kUnsigned.end())
      return std::nullopt;
  const Case* c = selectCase(cases, args, true);
  return c != nullptr ? std::optional<ScalarKind>(c->result) : std::nullopt;
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
