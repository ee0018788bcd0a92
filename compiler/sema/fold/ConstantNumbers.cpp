// ConstantNumbers: a constant number's category (bool < int < float < complex) and numpy's
// conversions between numeric types: integers wrapped to a width, floats rounded to a precision,
// scalar casts (`np.float32(x)`, `numba.int32(x)`).
#include "base/Float16.h"
#include "sema/fold/ConstantOperators.h"

#include <cmath>
#include <limits>

#include "sema/fold/ConstantNumbers.h"

namespace pyk::sema {

using namespace numbers;

namespace {

using Kind = ConstantValue::Kind;

constexpr __int128 kInt64Min = std::numeric_limits<int64_t>::min();
constexpr __int128 kUInt64Max = std::numeric_limits<uint64_t>::max();

} // namespace

namespace numbers {

Category categoryOf(const ConstantValue& v) {
  switch (v.kind) {
  case Kind::Bool:
    return Category::Bool;
  case Kind::Int:
    return Category::Int;
  case Kind::Float:
    return Category::Float;
  default:
    return Category::Complex;
  }
}

Category categoryOf(ScalarKind kind) {
  if (kind == ScalarKind::Boolean)
    return Category::Bool;
  if (isInteger(kind))
    return Category::Int;
  if (isFloat(kind))
    return Category::Float;
  return Category::Complex;
}

std::complex<double> asComplex(const ConstantValue& v) {
  return v.kind == Kind::Complex ? v.complexValue : std::complex<double>(asDouble(v), 0.0);
}

ScalarKind componentFloat(ScalarKind c) {
  return c == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64;
}

} // namespace numbers

bool fitsPythonInt(__int128 value) {
  return value >= kInt64Min && value <= kUInt64Max;
}

__int128 wrapInteger(__int128 value, ScalarKind type) {
  if (type == ScalarKind::Boolean)
    return value != 0;
  int bits = bitWidth(type);
  unsigned __int128 mask = (static_cast<unsigned __int128>(1) << bits) - 1;
  unsigned __int128 u = static_cast<unsigned __int128>(value) & mask;
  if (isSignedInteger(type) && (u >> (bits - 1)) != 0)
    return static_cast<__int128>(u) - (static_cast<__int128>(1) << bits);
  return static_cast<__int128>(u);
}

double roundToFloat(double value, ScalarKind type) {
  if (type == ScalarKind::Float32)
    return static_cast<double>(static_cast<float>(value));
  if (type == ScalarKind::Float16)
    return static_cast<double>(float16(value)); // pyk's float16: round to nearest even, as C's
                                                // _Float16 (which not every compiler has)
  return value;
}

FoldResult castToScalar(const ConstantValue& value, ScalarKind target) {
  if (!value.isNumber())
    return FoldResult::notConstant(std::string("converting ") + value.typeDescription() + " to `" +
                                   scalarName(target) + "` is not folded");
  Category to = categoryOf(target);
  switch (to) {
  case Category::Bool:
    return FoldResult::constant(ConstantValue::boolean(*truthValue(value), false));
  case Category::Int: {
    if (value.kind == Kind::Complex)
      return FoldResult::notConstant("converting a complex to an integer is not folded");
    if (value.kind == Kind::Float) {
      double x = value.floatValue;
      if (!std::isfinite(x))
        return FoldResult::error(DiagKind::ConstantCastOutOfRange,
                                 {pythonFloatRepr(x), scalarName(target)});
      double t = std::trunc(x);
      if (t < -1.8e19 || t > 1.8e19 ||
          wrapInteger(static_cast<__int128>(t), target) != static_cast<__int128>(t))
        return FoldResult::error(DiagKind::ConstantCastOutOfRange,
                                 {pythonFloatRepr(x), scalarName(target)});
      return FoldResult::constant(ConstantValue::integer(static_cast<__int128>(t), target));
    }
    __int128 x = asInt(value);
    if (value.weak && value.kind == Kind::Int && wrapInteger(x, target) != x)
      return FoldResult::error(DiagKind::ConstantCastOutOfRange,
                               {value.repr(), scalarName(target)});
    return FoldResult::constant(ConstantValue::integer(wrapInteger(x, target), target));
  }
  case Category::Float:
    if (value.kind == Kind::Complex)
      return FoldResult::notConstant("converting a complex to a float is not folded");
    return FoldResult::constant(
        ConstantValue::floating(roundToFloat(asDouble(value), target), target, false));
  case Category::Complex: {
    std::complex<double> c = asComplex(value);
    ScalarKind part = componentFloat(target);
    return FoldResult::constant(ConstantValue::complex(
        {roundToFloat(c.real(), part), roundToFloat(c.imag(), part)}, target, false));
  }
  }
  return FoldResult::notConstant("unsupported conversion");
}

} // namespace pyk::sema
