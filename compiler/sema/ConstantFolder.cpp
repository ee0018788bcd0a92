// ConstantFolder: evaluates a module-level expression at compile time, as Python would, when
// every name in it is an import or an already folded constant.
#include "sema/ConstantFolder.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <set>
#include <sstream>

#include "sema/ConstantOperators.h"
#include "sema/DottedName.h"
#include "sema/ModuleApiCatalog.h"

namespace pyk::sema {

namespace {

using Kind = ConstantValue::Kind;

constexpr int kMaxDepth = 256;
constexpr size_t kMaxArrayElements = 1 << 20;

bool isReal(const ConstantValue& v) {
  return isIntegral(v) || v.kind == Kind::Float;
}

FoldResult invalid(std::string message) {
  return FoldResult::error(DiagKind::ConstantInvalidOperation, {std::move(message)});
}

FoldResult notFolded(const std::string& what) {
  return FoldResult::notConstant(what + " is not folded");
}

// The builtin types `float`, `int`, `bool`, `complex` as numpy dtypes.
std::optional<ScalarKind> builtinDtype(const std::string& name) {
  if (name == "float")
    return ScalarKind::Float64;
  if (name == "int")
    return ScalarKind::Int64;
  if (name == "bool")
    return ScalarKind::Boolean;
  if (name == "complex")
    return ScalarKind::Complex128;
  return std::nullopt;
}

// Python's round-half-even of a double to an integer-valued double.
double roundHalfEven(double x) {
  double r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == 0.5)
    r = 2.0 * std::round(x / 2.0);
  return r;
}

FoldResult floatToInt(double x, const char* context) {
  if (std::isnan(x))
    return invalid(std::string("cannot convert float nan to integer in `") + context + "`");
  if (std::isinf(x))
    return invalid(std::string("cannot convert float infinity to integer in `") + context + "`");
  if (std::fabs(x) >= 1.8e19)
    return FoldResult::notConstant("the integer does not fit in 64 bits");
  __int128 i = static_cast<__int128>(x);
  if (!fitsPythonInt(i))
    return FoldResult::notConstant("the integer does not fit in 64 bits");
  return FoldResult::constant(ConstantValue::pythonInt(i));
}

struct MathFunction {
  const char* name;
  double (*fn)(double);
  // The open domain check: returns false where Python raises "math domain error".
  bool (*inDomain)(double);
};

bool anyValue(double) {
  return true;
}
bool nonNegative(double x) {
  return x >= 0 || std::isnan(x);
}
bool positive(double x) {
  return x > 0 || std::isnan(x);
}
bool unitInterval(double x) {
  return std::fabs(x) <= 1 || std::isnan(x);
}
bool atLeastOne(double x) {
  return x >= 1 || std::isnan(x);
}
bool openUnitInterval(double x) {
  return std::fabs(x) < 1 || std::isnan(x);
}
bool aboveMinusOne(double x) {
  return x > -1 || std::isnan(x);
}
bool finiteOrNan(double x) {
  return !std::isinf(x);
}
bool gammaDomain(double x) {
  return !(x <= 0 && x == std::floor(x)) && x != -INFINITY;
}

double degrees(double x) {
  return x * (180.0 / M_PI);
}
double radians(double x) {
  return x * (M_PI / 180.0);
}
double sqrtFn(double x) {
  return std::sqrt(x);
}
double expFn(double x) {
  return std::exp(x);
}
double logFn(double x) {
  return std::log(x);
}
double log2Fn(double x) {
  return std::log2(x);
}
double log10Fn(double x) {
  return std::log10(x);
}
double log1pFn(double x) {
  return std::log1p(x);
}
double expm1Fn(double x) {
  return std::expm1(x);
}
double sinFn(double x) {
  return std::sin(x);
}
double cosFn(double x) {
  return std::cos(x);
}
double tanFn(double x) {
  return std::tan(x);
}
double asinFn(double x) {
  return std::asin(x);
}
double acosFn(double x) {
  return std::acos(x);
}
double atanFn(double x) {
  return std::atan(x);
}
double sinhFn(double x) {
  return std::sinh(x);
}
double coshFn(double x) {
  return std::cosh(x);
}
double tanhFn(double x) {
  return std::tanh(x);
}
double asinhFn(double x) {
  return std::asinh(x);
}
double acoshFn(double x) {
  return std::acosh(x);
}
double atanhFn(double x) {
  return std::atanh(x);
}
double fabsFn(double x) {
  return std::fabs(x);
}
double erfFn(double x) {
  return std::erf(x);
}
double erfcFn(double x) {
  return std::erfc(x);
}
double gammaFn(double x) {
  return std::tgamma(x);
}
double lgammaFn(double x) {
  return std::lgamma(x);
}
double cbrtFn(double x) {
  return std::cbrt(x);
}
double exp2Fn(double x) {
  return std::exp2(x);
}

constexpr MathFunction kMathFunctions[] = {
    {"sqrt", sqrtFn, nonNegative},
    {"exp", expFn, anyValue},
    {"log", logFn, positive},
    {"log2", log2Fn, positive},
    {"log10", log10Fn, positive},
    {"log1p", log1pFn, aboveMinusOne},
    {"expm1", expm1Fn, anyValue},
    {"sin", sinFn, finiteOrNan},
    {"cos", cosFn, finiteOrNan},
    {"tan", tanFn, finiteOrNan},
    {"asin", asinFn, unitInterval},
    {"acos", acosFn, unitInterval},
    {"atan", atanFn, anyValue},
    {"sinh", sinhFn, anyValue},
    {"cosh", coshFn, anyValue},
    {"tanh", tanhFn, anyValue},
    {"asinh", asinhFn, anyValue},
    {"acosh", acoshFn, atLeastOne},
    {"atanh", atanhFn, openUnitInterval},
    {"fabs", fabsFn, anyValue},
    {"erf", erfFn, anyValue},
    {"erfc", erfcFn, anyValue},
    {"gamma", gammaFn, gammaDomain},
    {"lgamma", lgammaFn, gammaDomain},
    {"degrees", degrees, anyValue},
    {"radians", radians, anyValue},
    {"cbrt", cbrtFn, anyValue},
    {"exp2", exp2Fn, anyValue},
};

// numpy's names for the same scalar functions.
constexpr std::pair<const char*, const char*> kNumpyToMath[] = {
    {"sqrt", "sqrt"},       {"exp", "exp"},         {"log", "log"},         {"log2", "log2"},
    {"log10", "log10"},     {"log1p", "log1p"},     {"expm1", "expm1"},     {"sin", "sin"},
    {"cos", "cos"},         {"tan", "tan"},         {"arcsin", "asin"},     {"arccos", "acos"},
    {"arctan", "atan"},     {"sinh", "sinh"},       {"cosh", "cosh"},       {"tanh", "tanh"},
    {"arcsinh", "asinh"},   {"arccosh", "acosh"},   {"arctanh", "atanh"},   {"fabs", "fabs"},
    {"degrees", "degrees"}, {"radians", "radians"}, {"rad2deg", "degrees"}, {"deg2rad", "radians"},
    {"cbrt", "cbrt"},       {"exp2", "exp2"}};

const MathFunction* mathFunctionNamed(std::string_view name) {
  for (const MathFunction& f : kMathFunctions)
    if (name == f.name)
      return &f;
  return nullptr;
}

// Python's slice index adjustment (PySlice_AdjustIndices) over a sequence of `length`.
std::vector<size_t> sliceIndices(int64_t length, std::optional<int64_t> start,
                                 std::optional<int64_t> stop, int64_t step) {
  int64_t lo, hi;
  auto clamp = [&](std::optional<int64_t> v, int64_t fallback, bool isStart) {
    if (!v)
      return fallback;
    int64_t x = *v;
    if (x < 0) {
      x += length;
      if (x < 0)
        x = step < 0 ? -1 : 0;
    } else if (x >= length) {
      x = step < 0 ? length - 1 : length;
    }
    (void)isStart;
    return x;
  };
  lo = clamp(start, step < 0 ? length - 1 : 0, true);
  hi = clamp(stop, step < 0 ? -1 : length, false);
  std::vector<size_t> out;
  if (step > 0)
    for (int64_t i = lo; i < hi; i += step)
      out.push_back(static_cast<size_t>(i));
  else
    for (int64_t i = lo; i > hi; i += step)
      out.push_back(static_cast<size_t>(i));
  return out;
}

// Flattens a nested list/tuple literal into `values`, recording the shape on the way down.
struct ArrayLiteralShape {
  std::vector<int64_t> shape;
  bool shapeKnown = false;
};

} // namespace

FoldResult ConstantFolder::fold(const ast::Expr* expr) {
  FoldResult result = eval(expr, 0);
  if (result.status() == FoldResult::Status::Error) {
    result.at(expr->range);
    diags_.report(result.errorKind(), result.range(), result.errorArgs());
  }
  return result;
}

FoldResult ConstantFolder::eval(const ast::Expr* expr, int depth) {
  if (depth > kMaxDepth)
    return FoldResult::notConstant("the expression is nested too deeply to fold");
  FoldResult result = [&]() -> FoldResult {
    switch (expr->kind) {
    case ast::NodeKind::Constant: {
      const auto* c = expr->as<ast::Constant>();
      switch (c->valueKind) {
      case ast::ConstantKind::None:
        return FoldResult::constant(ConstantValue::none());
      case ast::ConstantKind::Bool:
        return FoldResult::constant(ConstantValue::boolean(c->boolValue));
      case ast::ConstantKind::Int:
        if (c->intTooLarge || !fitsPythonInt(c->intValue))
          return FoldResult::notConstant("the integer literal does not fit in 64 bits");
        return FoldResult::constant(ConstantValue::pythonInt(c->intValue));
      case ast::ConstantKind::Float:
        return FoldResult::constant(ConstantValue::floating(c->floatValue));
      case ast::ConstantKind::Complex:
        return FoldResult::constant(ConstantValue::complex({0.0, c->floatValue}));
      case ast::ConstantKind::Str:
        return FoldResult::constant(ConstantValue::string(c->strValue));
      case ast::ConstantKind::Bytes:
        return FoldResult::notConstant("bytes are not constants numba can use");
      case ast::ConstantKind::Ellipsis:
        return FoldResult::notConstant("`...` is not a constant numba can use");
      }
      return FoldResult::notConstant("unknown literal");
    }
    case ast::NodeKind::Name:
      return evalName(expr->as<ast::Name>());
    case ast::NodeKind::Attribute:
      return evalAttribute(expr->as<ast::Attribute>(), depth);
    case ast::NodeKind::Tuple:
      return evalSequence(expr->as<ast::Tuple>()->elts, depth);
    case ast::NodeKind::BinOp: {
      const auto* b = expr->as<ast::BinOp>();
      FoldResult left = eval(b->left, depth + 1);
      if (!left.isConstant())
        return left;
      FoldResult right = eval(b->right, depth + 1);
      if (!right.isConstant())
        return right;
      return applyBinaryOperator(b->op, left.value(), right.value());
    }
    case ast::NodeKind::UnaryOp: {
      const auto* u = expr->as<ast::UnaryOp>();
      FoldResult operand = eval(u->operand, depth + 1);
      if (!operand.isConstant())
        return operand;
      return applyUnaryOperator(u->op, operand.value());
    }
    case ast::NodeKind::BoolOp: {
      // Python value semantics: the first falsy (and) / truthy (or) operand, else the last.
      const auto* b = expr->as<ast::BoolOp>();
      FoldResult current = FoldResult::notConstant("empty boolean operation");
      for (size_t i = 0; i < b->values.size(); ++i) {
        current = eval(b->values[i], depth + 1);
        if (!current.isConstant())
          return current;
        if (i + 1 == b->values.size())
          break;
        std::optional<bool> truth = truthValue(current.value());
        if (!truth)
          return FoldResult::notConstant("the truth value of an array is not a constant");
        if (*truth == (b->op == ast::BoolOpKind::Or))
          break;
      }
      return current;
    }
    case ast::NodeKind::Compare: {
      const auto* c = expr->as<ast::Compare>();
      FoldResult left = eval(c->left, depth + 1);
      if (!left.isConstant())
        return left;
      ConstantValue leftValue = left.value();
      for (size_t i = 0; i < c->ops.size(); ++i) {
        FoldResult right = eval(c->comparators[i], depth + 1);
        if (!right.isConstant())
          return right;
        FoldResult r = applyComparison(c->ops[i], leftValue, right.value());
        if (!r.isConstant() || i + 1 == c->ops.size() || !r.value().boolValue)
          return r;
        leftValue = right.value();
      }
      return FoldResult::notConstant("empty comparison");
    }
    case ast::NodeKind::IfExp: {
      const auto* e = expr->as<ast::IfExp>();
      FoldResult test = eval(e->test, depth + 1);
      if (!test.isConstant())
        return test;
      std::optional<bool> truth = truthValue(test.value());
      if (!truth)
        return FoldResult::notConstant("the truth value of an array is not a constant");
      return eval(*truth ? e->body : e->orelse, depth + 1);
    }
    case ast::NodeKind::Call:
      return evalCall(expr->as<ast::Call>(), depth);
    case ast::NodeKind::Subscript:
      return evalSubscript(expr->as<ast::Subscript>(), depth);
    case ast::NodeKind::List:
      return FoldResult::notConstant("a list is not a constant numba can use (use a tuple)");
    case ast::NodeKind::Dict:
    case ast::NodeKind::Set:
      return FoldResult::notConstant("dicts and sets are not constants numba can use");
    case ast::NodeKind::JoinedStr:
      return notFolded("an f-string");
    default:
      return FoldResult::notConstant(std::string("a ") + ast::nodeKindName(expr->kind) +
                                     " expression is not folded");
    }
  }();
  if (result.status() != FoldResult::Status::Constant)
    result.at(expr->range);
  return result;
}

std::optional<FoldResult> ConstantFolder::evalArguments(const ast::Call* call, int depth,
                                                        std::vector<ConstantValue>& out) {
  for (const ast::Expr* arg : call->args) {
    FoldResult r = eval(arg, depth + 1);
    if (!r.isConstant())
      return r;
    out.push_back(r.value());
  }
  return std::nullopt;
}

FoldResult ConstantFolder::evalName(const ast::Name* name) {
  const ModuleSymbol* symbol = symbols_.find(name->id);
  if (symbol == nullptr) {
    if (builtinDtype(name->id))
      return FoldResult::notConstant("`" + name->id + "` is a builtin function");
    return FoldResult::notConstant("`" + name->id + "` is not defined before this point");
  }
  switch (symbol->kind) {
  case ModuleSymbolKind::Constant:
    return FoldResult::constant(symbols_.constants()[symbol->index].value);
  case ModuleSymbolKind::Import: {
    const std::string& q = symbols_.imports()[symbol->index].qualifiedName;
    std::optional<ApiEntity> entity = lookupApi(q);
    if (entity && entity->kind == ApiKind::Type && !entity->type.isVoid())
      return FoldResult::constant(ConstantValue::type(entity->type));
    if (entity && entity->kind == ApiKind::Constant)
      return FoldResult::constant(ConstantValue::floating(entity->constantValue));
    return FoldResult::notConstant("`" + name->id + "` is the imported `" + q + "`");
  }
  case ModuleSymbolKind::HostValue:
    return FoldResult::notConstant("`" + name->id + "` is not a compile-time constant");
  case ModuleSymbolKind::CompiledFunction:
  case ModuleSymbolKind::HostFunction:
    return FoldResult::notConstant("`" + name->id + "` is a function");
  case ModuleSymbolKind::Class:
    return FoldResult::notConstant("`" + name->id + "` is a class");
  }
  return FoldResult::notConstant("unknown name");
}

FoldResult ConstantFolder::evalAttribute(const ast::Attribute* attribute, int depth) {
  if (std::optional<std::string> q = importedQualifiedName(attribute, symbols_)) {
    std::optional<ApiEntity> entity = lookupApi(*q);
    if (entity && entity->kind == ApiKind::Type && !entity->type.isVoid())
      return FoldResult::constant(ConstantValue::type(entity->type));
    if (entity && entity->kind == ApiKind::Constant)
      return FoldResult::constant(ConstantValue::floating(entity->constantValue));
    return FoldResult::notConstant("`" + *q + "` is not folded");
  }
  FoldResult base = eval(attribute->value, depth + 1);
  if (!base.isConstant())
    return base;
  const ConstantValue& v = base.value();
  const std::string& attr = attribute->attr;
  if (v.kind == Kind::Array) {
    const ConstantArray& a = *v.array;
    if (attr == "shape") {
      std::vector<ConstantValue> dims;
      for (int64_t d : a.shape)
        dims.push_back(ConstantValue::pythonInt(d));
      return FoldResult::constant(ConstantValue::tuple(std::move(dims)));
    }
    if (attr == "ndim")
      return FoldResult::constant(ConstantValue::pythonInt(static_cast<int64_t>(a.shape.size())));
    if (attr == "size")
      return FoldResult::constant(ConstantValue::pythonInt(static_cast<int64_t>(a.values.size())));
    if (attr == "dtype")
      return FoldResult::constant(ConstantValue::type(NumbaType::scalar(a.dtype)));
  }
  if (v.isNumber() && (attr == "real" || attr == "imag")) {
    if (v.kind == Kind::Complex) {
      double part = attr == "real" ? v.complexValue.real() : v.complexValue.imag();
      ScalarKind f = v.scalar == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64;
      return FoldResult::constant(ConstantValue::floating(part, f, v.weak));
    }
    if (attr == "real")
      return base;
    ConstantValue zero = v;
    zero.intValue = 0;
    zero.floatValue = 0;
    zero.boolValue = false;
    if (v.kind == Kind::Bool)
      zero = ConstantValue::pythonInt(0);
    return FoldResult::constant(zero);
  }
  return notFolded("`." + attr + "` of " + v.typeDescription());
}

FoldResult ConstantFolder::evalSequence(const std::vector<ast::Expr*>& elements, int depth) {
  std::vector<ConstantValue> values;
  for (const ast::Expr* e : elements) {
    if (const auto* starred = e->as<ast::Starred>()) {
      FoldResult inner = eval(starred->value, depth + 1);
      if (!inner.isConstant())
        return inner;
      if (inner.value().kind != Kind::Tuple)
        return notFolded("unpacking " + inner.value().typeDescription());
      values.insert(values.end(), inner.value().elements.begin(), inner.value().elements.end());
      continue;
    }
    FoldResult r = eval(e, depth + 1);
    if (!r.isConstant())
      return r;
    values.push_back(r.value());
  }
  return FoldResult::constant(ConstantValue::tuple(std::move(values)));
}

FoldResult ConstantFolder::evalSubscript(const ast::Subscript* subscript, int depth) {
  FoldResult base = eval(subscript->value, depth + 1);
  if (!base.isConstant())
    return base;
  const ConstantValue& v = base.value();
  if (v.kind != Kind::Tuple)
    return notFolded("indexing " + v.typeDescription());
  int64_t length = static_cast<int64_t>(v.elements.size());
  if (const auto* slice = subscript->slice->as<ast::Slice>()) {
    auto bound = [&](const ast::Expr* e) -> std::optional<std::optional<int64_t>> {
      if (e == nullptr)
        return std::optional<int64_t>();
      FoldResult r = eval(e, depth + 1);
      if (r.isConstant() && r.value().kind == Kind::None)
        return std::optional<int64_t>();
      if (!r.isConstant() || !isIntegral(r.value()))
        return std::nullopt;
      __int128 x = asInt(r.value());
      x = std::max<__int128>(std::min<__int128>(x, INT64_MAX / 2), INT64_MIN / 2);
      return std::optional<int64_t>(static_cast<int64_t>(x));
    };
    auto lower = bound(slice->lower), upper = bound(slice->upper), step = bound(slice->step);
    if (!lower || !upper || !step)
      return notFolded("this slice");
    int64_t s = step->value_or(1);
    if (s == 0)
      return invalid("slice step cannot be zero");
    std::vector<ConstantValue> out;
    for (size_t i : sliceIndices(length, *lower, *upper, s))
      out.push_back(v.elements[i]);
    return FoldResult::constant(ConstantValue::tuple(std::move(out)));
  }
  FoldResult index = eval(subscript->slice, depth + 1);
  if (!index.isConstant())
    return index;
  if (!isIntegral(index.value()))
    return notFolded("indexing a tuple with " + index.value().typeDescription());
  __int128 i = asInt(index.value());
  if (i < 0)
    i += length;
  if (i < 0 || i >= length)
    return invalid("tuple index out of range");
  return FoldResult::constant(v.elements[static_cast<size_t>(i)]);
}

FoldResult ConstantFolder::evalCall(const ast::Call* call, int depth) {
  for (const ast::Expr* arg : call->args)
    if (arg->is<ast::Starred>())
      return notFolded("a call with `*` arguments");
  // The callee: a builtin (a bare name the module does not bind) or an imported API.
  std::string builtin;
  if (const auto* name = call->func->as<ast::Name>(); name && symbols_.find(name->id) == nullptr)
    builtin = name->id;
  std::optional<std::string> api = importedQualifiedName(call->func, symbols_);
  if (builtin.empty() && !api) {
    if (call->func->is<ast::Name>() || call->func->is<ast::Attribute>())
      return notFolded("a call of `" + dottedName(call->func) + "`");
    return notFolded("this call");
  }
  if (api)
    return evalApiCall(*api, call, depth);
  if (!call->keywords.empty() &&
      !(builtin == "round" && call->keywords.size() == 1 && call->keywords[0].arg == "ndigits"))
    return notFolded("a call of `" + builtin + "` with keyword arguments");
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  for (const ast::Keyword& k : call->keywords) {
    FoldResult r = eval(k.value, depth + 1);
    if (!r.isConstant())
      return r;
    args.push_back(r.value());
  }
  return evalBuiltinCall(builtin, call, args);
}

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
  return notFolded("a call of `" + builtin + "`");
}

FoldResult ConstantFolder::evalApiCall(const std::string& q, const ast::Call* call, int depth) {
  if (q == "numpy.array" || q == "numpy.asarray")
    return evalNumpyArray(call, depth);
  if (q == "collections.namedtuple")
    return evalNamedTupleClass(call, depth);
  if (q == "numpy.dtype" && !call->args.empty() &&
      (call->args[0]->is<ast::List>() || call->args[0]->is<ast::Tuple>()))
    return evalRecordDtype(call, depth);
  if (q == "numba.from_dtype" && call->args.size() == 1 && call->keywords.empty()) {
    // numba's type for a dtype: a record stays the record; a scalar dtype its scalar.
    FoldResult d = eval(call->args[0], depth + 1);
    if (!d.isConstant())
      return d;
    if (d.value().kind == Kind::Type)
      return d;
    return invalid("`numba.from_dtype` needs a numpy dtype");
  }
  std::optional<ApiEntity> entity = lookupApi(q);
  if (!call->keywords.empty())
    return notFolded("a call of `" + q + "` with keyword arguments");
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  if (entity && entity->kind == ApiKind::Type && entity->type.isScalar()) {
    ScalarKind target = entity->type.scalarKind();
    if (args.empty())
      return castToScalar(ConstantValue::pythonInt(0), target);
    if (args.size() == 1)
      return castToScalar(args[0], target);
    return notFolded("a call of `" + q + "` with several arguments");
  }
  std::string module = q.substr(0, q.rfind('.'));
  std::string member = q.substr(q.rfind('.') + 1);
  if (module == "math") {
    if (args.size() == 1 && isReal(args[0])) {
      double x = asDouble(args[0]);
      if (member == "floor" || member == "ceil" || member == "trunc") {
        if (isIntegral(args[0]))
          return FoldResult::constant(ConstantValue::pythonInt(asInt(args[0])));
        double r = member == "floor"  ? std::floor(x)
                   : member == "ceil" ? std::ceil(x)
                                      : std::trunc(x);
        return floatToInt(r, ("math." + member).c_str());
      }
      if (member == "isnan" || member == "isinf" || member == "isfinite") {
        bool r = member == "isnan"   ? std::isnan(x)
                 : member == "isinf" ? std::isinf(x)
                                     : std::isfinite(x);
        return FoldResult::constant(ConstantValue::boolean(r));
      }
      if (const MathFunction* f = mathFunctionNamed(member)) {
        if (!f->inDomain(x))
          return invalid("math domain error in `math." + member + "`");
        return FoldResult::constant(ConstantValue::floating(f->fn(x)));
      }
    }
    if (args.size() == 2 && isReal(args[0]) && isReal(args[1])) {
      double x = asDouble(args[0]), y = asDouble(args[1]);
      if (member == "log") {
        if (!(x > 0) || !(y > 0))
          return invalid("math domain error in `math.log`");
        if (y == 1)
          return FoldResult::error(DiagKind::ConstantDivisionByZero,
                                   {"`math.log` with base 1: division"});
        return FoldResult::constant(ConstantValue::floating(std::log(x) / std::log(y)));
      }
      if (member == "pow")
        return FoldResult::constant(ConstantValue::floating(std::pow(x, y)));
      if (member == "atan2")
        return FoldResult::constant(ConstantValue::floating(std::atan2(x, y)));
      if (member == "hypot")
        return FoldResult::constant(ConstantValue::floating(std::hypot(x, y)));
      if (member == "copysign")
        return FoldResult::constant(ConstantValue::floating(std::copysign(x, y)));
      if (member == "fmod") {
        if (y == 0)
          return invalid("math domain error in `math.fmod`");
        return FoldResult::constant(ConstantValue::floating(std::fmod(x, y)));
      }
      if (member == "gcd" && isIntegral(args[0]) && isIntegral(args[1])) {
        __int128 a = asInt(args[0]), b = asInt(args[1]);
        a = a < 0 ? -a : a;
        b = b < 0 ? -b : b;
        while (b != 0) {
          __int128 t = a % b;
          a = b;
          b = t;
        }
        return FoldResult::constant(ConstantValue::pythonInt(a));
      }
    }
    return notFolded("this call of `math." + member + "`");
  }
  if (module == "numpy" && args.size() == 1 && isReal(args[0])) {
    // Scalar ufuncs: the result is a numpy float (float32 stays float32), nan off the domain.
    const ConstantValue& x = args[0];
    ScalarKind type = x.kind == Kind::Float && !x.weak ? x.scalar : ScalarKind::Float64;
    double v = asDouble(x);
    auto result = [&](double r) {
      return FoldResult::constant(ConstantValue::floating(roundToFloat(r, type), type, false));
    };
    if (member == "floor" || member == "ceil" || member == "trunc" || member == "rint")
      return result(member == "floor"   ? std::floor(v)
                    : member == "ceil"  ? std::ceil(v)
                    : member == "trunc" ? std::trunc(v)
                                        : std::nearbyint(v));
    if (member == "square")
      return result(v * v);
    if ((member == "abs" || member == "absolute") && x.kind == Kind::Float)
      return result(std::fabs(v));
    for (const auto& [numpyName, mathName] : kNumpyToMath) {
      if (member == numpyName) {
        const MathFunction* f = mathFunctionNamed(mathName);
        return result(f->inDomain(v) ? f->fn(v) : std::nan(""));
      }
    }
  }
  return notFolded("a call of `" + q + "`");
}

namespace {

bool isPythonKeyword(const std::string& s) {
  static const char* const keywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (const char* k : keywords)
    if (s == k)
      return true;
  return false;
}

// An ASCII Python identifier (namedtuple's names in kernels are ASCII in practice; a non-ASCII
// one is refused rather than mangled wrongly).
bool isAsciiIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

} // namespace

FoldResult ConstantFolder::evalNamedTupleClass(const ast::Call* call, int depth) {
  if (!call->keywords.empty())
    return notFolded("a call of `collections.namedtuple` with keyword arguments");
  if (call->args.size() != 2)
    return invalid("`namedtuple` takes a class name and the field names");
  FoldResult name = eval(call->args[0], depth + 1);
  if (!name.isConstant())
    return name;
  if (name.value().kind != Kind::Str)
    return invalid("the class name of a `namedtuple` must be a string");
  std::vector<std::string> fields;
  const ast::Expr* spec = call->args[1];
  const std::vector<ast::Expr*>* items = nullptr;
  if (const auto* list = spec->as<ast::List>())
    items = &list->elts;
  else if (const auto* tuple = spec->as<ast::Tuple>())
    items = &tuple->elts;
  if (items) {
    for (const ast::Expr* item : *items) {
      FoldResult f = eval(item, depth + 1);
      if (!f.isConstant())
        return f;
      if (f.value().kind != Kind::Str)
        return invalid("the field names of a `namedtuple` must be strings");
      fields.push_back(f.value().strValue);
    }
  } else {
    FoldResult f = eval(spec, depth + 1);
    if (!f.isConstant())
      return f;
    if (f.value().kind != Kind::Str)
      return invalid("the field names of a `namedtuple` must be a string or a list of strings");
    std::string text = f.value().strValue;
    for (char& c : text)
      if (c == ',')
        c = ' ';
    std::istringstream words(text);
    for (std::string w; words >> w;)
      fields.push_back(w);
  }
  const std::string& className = name.value().strValue;
  if (!isAsciiIdentifier(className) || isPythonKeyword(className))
    return invalid("`" + className + "` is not a valid class name for a `namedtuple`");
  std::set<std::string> seen;
  for (const std::string& f : fields) {
    if (!isAsciiIdentifier(f) || isPythonKeyword(f))
      return invalid("`" + f + "` is not a valid field name for a `namedtuple`");
    if (f[0] == '_')
      return invalid("the field name `" + f + "` of a `namedtuple` starts with an underscore");
    if (!seen.insert(f).second)
      return invalid("the `namedtuple` has two fields named `" + f + "`");
  }
  return FoldResult::constant(ConstantValue::namedTupleClass(className, fields));
}

FoldResult ConstantFolder::evalRecordDtype(const ast::Call* call, int depth) {
  bool align = false;
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg != "align")
      return notFolded("`np.dtype` with the keyword `" + k.arg + "`");
    FoldResult a = eval(k.value, depth + 1);
    if (!a.isConstant())
      return a;
    if (a.value().kind != Kind::Bool)
      return invalid("`align` of `np.dtype` must be True or False");
    align = a.value().boolValue;
  }
  if (call->args.size() != 1)
    return notFolded("`np.dtype` with several arguments");
  const auto* list = call->args[0]->as<ast::List>();
  const auto* tuple = call->args[0]->as<ast::Tuple>();
  const std::vector<ast::Expr*>& items = list ? list->elts : tuple->elts;
  if (items.empty())
    return invalid("a structured dtype needs at least one field");
  RecordLayout layout;
  layout.aligned = align;
  int64_t maxAlignment = 1;
  for (const ast::Expr* item : items) {
    const auto* field = item->as<ast::Tuple>();
    if (field == nullptr || field->elts.size() < 2)
      return invalid("each field of a structured dtype is a (name, dtype) tuple");
    if (field->elts.size() > 2)
      return notFolded("a structured dtype with sub-array fields");
    FoldResult name = eval(field->elts[0], depth + 1);
    if (!name.isConstant())
      return name;
    if (name.value().kind != Kind::Str || name.value().strValue.empty())
      return invalid("a field name of a structured dtype must be a non-empty string");
    FoldResult type = eval(field->elts[1], depth + 1);
    if (!type.isConstant())
      return type;
    std::optional<ScalarKind> kind;
    if (type.value().kind == Kind::Type && type.value().typeValue.isScalar())
      kind = type.value().typeValue.scalarKind();
    else if (type.value().kind == Kind::Str)
      kind = numpyScalarKindNamed(type.value().strValue);
    if (!kind)
      return notFolded("the field type " + type.value().repr() + " of a structured dtype");
    const std::string& fieldName = name.value().strValue;
    if (layout.field(fieldName) != nullptr)
      return invalid("the structured dtype has two fields named '" + fieldName + "'");
    int64_t size = bitWidth(*kind) / 8;
    int64_t alignment = alignmentOf(*kind);
    int64_t offset = layout.size;
    if (align)
      offset = (offset + alignment - 1) / alignment * alignment;
    maxAlignment = std::max(maxAlignment, alignment);
    layout.fields.push_back({fieldName, *kind, offset});
    layout.size = offset + size;
  }
  if (align)
    layout.size = (layout.size + maxAlignment - 1) / maxAlignment * maxAlignment;
  return FoldResult::constant(ConstantValue::type(NumbaType::record(std::move(layout))));
}

FoldResult ConstantFolder::evalNumpyArray(const ast::Call* call, int depth) {
  if (call->args.empty() || call->args.size() > 2)
    return notFolded("this call of `numpy.array`");
  const ast::Expr* dtypeExpr = call->args.size() == 2 ? call->args[1] : nullptr;
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg == "dtype")
      dtypeExpr = k.value;
    else
      return notFolded("`numpy.array` with `" + (k.arg.empty() ? std::string("**") : k.arg) + "`");
  }
  // The dtype, when given.
  std::optional<ScalarKind> dtype;
  if (dtypeExpr != nullptr) {
    const auto* name = dtypeExpr->as<ast::Name>();
    if (name && symbols_.find(name->id) == nullptr && builtinDtype(name->id)) {
      dtype = builtinDtype(name->id);
    } else {
      FoldResult d = eval(dtypeExpr, depth + 1);
      if (!d.isConstant())
        return d;
      if (d.value().kind == Kind::Type && d.value().typeValue.isScalar())
        dtype = d.value().typeValue.scalarKind();
      else if (d.value().kind == Kind::Str && numpyScalarKindNamed(d.value().strValue))
        dtype = numpyScalarKindNamed(d.value().strValue);
      else if (d.value().kind == Kind::Str)
        return FoldResult::error(DiagKind::ConstantArrayBadDtype, {d.value().strValue},
                                 dtypeExpr->range);
      else if (d.value().kind == Kind::None)
        dtype = std::nullopt;
      else
        return notFolded("a dtype of " + d.value().typeDescription());
    }
  }
  // Flatten the nested literal, checking that it is rectangular.
  std::vector<int64_t> shape;
  std::vector<ConstantValue> values;
  std::function<FoldResult(const ast::Expr*, size_t, int)> flatten =
      [&](const ast::Expr* e, size_t dim, int d) -> FoldResult {
    const std::vector<ast::Expr*>* elts = nullptr;
    if (const auto* list = e->as<ast::List>())
      elts = &list->elts;
    else if (const auto* tuple = e->as<ast::Tuple>())
      elts = &tuple->elts;
    if (elts != nullptr) {
      int64_t n = static_cast<int64_t>(elts->size());
      if (dim == shape.size()) {
        if (!values.empty())
          return FoldResult::error(DiagKind::ConstantArrayNotRectangular,
                                   {"expected a number, found a sequence"}, e->range);
        shape.push_back(n);
      } else if (shape[dim] != n) {
        return FoldResult::error(
            DiagKind::ConstantArrayNotRectangular,
            {"expected " + std::to_string(shape[dim]) + " elements, found " + std::to_string(n)},
            e->range);
      }
      for (const ast::Expr* elt : *elts) {
        if (elt->is<ast::Starred>())
          return notFolded("unpacking in an array literal");
        FoldResult r = flatten(elt, dim + 1, d + 1);
        if (!r.isConstant())
          return r;
      }
      if (values.size() > kMaxArrayElements)
        return FoldResult::notConstant("the array literal is too large to freeze");
      return FoldResult::constant(ConstantValue::none());
    }
    FoldResult r = eval(e, d + 1);
    if (!r.isConstant())
      return r;
    if (r.value().kind == Kind::Tuple)
      return notFolded("a tuple constant inside an array literal");
    if (!r.value().isNumber())
      return notFolded("an array of " + r.value().typeDescription());
    if (dim != shape.size())
      return FoldResult::error(DiagKind::ConstantArrayNotRectangular,
                               {"expected a sequence, found a number"}, e->range);
    values.push_back(r.value());
    return FoldResult::constant(ConstantValue::none());
  };
  const ast::Expr* data = call->args[0];
  if (!data->is<ast::List>() && !data->is<ast::Tuple>())
    return notFolded("`numpy.array` of anything but a literal list");
  FoldResult flattened = flatten(data, 0, depth + 1);
  if (!flattened.isConstant())
    return flattened;
  if (!dtype) {
    // numpy's inference: the widest kind among the elements.
    bool anyStrong = false;
    ScalarKind strong = ScalarKind::Boolean;
    int weakCategory = 0; // 0 bool, 1 int, 2 float, 3 complex
    bool needsUnsigned = false;
    for (const ConstantValue& v : values) {
      int category = v.kind == Kind::Bool    ? 0
                     : v.kind == Kind::Int   ? 1
                     : v.kind == Kind::Float ? 2
                                             : 3;
      if (v.weak) {
        weakCategory = std::max(weakCategory, category);
        needsUnsigned = needsUnsigned || (v.kind == Kind::Int && v.intValue > INT64_MAX);
      } else if (!anyStrong) {
        anyStrong = true;
        strong = v.scalar;
      } else {
        FoldResult p = applyBinaryOperator(
            ast::BinOpKind::Add, castToScalar(ConstantValue::pythonInt(0), strong).value(),
            castToScalar(ConstantValue::pythonInt(0), v.scalar).value());
        if (p.isConstant())
          strong = p.value().scalar;
      }
    }
    static constexpr ScalarKind kWeakKinds[] = {ScalarKind::Boolean, ScalarKind::Int64,
                                                ScalarKind::Float64, ScalarKind::Complex128};
    ScalarKind weak =
        needsUnsigned && weakCategory == 1 ? ScalarKind::UInt64 : kWeakKinds[weakCategory];
    if (!anyStrong) {
      dtype = values.empty() ? ScalarKind::Float64 : weak;
    } else {
      ConstantValue probe = castToScalar(ConstantValue::pythonInt(0), strong).value();
      ConstantValue weakProbe = weakCategory == 0   ? ConstantValue::boolean(false)
                                : weakCategory == 1 ? ConstantValue::pythonInt(0)
                                : weakCategory == 2 ? ConstantValue::floating(0)
                                                    : ConstantValue::complex({0, 0});
      FoldResult p = applyBinaryOperator(ast::BinOpKind::Add, probe, weakProbe);
      dtype = p.isConstant() ? p.value().scalar : strong;
      if (dtype == ScalarKind::Boolean && weakCategory == 0)
        dtype = strong;
    }
  }
  auto array = std::make_shared<ConstantArray>();
  array->dtype = *dtype;
  array->shape = shape;
  for (const ConstantValue& v : values) {
    FoldResult converted = castToScalar(v, *dtype);
    if (!converted.isConstant())
      return converted;
    array->values.push_back(converted.value());
  }
  return FoldResult::constant(ConstantValue::arrayOf(std::move(array)));
}

} // namespace pyk::sema
