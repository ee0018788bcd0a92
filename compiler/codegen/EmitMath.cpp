// EmitMath: math, cmath and the numeric builtins as C++ — libm in the precision numba computes in
// (arguments converted as numba converts them; integers through float64), tuple results (frexp,
// modf, divmod), pyk_support.h's Python rounding, min/max/abs and complex functions — and
// numba.cuda's bit and float intrinsics (popc, clz, ffs, brev, fma, cbrt, selp, cuda.fp16.*).
#include "codegen/UnitEmitter.h"
#include "sema/TypeRules.h"

namespace pyk::codegen {

using sema::Intrinsic;
using sema::IntrinsicTyping;

std::string UnitEmitter::bitOrFloatIntrinsic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                             const NumbaType& t) {
  // The arguments converted to numba's chosen case (brev(int64) is brev(uint32), ...).
  std::vector<ScalarKind> kinds;
  for (size_t i = 0; i < c->args.size(); ++i)
    kinds.push_back(argType(c, i).scalarKind());
  const std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(info.id, kinds);
  if (!converted) {
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
  switch (info.typing) {
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse: {
    // popc and clz count in the operand's own width (llvm.ctpop / llvm.ctlz on an i8 or i16):
    // a narrow operand is zero-extended and clz discounts the bits it added.
    const ScalarKind k = (*converted)[0];
    const int width = sema::bitWidth(k);
    std::string value = castScalar(c->args[0], k);
    if (width < 32)
      value = "static_cast<pyk::uint32>(static_cast<pyk::uint" + std::to_string(width) + ">(" +
              value + "))";
    std::string result = target_.bitOperation(info.id, width == 64, value);
    if (info.id == Intrinsic::Clz && width < 32)
      result = "(" + result + " - " + std::to_string(32 - width) + ")";
    return "static_cast<" + type(t) + ">(" + result + ")";
  }
  case IntrinsicTyping::SameFloat: { // fma, cbrt
    const bool f32 = (*converted)[0] == ScalarKind::Float32;
    std::string out = spelled(info.id) + (f32 ? "f(" : "(");
    for (size_t i = 0; i < c->args.size(); ++i)
      out += (i ? ", " : "") + castScalar(c->args[i], (*converted)[i]);
    return out + ")";
  }
  case IntrinsicTyping::Select:
    return "(" + truthy(c->args[0]) + " ? " + castTo(c->args[1], t) + " : " +
           castTo(c->args[2], t) + ")";
  case IntrinsicTyping::Half: // cuda.fp16: every argument converted to float16 first
  case IntrinsicTyping::HalfPredicate: {
    std::string out = spelled(info.id) + "(";
    for (size_t i = 0; i < c->args.size(); ++i)
      out += (i ? ", " : "") + castScalar(c->args[i], ScalarKind::Float16);
    return out + ")";
  }
  default:
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
}

std::string UnitEmitter::cmathCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                   const NumbaType& t) {
  // The arguments converted to the types of numba's chosen case (a float64 to complex128, ...).
  std::vector<ScalarKind> kinds;
  for (size_t i = 0; i < c->args.size(); ++i)
    kinds.push_back(argType(c, i).scalarKind());
  const std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(info.id, kinds);
  if (!converted) {
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
  std::vector<std::string> a;
  for (size_t i = 0; i < c->args.size(); ++i)
    a.push_back(castScalar(c->args[i], (*converted)[i]));
  if (info.id == Intrinsic::CmathPolar) // (abs(z), phase(z)), z evaluated once
    return "[&] { const auto w = " + a[0] + "; return " + type(t) +
           "{{pyk::abs(w), pyk::cphase(w)}}; }()";
  std::string out = spelled(info.id) + "(";
  for (size_t i = 0; i < a.size(); ++i)
    out += (i ? ", " : "") + a[i];
  return out + ")";
}

std::string UnitEmitter::libdeviceCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                       const NumbaType& t) {
  const sema::LibdeviceSignature* signature = sema::libdeviceSignature(info.id);
  std::vector<ScalarKind> kinds;
  for (size_t i = 0; i < c->args.size(); ++i)
    kinds.push_back(argType(c, i).scalarKind());
  const std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(info.id, kinds);
  if (signature == nullptr || !converted) {
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
  std::string args;
  for (size_t i = 0; i < c->args.size(); ++i)
    args += (i ? ", " : "") + castScalar(c->args[i], (*converted)[i]);
  if (signature->outputs.empty())
    return spelled(info.id) + "(" + args + ")";
  // The outputs in locals whose addresses follow the values; the tuple of the return value (if
  // any) and the outputs, built once the call has written them.
  std::string out = "[&] { ";
  std::vector<std::string> elements;
  if (signature->result != 'v')
    elements.push_back("result");
  for (size_t i = 0; i < signature->outputs.size(); ++i) {
    const std::string name = "output" + std::to_string(i);
    const NumbaType element = t.elements()[elements.size()];
    out += type(element) + " " + name + "{}; ";
    args += (args.empty() ? "&" : ", &") + name;
    elements.push_back(name);
  }
  out += (signature->result != 'v' ? "const auto result = " : "") + spelled(info.id) + "(" + args +
         "); return " + tupleValue(t, elements) + "; }()";
  return out;
}

std::string UnitEmitter::mathCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                  const NumbaType& t) {
  if (info.typing == IntrinsicTyping::OperatorFunction) { // the operator it is
    const sema::OperatorOf op = sema::operatorOf(info.id);
    if (op.binary)
      return binary(*op.binary, c->args[0], c->args[1], t, c->range);
    if (op.comparison)
      return comparison(*op.comparison, c->args[0], c->args[1], c->range);
    return unary(*op.unary, c->args[0], &t);
  }
  const std::string name(info.name);
  // Arguments converted as numba converts them.
  std::vector<ScalarKind> kinds;
  for (size_t i = 0; i < c->args.size(); ++i) {
    const NumbaType a = argType(c, i);
    if (!a.isScalar()) {
      unsupported(c->range, "`" + name + "` of `" + a.str() + "`");
      return "0";
    }
    kinds.push_back(a.scalarKind());
  }
  std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(info.id, kinds);
  if (!converted) {
    unsupported(c->range, "`" + name + "`");
    return "0";
  }
  std::vector<std::string> a;
  for (size_t i = 0; i < c->args.size(); ++i)
    a.push_back(castScalar(c->args[i], (*converted)[i]));
  const bool f32 = !converted->empty() && (*converted)[0] == ScalarKind::Float32;
  const NumbaType computed = NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64);
  const std::string f = f32 ? "f" : "";
  // numba's integer overloads of libm functions compute in float64 (math.sqrt(int) is float64).
  auto libm = [&](const std::string& function) {
    std::string out = function + f + "(";
    for (size_t i = 0; i < a.size(); ++i) {
      ScalarKind k = (*converted)[i];
      bool integral = sema::isInteger(k) || k == ScalarKind::Boolean;
      out += (i ? ", " : "") + (integral ? "static_cast<pyk::float64>(" + a[i] + ")" : a[i]);
    }
    return cast(out + ")", computed, t);
  };
  switch (info.id) {
  // Tuple results, built by a lambda so each argument is evaluated once.
  case Intrinsic::MathFrexp:
    return "[&] { int e = 0; const auto m = " + spelled(info.id) + f + "(" + a[0] +
           ", &e); return " + type(t) + "{m, static_cast<pyk::int32>(e)}; }()";
  case Intrinsic::MathModf:
    return "[&] { " + type(computed) + " whole{}; const auto part = " + spelled(info.id) + f + "(" +
           a[0] + ", &whole); return " + type(t) + "{{part, whole}}; }()";
  case Intrinsic::Divmod:
    return "[&] { const auto x = " + a[0] + "; const auto y = " + a[1] + "; return " + type(t) +
           "{{pyk::floordiv(x, y), pyk::mod(x, y)}}; }()";
  case Intrinsic::MathLog:
    if (a.size() == 1)
      return libm(spelled(info.id));
    return cast("(" + spelled(info.id) + f + "(" + a[0] + ") / " + spelled(info.id) + f + "(" +
                    a[1] + "))",
                computed, t);
  case Intrinsic::MathIsnan:
  case Intrinsic::MathIsinf:
  case Intrinsic::MathIsfinite:
    // numba's math_isinf_isnan_int / math_isfinite_int: an integer is never inf or NaN.
    if (sema::isInteger((*converted)[0]))
      return "(static_cast<void>(" + a[0] + "), " +
             (info.id == Intrinsic::MathIsfinite ? "true" : "false") + ")";
    return "static_cast<bool>(" + spelled(info.id) + "(" + a[0] + "))";
  case Intrinsic::MathDegrees:
    return cast("(" + a[0] + " * " + (f32 ? "57.29577951308232f" : "57.29577951308232") + ")",
                computed, t);
  case Intrinsic::MathRadians:
    return cast("(" + a[0] + " * " + (f32 ? "0.017453292519943295f" : "0.017453292519943295") + ")",
                computed, t);
  case Intrinsic::MathLdexp:
    return cast(spelled(info.id) + f + "(" + a[0] + ", " + a[1] + ")", computed, t);
  // The numeric builtins.
  case Intrinsic::Abs:
    return spelled(info.id) + "(" + a[0] + ")";
  case Intrinsic::Min:
  case Intrinsic::Max: {
    if (a.size() < 2)
      break;
    // float16 is compared in float32, which holds each value exactly (numba 0.56 types min and
    // max of float16 but cannot lower the comparison; pyk gives Python's answer).
    const bool half = (*converted)[0] == ScalarKind::Float16;
    const NumbaType compared = NumbaType::scalar(half ? ScalarKind::Float32 : (*converted)[0]);
    auto operand = [&](size_t i) {
      return half ? castScalar(c->args[i], ScalarKind::Float32) : a[i];
    };
    std::string out = operand(0);
    for (size_t i = 1; i < a.size(); ++i)
      out = spelled(info.id) + "(" + out + ", " + operand(i) + ")";
    return cast(out, compared, t);
  }
  case Intrinsic::Round:
    return a.size() == 1 ? "pyk::round_half_even(" + a[0] + ")"
                         : "pyk::round_ndigits(" + a[0] + ", " + a[1] + ")";
  case Intrinsic::Int:
  case Intrinsic::Float:
    return cast(a[0], NumbaType::scalar((*converted)[0]), t);
  case Intrinsic::Bool:
    return cast(a[0], NumbaType::scalar((*converted)[0]), NumbaType::scalar(ScalarKind::Boolean));
  case Intrinsic::Complex: {
    if (!t.isScalar())
      break;
    if (a.size() == 1)
      return cast(a[0], NumbaType::scalar((*converted)[0]), t);
    const std::string part =
        t.scalarKind() == ScalarKind::Complex64 ? "pyk::float32" : "pyk::float64";
    return type(t) + "(static_cast<" + part + ">(" + a[0] + "), static_cast<" + part + ">(" + a[1] +
           "))";
  }
  case Intrinsic::Pow: // pow(a, b) is `a ** b` (numba's PowerBuiltin is BinOpPower)
    return binary(ast::BinOpKind::Pow, c->args[0], c->args[1], t, c->range);
  default:
    break;
  }
  // libm by its name in the precision of the arguments: math.sin, math.atan2, math.pow, ...
  switch (info.typing) {
  case IntrinsicTyping::MathUnary:
  case IntrinsicTyping::MathAtan2:
  case IntrinsicTyping::MathBinary:
  case IntrinsicTyping::MathPow:
    if (!spelled(info.id).empty())
      return libm(spelled(info.id));
    break;
  default:
    break;
  }
  unsupported(c->range, "`" + name + "`");
  return "0";
}

} // namespace pyk::codegen
