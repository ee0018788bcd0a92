// TypeRules: numba's typing of operators, casts and unification on scalars (CUDA target), and
// the overload resolution (TypeRuleCases.h) the call rules (TypeCallRules.cpp) share.
#include "sema/typing/TypeRules.h"
#include "sema/typing/TypeRuleCases.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

namespace pyk::sema {

namespace type_rules {

namespace {

constexpr int kScalarCount = 14;

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

} // namespace

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

// numba's resolve_overload: rate every case by the conversions the arguments need (unsafe,
// then safe, then promote; fewer is better) and take the best, the earliest on a tie.
bool ConversionRating::add(Conversion c, bool unsafeCasting) {
  switch (c) {
  case Conversion::Exact:
    return true;
  case Conversion::Promote:
    ++std::get<2>(counts);
    return true;
  case Conversion::Safe:
    ++std::get<1>(counts);
    return true;
  case Conversion::Unsafe:
    ++std::get<0>(counts);
    return unsafeCasting;
  case Conversion::None:
    return false;
  }
  return false;
}

const Case* selectCase(const Cases& cases, std::span<const K> args, bool unsafeCasting) {
  const Case* best = nullptr;
  ConversionRating bestRating;
  for (const Case& c : cases) {
    if (c.args.size() != args.size())
      continue;
    ConversionRating rating;
    bool viable = true;
    for (size_t i = 0; i < args.size() && viable; ++i)
      viable = rating.add(conversion(args[i], c.args[i]), unsafeCasting);
    if (viable && (!best || rating < bestRating)) {
      best = &c;
      bestRating = rating;
    }
  }
  return best;
}

void addSame(Cases& cases, std::span<const K> kinds, int arity) {
  for (K k : kinds)
    cases.push_back({k, std::vector<K>(arity, k)});
}

const Case* selectBinary(ast::BinOpKind op, K left, K right) {
  bool unsafeCasting = true;
  const Cases& cases = binaryCases(op, unsafeCasting);
  const std::array<K, 2> args{left, right};
  return selectCase(cases, args, unsafeCasting);
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

} // namespace type_rules

using namespace type_rules;

namespace {

bool isOrdering(ast::CmpOpKind op) {
  using ast::CmpOpKind;
  return op == CmpOpKind::Lt || op == CmpOpKind::LtE || op == CmpOpKind::Gt || op == CmpOpKind::GtE;
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

bool tuplesCompare(ast::CmpOpKind op, const NumbaType& a, const NumbaType& b) {
  if (!a.isTuple() || !b.isTuple() || static_cast<int>(op) > static_cast<int>(ast::CmpOpKind::GtE))
    return false;
  const size_t n = std::min(a.elements().size(), b.elements().size());
  for (size_t i = 0; i < n; ++i) {
    const NumbaType x = computedAs(a.elements()[i]), y = computedAs(b.elements()[i]);
    const bool ok = x.isTuple()
                        ? tuplesCompare(op, x, y)
                        : x.isScalar() && y.isScalar() &&
                              comparisonOperandType(op, x.scalarKind(), y.scalarKind()).has_value();
    if (!ok)
      return false;
  }
  return true;
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

} // namespace pyk::sema
