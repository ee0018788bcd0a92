// ConstantFolderApiCalls: calls of imported APIs folded at compile time: numpy and numba scalar
// casts (`np.float32(x)`), the `math` module's functions (with Python's domain errors), numpy's
// scalar ufuncs, and the dispatch to numpy arrays, record dtypes and namedtuple classes.
#include "sema/fold/ConstantFolder.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include "sema/catalog/Intrinsic.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/resolve/TypeExpressionReader.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

struct MathFunction {
  Intrinsic id;
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
    {Intrinsic::MathSqrt, sqrtFn, nonNegative},
    {Intrinsic::MathExp, expFn, anyValue},
    {Intrinsic::MathLog, logFn, positive},
    {Intrinsic::MathLog2, log2Fn, positive},
    {Intrinsic::MathLog10, log10Fn, positive},
    {Intrinsic::MathLog1p, log1pFn, aboveMinusOne},
    {Intrinsic::MathExpm1, expm1Fn, anyValue},
    {Intrinsic::MathSin, sinFn, finiteOrNan},
    {Intrinsic::MathCos, cosFn, finiteOrNan},
    {Intrinsic::MathTan, tanFn, finiteOrNan},
    {Intrinsic::MathAsin, asinFn, unitInterval},
    {Intrinsic::MathAcos, acosFn, unitInterval},
    {Intrinsic::MathAtan, atanFn, anyValue},
    {Intrinsic::MathSinh, sinhFn, anyValue},
    {Intrinsic::MathCosh, coshFn, anyValue},
    {Intrinsic::MathTanh, tanhFn, anyValue},
    {Intrinsic::MathAsinh, asinhFn, anyValue},
    {Intrinsic::MathAcosh, acoshFn, atLeastOne},
    {Intrinsic::MathAtanh, atanhFn, openUnitInterval},
    {Intrinsic::MathFabs, fabsFn, anyValue},
    {Intrinsic::MathErf, erfFn, anyValue},
    {Intrinsic::MathErfc, erfcFn, anyValue},
    {Intrinsic::MathGamma, gammaFn, gammaDomain},
    {Intrinsic::MathLgamma, lgammaFn, gammaDomain},
    {Intrinsic::MathDegrees, degrees, anyValue},
    {Intrinsic::MathRadians, radians, anyValue},
    {Intrinsic::MathCbrt, cbrtFn, anyValue},
    {Intrinsic::MathExp2, exp2Fn, anyValue},
};

// numpy's scalar functions that are the math module's.
constexpr std::pair<Intrinsic, Intrinsic> kNumpyToMath[] = {
    {Intrinsic::NumpySqrt, Intrinsic::MathSqrt},
    {Intrinsic::NumpyExp, Intrinsic::MathExp},
    {Intrinsic::NumpyLog, Intrinsic::MathLog},
    {Intrinsic::NumpyLog2, Intrinsic::MathLog2},
    {Intrinsic::NumpyLog10, Intrinsic::MathLog10},
    {Intrinsic::NumpyLog1p, Intrinsic::MathLog1p},
    {Intrinsic::NumpyExpm1, Intrinsic::MathExpm1},
    {Intrinsic::NumpySin, Intrinsic::MathSin},
    {Intrinsic::NumpyCos, Intrinsic::MathCos},
    {Intrinsic::NumpyTan, Intrinsic::MathTan},
    {Intrinsic::NumpyArcsin, Intrinsic::MathAsin},
    {Intrinsic::NumpyArccos, Intrinsic::MathAcos},
    {Intrinsic::NumpyArctan, Intrinsic::MathAtan},
    {Intrinsic::NumpySinh, Intrinsic::MathSinh},
    {Intrinsic::NumpyCosh, Intrinsic::MathCosh},
    {Intrinsic::NumpyTanh, Intrinsic::MathTanh},
    {Intrinsic::NumpyArcsinh, Intrinsic::MathAsinh},
    {Intrinsic::NumpyArccosh, Intrinsic::MathAcosh},
    {Intrinsic::NumpyArctanh, Intrinsic::MathAtanh},
    {Intrinsic::NumpyFabs, Intrinsic::MathFabs},
    {Intrinsic::NumpyDegrees, Intrinsic::MathDegrees},
    {Intrinsic::NumpyRadians, Intrinsic::MathRadians},
    {Intrinsic::NumpyRad2deg, Intrinsic::MathDegrees},
    {Intrinsic::NumpyDeg2rad, Intrinsic::MathRadians},
    {Intrinsic::NumpyCbrt, Intrinsic::MathCbrt},
    {Intrinsic::NumpyExp2, Intrinsic::MathExp2}};

const MathFunction* mathFunctionOf(Intrinsic id) {
  for (const MathFunction& f : kMathFunctions)
    if (f.id == id)
      return &f;
  return nullptr;
}

// Python's math functions of two reals that fold to a float (log with a base, gcd apart).
std::optional<FoldResult> foldMathBinary(Intrinsic id, double x, double y) {
  switch (id) {
  case Intrinsic::MathPow:
    return FoldResult::constant(ConstantValue::floating(std::pow(x, y)));
  case Intrinsic::MathAtan2:
    return FoldResult::constant(ConstantValue::floating(std::atan2(x, y)));
  case Intrinsic::MathHypot:
    return FoldResult::constant(ConstantValue::floating(std::hypot(x, y)));
  case Intrinsic::MathCopysign:
    return FoldResult::constant(ConstantValue::floating(std::copysign(x, y)));
  case Intrinsic::MathFmod:
    if (y == 0)
      return invalid("math domain error in `math.fmod`");
    return FoldResult::constant(ConstantValue::floating(std::fmod(x, y)));
  default:
    return std::nullopt;
  }
}

} // namespace

FoldResult ConstantFolder::evalApiCall(const std::string& q, const ast::Call* call, int depth) {
  const ApiEntity* entity = findApi(q);
  const HostCall host = entity != nullptr ? entity->hostCall : HostCall::None;
  if (host == HostCall::NumpyArray)
    return evalNumpyArray(call, depth);
  if (host == HostCall::NumpyZeros || host == HostCall::NumpyOnes || host == HostCall::NumpyFull ||
      host == HostCall::NumpyArange || host == HostCall::NumpyLinspace ||
      host == HostCall::NumpyLayoutCopy)
    return evalNumpyConstructor(host, call, depth);
  if (q == "collections.namedtuple")
    return evalNamedTupleClass(call, depth);
  if (host == HostCall::DeclareDevice)
    return evalDeclareDevice(call, depth);
  if (host == HostCall::LinkableCode)
    return evalLinkableCode(q, call, depth);
  if (host == HostCall::NumpyDtype && call->args.size() == 1)
    return evalRecordDtype(call, depth);
  if (host == HostCall::NumbaFromDtype && call->args.size() == 1 && call->keywords.empty()) {
    // numba's type for a dtype: a record stays the record; a scalar dtype its scalar.
    FoldResult d = eval(call->args[0], depth + 1);
    if (!d.isConstant())
      return d;
    if (d.value().kind == Kind::Type)
      return d;
    return invalid("`numba.from_dtype` needs a numpy dtype");
  }
  if (!call->keywords.empty())
    return notFolded("a call of `" + q + "` with keyword arguments");
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  if (entity != nullptr && entity->kind == ApiKind::Type && entity->type.isScalar()) {
    ScalarKind target = entity->type.scalarKind();
    if (args.empty())
      return castToScalar(ConstantValue::pythonInt(0), target);
    if (args.size() == 1)
      return castToScalar(args[0], target);
    return notFolded("a call of `" + q + "` with several arguments");
  }
  const Intrinsic id = intrinsicNamed(q);
  if (id == Intrinsic::None)
    return notFolded("a call of `" + q + "`");
  const std::string name(intrinsicInfo(id).name);
  if (moduleOf(id) == IntrinsicModule::Math) {
    if (args.size() == 1 && isReal(args[0])) {
      double x = asDouble(args[0]);
      if (id == Intrinsic::MathFloor || id == Intrinsic::MathCeil || id == Intrinsic::MathTrunc) {
        if (isIntegral(args[0]))
          return FoldResult::constant(ConstantValue::pythonInt(asInt(args[0])));
        double r = id == Intrinsic::MathFloor  ? std::floor(x)
                   : id == Intrinsic::MathCeil ? std::ceil(x)
                                               : std::trunc(x);
        return floatToInt(r, name.c_str());
      }
      if (id == Intrinsic::MathIsnan || id == Intrinsic::MathIsinf ||
          id == Intrinsic::MathIsfinite) {
        bool r = id == Intrinsic::MathIsnan   ? std::isnan(x)
                 : id == Intrinsic::MathIsinf ? std::isinf(x)
                                              : std::isfinite(x);
        return FoldResult::constant(ConstantValue::boolean(r));
      }
      if (const MathFunction* f = mathFunctionOf(id)) {
        if (!f->inDomain(x))
          return invalid("math domain error in `" + name + "`");
        return FoldResult::constant(ConstantValue::floating(f->fn(x)));
      }
    }
    if (args.size() == 2 && isReal(args[0]) && isReal(args[1])) {
      double x = asDouble(args[0]), y = asDouble(args[1]);
      if (id == Intrinsic::MathLog) {
        if (!(x > 0) || !(y > 0))
          return invalid("math domain error in `math.log`");
        if (y == 1)
          return FoldResult::error(DiagKind::ConstantDivisionByZero,
                                   {"`math.log` with base 1: division"});
        return FoldResult::constant(ConstantValue::floating(std::log(x) / std::log(y)));
      }
      if (std::optional<FoldResult> folded = foldMathBinary(id, x, y))
        return *folded;
      if (id == Intrinsic::MathGcd && isIntegral(args[0]) && isIntegral(args[1])) {
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
    return notFolded("this call of `" + name + "`");
  }
  if (moduleOf(id) == IntrinsicModule::Numpy && args.size() == 1 && isReal(args[0])) {
    // Scalar ufuncs: the result is a numpy float (float32 stays float32), nan off the domain.
    const ConstantValue& x = args[0];
    ScalarKind type = x.kind == Kind::Float && !x.weak ? x.scalar : ScalarKind::Float64;
    double v = asDouble(x);
    auto result = [&](double r) {
      return FoldResult::constant(ConstantValue::floating(roundToFloat(r, type), type, false));
    };
    switch (id) {
    case Intrinsic::NumpyFloor:
      return result(std::floor(v));
    case Intrinsic::NumpyCeil:
      return result(std::ceil(v));
    case Intrinsic::NumpyTrunc:
      return result(std::trunc(v));
    case Intrinsic::NumpyRint:
      return result(std::nearbyint(v));
    case Intrinsic::NumpySquare:
      return result(v * v);
    case Intrinsic::NumpyAbs:
    case Intrinsic::NumpyAbsolute:
      if (x.kind == Kind::Float)
        return result(std::fabs(v));
      break;
    default:
      break;
    }
    for (const auto& [numpyFunction, mathFunction] : kNumpyToMath) {
      if (id == numpyFunction) {
        const MathFunction* f = mathFunctionOf(mathFunction);
        return result(f->inDomain(v) ? f->fn(v) : std::nan(""));
      }
    }
  }
  return notFolded("a call of `" + q + "`");
}

} // namespace pyk::sema

namespace pyk::sema {

FoldResult ConstantFolder::evalDeclareDevice(const ast::Call* call, int depth) {
  // numba-cuda's parameters: declare_device(name, sig, link=None, use_cooperative=False,
  // abi="numba"); numba 0.56 has the first two.
  const ast::Expr* given[5] = {};
  static const char* const kNames[5] = {"name", "sig", "link", "use_cooperative", "abi"};
  if (call->args.size() > 5)
    return invalid("`cuda.declare_device` takes a name, a signature, link=, use_cooperative= and "
                   "abi=");
  for (size_t i = 0; i < call->args.size(); ++i)
    given[i] = call->args[i];
  for (const ast::Keyword& k : call->keywords) {
    const auto* at = std::find(std::begin(kNames), std::end(kNames), k.arg);
    if (at == std::end(kNames))
      return invalid("`cuda.declare_device` has no parameter `" + k.arg + "`");
    given[at - std::begin(kNames)] = k.value;
  }
  if (given[0] == nullptr || given[1] == nullptr)
    return invalid("`cuda.declare_device` needs the function's name and its signature");
  std::string parts[2];
  for (int i = 0; i < 2; ++i) {
    // A signature written with numba's type objects (`types.void(types.CPointer(types.int32))`),
    // kept as the signature string that spells it.
    if (i == 1)
      if (std::optional<FunctionSignature> sig = readSignatureExpression(given[1], symbols_)) {
        parts[1] = sig->spelling();
        continue;
      }
    FoldResult r = eval(given[i], depth + 1);
    if (!r.isConstant())
      return r;
    if (r.value().kind != Kind::Str)
      return notFolded(i == 0 ? "a function name that is not a string"
                              : "a signature that is not a string (write it as numba's signature "
                                "string, 'float32(float32, float32)')");
    parts[i] = r.value().strValue;
  }
  std::vector<std::string> links;
  std::vector<types::LinkedSource> inMemory; // cuda.CUSource objects
  if (given[2] != nullptr) {
    // A list or set written out is taken as the tuple of its items (numba-cuda takes any).
    FoldResult r = FoldResult::constant(ConstantValue::none());
    if (const std::vector<ast::Expr*>* items = ast::tupleOrListElements(given[2])) {
      std::vector<ConstantValue> values;
      for (const ast::Expr* item : *items) {
        FoldResult v = eval(item, depth + 1);
        if (!v.isConstant())
          return v;
        values.push_back(v.value());
      }
      r = FoldResult::constant(ConstantValue::tuple(std::move(values)));
    } else {
      r = eval(given[2], depth + 1);
    }
    if (!r.isConstant())
      return r;
    if (r.value().kind != Kind::None)
      if (std::optional<std::string> why = ConstantValue::linkEntries(r.value(), links, inMemory))
        return invalid("`link=` of `cuda.declare_device` must be " + *why);
  }
  std::string abi = "numba";
  if (given[4] != nullptr) {
    FoldResult r = eval(given[4], depth + 1);
    if (!r.isConstant())
      return r;
    if (r.value().kind != Kind::Str || (r.value().strValue != "numba" && r.value().strValue != "c"))
      return invalid("`abi=` of `cuda.declare_device` is 'numba' or 'c'");
    abi = r.value().strValue;
  }
  return FoldResult::constant(
      ConstantValue::foreignFunction(parts[0], parts[1], std::move(links), abi, inMemory));
}

FoldResult ConstantFolder::evalLinkableCode(const std::string& q, const ast::Call* call,
                                            int depth) {
  // numba-cuda's LinkableCode(data, name=None, setup_callback=None, teardown_callback=None,
  // nrt=False): the class's kind, the data as text, the name numba-cuda gives it.
  const std::string cls = q.substr(q.rfind('.') + 1);
  const types::LinkedCodeKindInfo* info =
      types::findLinkedCodeKind(&types::LinkedCodeKindInfo::numbaClass, cls);
  const std::string kind(info != nullptr ? info->numbaKind : "cu");
  const ast::Expr* given[2] = {};
  if (call->args.size() > 2)
    return invalid("`cuda." + cls + "` takes the code and name=");
  for (size_t i = 0; i < call->args.size(); ++i)
    given[i] = call->args[i];
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg == "data" || k.arg == "name")
      given[k.arg == "name"] = k.value;
    else if (k.arg == "setup_callback" || k.arg == "teardown_callback" || k.arg == "nrt")
      return notFolded("`" + k.arg + "=` of `cuda." + cls +
                       "` (pyk calls no Python around a launch and links no NRT)");
    else
      return invalid("`cuda." + cls + "` has no parameter `" + k.arg + "`");
  }
  if (given[0] == nullptr)
    return invalid("`cuda." + cls + "` needs the code to link");
  std::string text[2] = {"", "<unnamed-" + kind + ">"};
  for (int i = 0; i < 2; ++i) {
    if (given[i] == nullptr)
      continue;
    // The code as bytes (a CUBIN's, written out: `cuda.Cubin(b"\x7fELF...")`).
    if (const auto* literal = given[i]->as<ast::Constant>();
        i == 0 && literal != nullptr && literal->valueKind == ast::ConstantKind::Bytes) {
      text[0] = literal->strValue;
      continue;
    }
    FoldResult r = eval(given[i], depth + 1);
    if (!r.isConstant())
      return r;
    if (i == 1 && r.value().kind == Kind::None)
      continue;
    if (r.value().kind != Kind::Str)
      return notFolded(i == 0 ? "code to link that is not a string literal"
                              : "a name that is not a string");
    text[i] = r.value().strValue;
  }
  return FoldResult::constant(ConstantValue::linkableCode(kind, text[1], text[0]));
}

} // namespace pyk::sema
