// ConstantFolderBuiltins: calls of Python's builtins folded at compile time (`int float bool
// complex abs min max round len pow divmod tuple`), with Python's results and errors.
#include "sema/fold/ConstantFolder.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>

#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

// Python's round-half-even of a double to an integer-valued double.
double roundHalfEven(double x) {
  double r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == 0.5)
    r = 2.0 * std::round(x / 2.0);
  return r;
}

} // namespace

FoldResult ConstantFolder::evalBuiltinCall(const std::string& builtin, const ast::Call* call,
                                           const std::vector<ConstantValue>& args) {
  (void)call;
  auto arity = [&](size_t lo, size_t hi) { return args.size() >= lo && args.size() <= hi; };
  if (builtin == "int" && arity(0, 1)) {
    if (args.empty())
      return FoldResult::constant(ConstantValue::pythonInt(0));
    const ConstantValue& x = args[0];
    if (isIntegral(x))
      return FoldResult::constant(ConstantValue::pythonInt(asInt(x)));
    if (x.kind == Kind::Float)
      return floatToInt(std::trunc(x.floatValue), "int");
    if (x.kind == Kind::Str) {
      std::string s = x.strValue;
      size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
      s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
      char* end = nullptr;
      errno = 0;
      long long value = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0)
        return invalid("invalid literal for `int()`: " + x.repr());
      return FoldResult::constant(ConstantValue::pythonInt(value));
    }
    return notFolded("`int` of " + x.typeDescription());
  }
  if (builtin == "float" && arity(0, 1)) {
    if (args.empty())
      return FoldResult::constant(ConstantValue::floating(0.0));
    const ConstantValue& x = args[0];
    if (isReal(x))
      return FoldResult::constant(ConstantValue::floating(asDouble(x)));
    if (x.kind == Kind::Str) {
      std::string s = x.strValue;
      char* end = nullptr;
      double value = std::strtod(s.c_str(), &end);
      while (end && (*end == ' ' || *end == '\n' || *end == '\t'))
        ++end;
      if (s.empty() || *end != '\0')
        return invalid("could not convert string to float: " + x.repr());
      return FoldResult::constant(ConstantValue::floating(value));
    }
    return notFolded("`float` of " + x.typeDescription());
  }
  if (builtin == "bool" && arity(0, 1)) {
    if (args.empty())
      return FoldResult::constant(ConstantValue::boolean(false));
    std::optional<bool> truth = truthValue(args[0]);
    if (!truth)
      return FoldResult::notConstant("the truth value of an array is not a constant");
    return FoldResult::constant(ConstantValue::boolean(*truth));
  }
  if (builtin == "complex" && arity(0, 2)) {
    double re = 0, im = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind == Kind::Complex) {
        std::complex<double> c = args[i].complexValue *
                                 (i == 0 ? std::complex<double>(1, 0) : std::complex<double>(0, 1));
        re += c.real();
        im += c.imag();
      } else if (isReal(args[i])) {
        (i == 0 ? re : im) += asDouble(args[i]);
      } else {
        return notFolded("`complex` of " + args[i].typeDescription());
      }
    }
    return FoldResult::constant(ConstantValue::complex({re, im}));
  }
  if (builtin == "abs" && arity(1, 1)) {
    const ConstantValue& x = args[0];
    if (isIntegral(x)) {
      __int128 v = asInt(x);
      return applyUnaryOperator(v < 0 ? ast::UnaryOpKind::USub : ast::UnaryOpKind::UAdd,
                                x.kind == Kind::Bool ? ConstantValue::pythonInt(v) : x);
    }
    if (x.kind == Kind::Float)
      return FoldResult::constant(
          ConstantValue::floating(std::fabs(x.floatValue), x.scalar, x.weak));
    if (x.kind == Kind::Complex)
      return FoldResult::constant(ConstantValue::floating(
          std::abs(x.complexValue),
          x.scalar == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64, x.weak));
    return notFolded("`abs` of " + x.typeDescription());
  }
  if ((builtin == "min" || builtin == "max") && !args.empty()) {
    std::vector<ConstantValue> items = args;
    if (args.size() == 1) {
      if (args[0].kind != Kind::Tuple)
        return notFolded("`" + builtin + "` of " + args[0].typeDescription());
      items = args[0].elements;
      if (items.empty())
        return invalid("`" + builtin + "()` of an empty tuple");
    }
    size_t best = 0;
    for (size_t i = 1; i < items.size(); ++i) {
      FoldResult better = applyComparison(
          builtin == "min" ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, items[i], items[best]);
      if (!better.isConstant())
        return better;
      if (better.value().boolValue)
        best = i;
    }
    return FoldResult::constant(items[best]);
  }
  if (builtin == "round" && arity(1, 2)) {
    const ConstantValue& x = args[0];
    bool hasDigits = args.size() == 2 && args[1].kind != Kind::None;
    if (hasDigits && !isIntegral(args[1]))
      return notFolded("`round` with non-integer digits");
    int64_t digits = hasDigits ? static_cast<int64_t>(std::max<__int128>(
                                     -400, std::min<__int128>(400, asInt(args[1]))))
                               : 0;
    if (isIntegral(x)) {
      __int128 v = asInt(x);
      if (!hasDigits || digits >= 0)
        return FoldResult::constant(ConstantValue::pythonInt(v));
      if (digits < -19)
        return FoldResult::constant(ConstantValue::pythonInt(0));
      __int128 unit = 1;
      for (int64_t i = 0; i < -digits; ++i)
        unit *= 10;
      __int128 q = v / unit, r = v % unit;
      if (r < 0) {
        r += unit;
        --q;
      }
      if (2 * r > unit || (2 * r == unit && (q & 1)))
        ++q;
      return FoldResult::constant(ConstantValue::pythonInt(q * unit));
    }
    if (x.kind == Kind::Float) {
      if (!hasDigits)
        return floatToInt(roundHalfEven(x.floatValue), "round");
      double value = x.floatValue;
      if (std::isfinite(value)) {
        if (digits >= 0) {
          char buffer[1024];
          std::snprintf(buffer, sizeof buffer, "%.*f",
                        static_cast<int>(std::min<int64_t>(digits, 340)), value);
          value = std::strtod(buffer, nullptr);
        } else {
          double unit = std::pow(10.0, static_cast<double>(-digits));
          value = roundHalfEven(value / unit) * unit;
        }
      }
      return FoldResult::constant(ConstantValue::floating(value, x.scalar, x.weak));
    }
    return notFolded("`round` of " + x.typeDescription());
  }
  if (builtin == "len" && arity(1, 1)) {
    const ConstantValue& x = args[0];
    if (x.kind == Kind::Tuple)
      return FoldResult::constant(
          ConstantValue::pythonInt(static_cast<int64_t>(x.elements.size())));
    if (x.kind == Kind::Str) {
      int64_t count = 0;
      for (char c : x.strValue)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
          ++count;
      return FoldResult::constant(ConstantValue::pythonInt(count));
    }
    if (x.kind == Kind::Array)
      return FoldResult::constant(ConstantValue::pythonInt(x.array->shape[0]));
    return notFolded("`len` of " + x.typeDescription());
  }
  if (builtin == "pow" && arity(2, 2))
    return applyBinaryOperator(ast::BinOpKind::Pow, args[0], args[1]);
  if (builtin == "divmod" && arity(2, 2)) {
    FoldResult q = applyBinaryOperator(ast::BinOpKind::FloorDiv, args[0], args[1]);
    if (!q.isConstant())
      return q;
    FoldResult r = applyBinaryOperator(ast::BinOpKind::Mod, args[0], args[1]);
    if (!r.isConstant())
      return r;
    return FoldResult::constant(ConstantValue::tuple({q.value(), r.value()}));
  }
  if (builtin == "tuple" && arity(0, 1)) {
    if (args.empty())
      return FoldResult::constant(ConstantValue::tuple({}));
    if (args[0].kind == Kind::Tuple)
      return FoldResult::constant(args[0]);
    return notFolded("`tuple` of " + args[0].typeDescription());
  }
  if (builtin == "sum" && arity(1, 2) && args[0].kind == Kind::Tuple) {
    ConstantValue total = args.size() == 2 ? args[1] : ConstantValue::pythonInt(0);
    for (const ConstantValue& e : args[0].elements) {
      FoldResult r = applyBinaryOperator(ast::BinOpKind::Add, total, e);
      if (!r.isConstant())
        return r;
      total = r.value();
    }
    return FoldResult::constant(total);
  }
  if ((builtin == "any" || builtin == "all") && arity(1, 1) && args[0].kind == Kind::Tuple) {
    const bool any = builtin == "any";
    for (const ConstantValue& e : args[0].elements) {
      std::optional<bool> truth = truthValue(e);
      if (!truth)
        return notFolded("the truth value of an array");
      if (*truth == any)
        return FoldResult::constant(ConstantValue::boolean(any));
    }
    return FoldResult::constant(ConstantValue::boolean(!any));
  }
  return notFolded("a call of `" + builtin + "`");
}

} // namespace pyk::sema
