// ConstantArithmetic: Python's binary and unary arithmetic operators on constants (`+ - * / // %
// ** << >> & | ^`, `-x`, `~x`, `not x`), numpy's promotion (NEP 50) for numpy scalars, and `+` /
// `*` on strings and tuples.
#include "sema/fold/ConstantOperators.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sema/fold/ConstantNumbers.h"

namespace pyk::sema {

using namespace numbers;

namespace {

using Kind = ConstantValue::Kind;
using ast::BinOpKind;

ScalarKind signedOfBits(int bits) {
  switch (bits) {
  case 8:
    return ScalarKind::Int8;
  case 16:
    return ScalarKind::Int16;
  case 32:
    return ScalarKind::Int32;
  default:
    return ScalarKind::Int64;
  }
}

ScalarKind floatForInt(ScalarKind i) {
  int bits = bitWidth(i);
  return bits <= 8 ? ScalarKind::Float16 : bits <= 16 ? ScalarKind::Float32 : ScalarKind::Float64;
}

ScalarKind complexForFloat(ScalarKind f) {
  return bitWidth(f) <= 32 ? ScalarKind::Complex64 : ScalarKind::Complex128;
}

ScalarKind widerFloat(ScalarKind a, ScalarKind b) {
  return bitWidth(a) >= bitWidth(b) ? a : b;
}

// numpy's promotion of two numpy scalar types.
ScalarKind promoteStrong(ScalarKind a, ScalarKind b) {
  Category ca = categoryOf(a), cb = categoryOf(b);
  if (ca == Category::Bool)
    return b;
  if (cb == Category::Bool)
    return a;
  if (ca == Category::Int && cb == Category::Int) {
    if (isSignedInteger(a) == isSignedInteger(b))
      return bitWidth(a) >= bitWidth(b) ? a : b;
    ScalarKind s = isSignedInteger(a) ? a : b;
    ScalarKind u = isSignedInteger(a) ? b : a;
    if (bitWidth(s) > bitWidth(u))
      return s;
    if (bitWidth(u) < 64)
      return signedOfBits(2 * bitWidth(u));
    return ScalarKind::Float64;
  }
  auto asFloat = [](ScalarKind k) {
    return categoryOf(k) == Category::Int       ? floatForInt(k)
           : categoryOf(k) == Category::Complex ? componentFloat(k)
                                                : k;
  };
  ScalarKind f = widerFloat(asFloat(a), asFloat(b));
  if (ca == Category::Complex || cb == Category::Complex)
    return complexForFloat(f);
  return f;
}

// NEP 50: a Python scalar (weak) adopts the numpy scalar's type where its kind allows.
ScalarKind promoteWeak(ScalarKind strong, Category weak) {
  Category cs = categoryOf(strong);
  switch (weak) {
  case Category::Bool:
    return strong;
  case Category::Int:
    return cs == Category::Bool ? ScalarKind::Int64 : strong;
  case Category::Float:
    return cs == Category::Float || cs == Category::Complex ? strong : ScalarKind::Float64;
  case Category::Complex:
    if (cs == Category::Complex)
      return strong;
    if (cs == Category::Float)
      return complexForFloat(strong);
    return ScalarKind::Complex128;
  }
  return strong;
}

FoldResult makeNumber(Category category, ScalarKind type, bool weak, __int128 i, double f,
                      std::complex<double> c) {
  switch (category) {
  case Category::Bool:
    return FoldResult::constant(ConstantValue::boolean(i != 0, weak));
  case Category::Int:
    if (weak) {
      if (!fitsPythonInt(i))
        return FoldResult::notConstant("the integer does not fit in 64 bits");
      return FoldResult::constant(ConstantValue::pythonInt(i));
    }
    return FoldResult::constant(ConstantValue::integer(wrapInteger(i, type), type));
  case Category::Float:
    return FoldResult::constant(ConstantValue::floating(roundToFloat(f, type), type, weak));
  case Category::Complex: {
    ScalarKind part = componentFloat(type);
    return FoldResult::constant(ConstantValue::complex(
        {roundToFloat(c.real(), part), roundToFloat(c.imag(), part)}, type, weak));
  }
  }
  return FoldResult::notConstant("unsupported value");
}

FoldResult divisionByZero(const char* what) {
  return FoldResult::error(DiagKind::ConstantDivisionByZero, {what});
}

FoldResult unsupported(ast::BinOpKind op, const ConstantValue& a, const ConstantValue& b) {
  return FoldResult::notConstant(std::string("`") + ast::toString(op) + "` of " +
                                 a.typeDescription() + " and " + b.typeDescription() +
                                 " is not folded");
}

// Python's float floor division and modulo (Objects/floatobject.c, float_divmod).
void floatDivmod(double vx, double wx, double& floordiv, double& mod) {
  mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5)
      floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
}

__int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

__int128 floorMod(__int128 a, __int128 b) {
  __int128 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

FoldResult intPower(__int128 base, __int128 exponent, bool weak, ScalarKind type) {
  __int128 result = 1;
  unsigned __int128 wrapped = 1, wbase = static_cast<unsigned __int128>(base);
  bool overflow = false;
  __int128 b = base;
  for (__int128 e = exponent; e > 0; e >>= 1) {
    if (e & 1) {
      overflow = overflow || __builtin_mul_overflow(result, b, &result);
      wrapped *= wbase;
    }
    if (e > 1) {
      overflow = overflow || __builtin_mul_overflow(b, b, &b);
      wbase *= wbase;
    }
    if (weak && overflow)
      return FoldResult::notConstant("the integer does not fit in 64 bits");
  }
  if (!weak)
    result = static_cast<__int128>(wrapped);
  return makeNumber(Category::Int, type, weak, result, 0, {});
}

FoldResult numericBinary(BinOpKind op, const ConstantValue& a, const ConstantValue& b) {
  Category ca = categoryOf(a), cb = categoryOf(b);
  bool weak = a.weak && b.weak;
  // The result type, and the category in which the operation is computed.
  ScalarKind type;
  if (weak) {
    Category c = std::max(ca, cb);
    type = c == Category::Bool    ? ScalarKind::Boolean
           : c == Category::Int   ? ScalarKind::Int64
           : c == Category::Float ? ScalarKind::Float64
                                  : ScalarKind::Complex128;
  } else if (!a.weak && !b.weak) {
    type = promoteStrong(a.scalar, b.scalar);
  } else {
    const ConstantValue& strong = a.weak ? b : a;
    const ConstantValue& other = a.weak ? a : b;
    type = promoteWeak(strong.scalar, categoryOf(other));
  }
  Category c = categoryOf(type);
  bool bitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor;
  if (c == Category::Bool && !bitwise) {
    // Arithmetic on bools computes in ints (Python); numpy bool arithmetic is not folded.
    if (!weak)
      return unsupported(op, a, b);
    c = Category::Int;
    type = ScalarKind::Int64;
  }
  if (op == BinOpKind::Div && (c == Category::Int || c == Category::Bool)) {
    c = Category::Float;
    type = ScalarKind::Float64;
  }

  if (c == Category::Bool || c == Category::Int) {
    __int128 x = asInt(a), y = asInt(b), r = 0;
    bool overflow = false;
    switch (op) {
    case BinOpKind::Add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case BinOpKind::Sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case BinOpKind::Mult:
      overflow = __builtin_mul_overflow(x, y, &r);
      if (overflow && !weak) {
        r = static_cast<__int128>(static_cast<unsigned __int128>(x) *
                                  static_cast<unsigned __int128>(y));
        overflow = false;
      }
      break;
    case BinOpKind::FloorDiv:
      if (y == 0)
        return divisionByZero("integer division");
      r = floorDiv(x, y);
      break;
    case BinOpKind::Mod:
      if (y == 0)
        return divisionByZero("integer modulo");
      r = floorMod(x, y);
      break;
    case BinOpKind::Pow:
      if (y < 0) {
        if (!weak)
          return FoldResult::notConstant("numpy integers to negative powers raise an error");
        if (x == 0)
          return FoldResult::error(DiagKind::ConstantDivisionByZero,
                                   {"raising `0` to a negative power is division"});
        return makeNumber(Category::Float, ScalarKind::Float64, true, 0,
                          std::pow(static_cast<double>(x), static_cast<double>(y)), {});
      }
      return intPower(x, y, weak, type);
    case BinOpKind::LShift:
    case BinOpKind::RShift:
      if (y < 0)
        return FoldResult::error(DiagKind::ConstantInvalidOperation, {"negative shift count"});
      if (op == BinOpKind::RShift) {
        r = y >= 127 ? (x < 0 ? -1 : 0) : x >> static_cast<int>(y);
      } else if (x == 0) {
        r = 0;
      } else if (y >= 126 || (x > 0 ? x > (std::numeric_limits<__int128>::max() >> y)
                                    : x < (std::numeric_limits<__int128>::min() >> y))) {
        if (weak)
          return FoldResult::notConstant("the integer does not fit in 64 bits");
        r = y >= 64 ? 0 : static_cast<__int128>(static_cast<unsigned __int128>(x) << y);
      } else {
        r = x * (static_cast<__int128>(1) << y);
      }
      break;
    case BinOpKind::BitAnd:
      r = x & y;
      break;
    case BinOpKind::BitOr:
      r = x | y;
      break;
    case BinOpKind::BitXor:
      r = x ^ y;
      break;
    default:
      return unsupported(op, a, b);
    }
    if (overflow) {
      if (weak)
        return FoldResult::notConstant("the integer does not fit in 64 bits");
      return unsupported(op, a, b);
    }
    return makeNumber(c, type, weak, r, 0, {});
  }

  if (bitwise || op == BinOpKind::LShift || op == BinOpKind::RShift || op == BinOpKind::MatMult)
    return unsupported(op, a, b);

  if (c == Category::Float) {
    double x = asDouble(a), y = asDouble(b), r = 0;
    if (!weak && type != ScalarKind::Float64) {
      x = roundToFloat(x, type);
      y = roundToFloat(y, type);
    }
    switch (op) {
    case BinOpKind::Add:
      r = x + y;
      break;
    case BinOpKind::Sub:
      r = x - y;
      break;
    case BinOpKind::Mult:
      r = x * y;
      break;
    case BinOpKind::Div:
      if (y == 0)
        return divisionByZero("float division");
      r = x / y;
      break;
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: {
      if (y == 0)
        return divisionByZero(op == BinOpKind::Mod ? "float modulo" : "float floor division");
      double div, mod;
      floatDivmod(x, y, div, mod);
      r = op == BinOpKind::Mod ? mod : div;
      break;
    }
    case BinOpKind::Pow:
      if (x == 0 && y < 0)
        return FoldResult::error(DiagKind::ConstantDivisionByZero,
                                 {"raising `0.0` to a negative power is division"});
      if (x < 0 && std::isfinite(y) && y != std::floor(y)) {
        if (!weak)
          return FoldResult::notConstant("a negative numpy float to a fractional power is nan");
        return makeNumber(Category::Complex, ScalarKind::Complex128, true, 0, 0,
                          std::pow(std::complex<double>(x, 0), std::complex<double>(y, 0)));
      }
      r = std::pow(x, y);
      if (weak && std::isinf(r) && std::isfinite(x) && std::isfinite(y))
        return FoldResult::notConstant("the power overflows a float");
      break;
    default:
      return unsupported(op, a, b);
    }
    return makeNumber(c, type, weak, 0, r, {});
  }

  std::complex<double> x = asComplex(a), y = asComplex(b), r;
  switch (op) {
  case BinOpKind::Add:
    r = x + y;
    break;
  case BinOpKind::Sub:
    r = x - y;
    break;
  case BinOpKind::Mult:
    r = x * y;
    break;
  case BinOpKind::Div:
    if (y == std::complex<double>(0, 0))
      return divisionByZero("complex division");
    r = x / y;
    break;
  case BinOpKind::Pow:
    if (x == std::complex<double>(0, 0) && (y.real() < 0 || y.imag() != 0))
      return FoldResult::error(DiagKind::ConstantDivisionByZero,
                               {"raising `0j` to a negative or complex power is division"});
    r = y == std::complex<double>(0, 0) ? std::complex<double>(1, 0) : std::pow(x, y);
    break;
  default:
    return unsupported(op, a, b);
  }
  return makeNumber(Category::Complex, type, weak, 0, 0, r);
}

// The longest str (bytes) or tuple (items, each a whole ConstantValue) `+` and `*` make.
size_t maxSequenceLength(Kind kind) {
  return kind == Kind::Str ? (1u << 20) : (1u << 16);
}

FoldResult repeat(const ConstantValue& sequence, const ConstantValue& count) {
  __int128 n = asInt(count);
  if (n <= 0)
    return FoldResult::constant(sequence.kind == Kind::Str ? ConstantValue::string("")
                                                           : ConstantValue::tuple({}));
  size_t size = sequence.kind == Kind::Str ? sequence.strValue.size() : sequence.elements.size();
  if (n > (1 << 20) || size * static_cast<size_t>(n) > maxSequenceLength(sequence.kind))
    return FoldResult::notConstant("the repeated sequence is too long to fold");
  if (sequence.kind == Kind::Str) {
    std::string out;
    for (__int128 i = 0; i < n; ++i)
      out += sequence.strValue;
    return FoldResult::constant(ConstantValue::string(std::move(out)));
  }
  std::vector<ConstantValue> out;
  for (__int128 i = 0; i < n; ++i)
    out.insert(out.end(), sequence.elements.begin(), sequence.elements.end());
  return FoldResult::constant(ConstantValue::tuple(std::move(out)));
}

} // namespace

FoldResult applyBinaryOperator(BinOpKind op, const ConstantValue& a, const ConstantValue& b) {
  if (a.isNumber() && b.isNumber())
    return numericBinary(op, a, b);
  if (op == BinOpKind::Add && a.kind == b.kind && (a.kind == Kind::Str || a.kind == Kind::Tuple)) {
    const size_t size = a.kind == Kind::Str ? a.strValue.size() + b.strValue.size()
                                            : a.elements.size() + b.elements.size();
    if (size > maxSequenceLength(a.kind)) // a module's loop doubling a sequence stops here
      return FoldResult::notConstant("the concatenated sequence is too long to fold");
    if (a.kind == Kind::Str)
      return FoldResult::constant(ConstantValue::string(a.strValue + b.strValue));
    std::vector<ConstantValue> elements = a.elements;
    elements.insert(elements.end(), b.elements.begin(), b.elements.end());
    return FoldResult::constant(ConstantValue::tuple(std::move(elements)));
  }
  if (op == BinOpKind::Mult) {
    if ((a.kind == Kind::Str || a.kind == Kind::Tuple) && isIntegral(b))
      return repeat(a, b);
    if ((b.kind == Kind::Str || b.kind == Kind::Tuple) && isIntegral(a))
      return repeat(b, a);
  }
  return unsupported(op, a, b);
}

FoldResult applyUnaryOperator(ast::UnaryOpKind op, const ConstantValue& a) {
  if (op == ast::UnaryOpKind::Not) {
    std::optional<bool> truth = truthValue(a);
    if (!truth)
      return FoldResult::notConstant("the truth value of an array is not a constant");
    return FoldResult::constant(ConstantValue::boolean(!*truth));
  }
  if (!a.isNumber())
    return FoldResult::notConstant(std::string("`") + ast::toString(op) + "` of " +
                                   a.typeDescription() + " is not folded");
  switch (a.kind) {
  case Kind::Bool:
    if (!a.weak) {
      if (op == ast::UnaryOpKind::Invert)
        return FoldResult::constant(ConstantValue::boolean(!a.boolValue, false));
      return FoldResult::notConstant("numpy bool arithmetic is not folded");
    }
    [[fallthrough]];
  case Kind::Int: {
    __int128 x = asInt(a);
    __int128 r = op == ast::UnaryOpKind::USub ? -x : op == ast::UnaryOpKind::Invert ? ~x : x;
    return makeNumber(Category::Int, a.kind == Kind::Bool ? ScalarKind::Int64 : a.scalar, a.weak, r,
                      0, {});
  }
  case Kind::Float:
    if (op == ast::UnaryOpKind::Invert)
      return FoldResult::notConstant("`~` of a float is a type error");
    return makeNumber(Category::Float, a.scalar, a.weak, 0,
                      op == ast::UnaryOpKind::USub ? -a.floatValue : a.floatValue, {});
  default:
    if (op == ast::UnaryOpKind::Invert)
      return FoldResult::notConstant("`~` of a complex is a type error");
    return makeNumber(Category::Complex, a.scalar, a.weak, 0, 0,
                      op == ast::UnaryOpKind::USub ? -a.complexValue : a.complexValue);
  }
}

} // namespace pyk::sema
