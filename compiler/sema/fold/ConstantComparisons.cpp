// ConstantComparisons: Python's comparison operators on constants (`== != < <= > >= is is not in
// not in`) and its truth value.
#include "sema/fold/ConstantOperators.h"

#include <cmath>

#include "sema/fold/ConstantNumbers.h"

namespace pyk::sema {

using namespace numbers;

namespace {

using Kind = ConstantValue::Kind;

// Three-way comparison of two numbers that are not complex.
int compareReal(const ConstantValue& a, const ConstantValue& b) {
  if (isIntegral(a) && isIntegral(b)) {
    __int128 x = asInt(a), y = asInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  double x = asDouble(a), y = asDouble(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

bool hasNan(const ConstantValue& v) {
  return (v.kind == Kind::Float && std::isnan(v.floatValue)) ||
         (v.kind == Kind::Complex &&
          (std::isnan(v.complexValue.real()) || std::isnan(v.complexValue.imag())));
}

// Python's `==`; none when it is not a constant (arrays).
std::optional<bool> equal(const ConstantValue& a, const ConstantValue& b) {
  if (a.kind == Kind::Array || b.kind == Kind::Array)
    return std::nullopt;
  if (a.isNumber() && b.isNumber()) {
    if (hasNan(a) || hasNan(b))
      return false;
    if (a.kind == Kind::Complex || b.kind == Kind::Complex)
      return asComplex(a) == asComplex(b);
    return compareReal(a, b) == 0;
  }
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case Kind::None:
    return true;
  case Kind::Str:
    return a.strValue == b.strValue;
  case Kind::Type:
    return a.typeValue == b.typeValue;
  case Kind::NamedTupleClass:
  case Kind::EnumClass:
  case Kind::Module:
  case Kind::ForeignFunction:
  case Kind::LinkableCode:
    return a.strValue == b.strValue && a.elements == b.elements;
  case Kind::Tuple: {
    if (a.elements.size() != b.elements.size())
      return false;
    for (size_t i = 0; i < a.elements.size(); ++i) {
      std::optional<bool> e = equal(a.elements[i], b.elements[i]);
      if (!e || !*e)
        return e;
    }
    return true;
  }
  default:
    return std::nullopt;
  }
}

// Python's `<` family as a three-way result; none when the values are not ordered.
std::optional<int> order(const ConstantValue& a, const ConstantValue& b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.kind == Kind::Complex || b.kind == Kind::Complex)
      return std::nullopt;
    return compareReal(a, b);
  }
  if (a.kind == Kind::Str && b.kind == Kind::Str)
    return a.strValue < b.strValue ? -1 : a.strValue > b.strValue ? 1 : 0;
  if (a.kind == Kind::Tuple && b.kind == Kind::Tuple) {
    for (size_t i = 0; i < a.elements.size() && i < b.elements.size(); ++i) {
      std::optional<bool> e = equal(a.elements[i], b.elements[i]);
      if (!e)
        return std::nullopt;
      if (!*e)
        return order(a.elements[i], b.elements[i]);
    }
    return a.elements.size() < b.elements.size()   ? -1
           : a.elements.size() > b.elements.size() ? 1
                                                   : 0;
  }
  return std::nullopt;
}

} // namespace

std::optional<bool> truthValue(const ConstantValue& value) {
  switch (value.kind) {
  case Kind::None:
    return false;
  case Kind::Bool:
    return value.boolValue;
  case Kind::Int:
    return value.intValue != 0;
  case Kind::Float:
    return value.floatValue != 0;
  case Kind::Complex:
    return value.complexValue != std::complex<double>(0, 0);
  case Kind::Str:
    return !value.strValue.empty();
  case Kind::Tuple:
    return !value.elements.empty();
  case Kind::Type:
  case Kind::NamedTupleClass:
  case Kind::EnumClass:
  case Kind::Module:
  case Kind::ForeignFunction:
  case Kind::LinkableCode:
    return true;
  case Kind::Array:
    return std::nullopt;
  }
  return std::nullopt;
}

FoldResult applyComparison(ast::CmpOpKind op, const ConstantValue& a, const ConstantValue& b) {
  auto result = [](bool value) { return FoldResult::constant(ConstantValue::boolean(value)); };
  auto notFolded = [&] {
    return FoldResult::notConstant(std::string("`") + ast::toString(op) + "` of " +
                                   a.typeDescription() + " and " + b.typeDescription() +
                                   " is not folded");
  };
  switch (op) {
  case ast::CmpOpKind::Eq:
  case ast::CmpOpKind::NotEq: {
    std::optional<bool> e = equal(a, b);
    if (!e)
      return notFolded();
    return result(op == ast::CmpOpKind::Eq ? *e : !*e);
  }
  case ast::CmpOpKind::Lt:
  case ast::CmpOpKind::LtE:
  case ast::CmpOpKind::Gt:
  case ast::CmpOpKind::GtE: {
    if (hasNan(a) || hasNan(b))
      return result(false);
    std::optional<int> o = order(a, b);
    if (!o)
      return notFolded();
    switch (op) {
    case ast::CmpOpKind::Lt:
      return result(*o < 0);
    case ast::CmpOpKind::LtE:
      return result(*o <= 0);
    case ast::CmpOpKind::Gt:
      return result(*o > 0);
    default:
      return result(*o >= 0);
    }
  }
  case ast::CmpOpKind::Is:
  case ast::CmpOpKind::IsNot: {
    // Identity is only certain for the singletons None, True and False.
    bool singletons = (a.kind == Kind::None || (a.kind == Kind::Bool && a.weak)) &&
                      (b.kind == Kind::None || (b.kind == Kind::Bool && b.weak));
    bool oneNone = a.kind == Kind::None || b.kind == Kind::None;
    if (!singletons && !oneNone)
      return notFolded();
    bool same = singletons
                    ? a.kind == b.kind && (a.kind == Kind::None || a.boolValue == b.boolValue)
                    : a.kind == b.kind;
    return result(op == ast::CmpOpKind::Is ? same : !same);
  }
  case ast::CmpOpKind::In:
  case ast::CmpOpKind::NotIn: {
    bool found = false;
    if (b.kind == Kind::Tuple) {
      for (const ConstantValue& e : b.elements) {
        std::optional<bool> eq = equal(a, e);
        if (!eq)
          return notFolded();
        found = found || *eq;
      }
    } else if (b.kind == Kind::Str && a.kind == Kind::Str) {
      found = b.strValue.find(a.strValue) != std::string::npos;
    } else {
      return notFolded();
    }
    return result(op == ast::CmpOpKind::In ? found : !found);
  }
  }
  return notFolded();
}

} // namespace pyk::sema
