// ConstantFolderApiCalls: calls of imported APIs folded at compile time: numpy and numba scalar
// casts (`np.float32(x)`), the `math` module's functions (with Python's domain errors), numpy's
// scalar ufuncs, and the dispatch to numpy arrays, record dtypes and namedtuple classes.
#include "sema/ConstantFolder.h"

#include <cmath>
#include <string_view>
#include <utility>

#include "sema/ConstantFolderInternal.h"
#include "sema/ConstantOperators.h"
#include "sema/ModuleApiCatalog.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

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

} // namespace

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

} // namespace pyk::sema
