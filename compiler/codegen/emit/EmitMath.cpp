// EmitMath: math, cmath and the numeric builtins as C++ — libm in the precision numba computes in
// (the arguments already converted as numba converts them; integers through float64), tuple
// results (frexp, modf, divmod), pyk_support.h's Python rounding, min/max/abs and complex
// functions — and numba.cuda's bit and float intrinsics (popc, clz, ffs, brev, fma, cbrt,
// cuda.fp16.*). The conversion of a result to numba's result type is the IR's cast around it.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;
using sema::IntrinsicTyping;

namespace {

// The arguments of a call, emitted in order.
std::vector<std::string> emitted(const ir::IntrinsicCall* c,
                                 const std::function<std::string(const ir::Expr*)>& expr) {
  std::vector<std::string> out;
  for (const ir::Expr* a : c->args)
    out.push_back(expr(a));
  return out;
}

} // namespace

std::string UnitEmitter::bitOrFloatIntrinsic(const ir::IntrinsicCall* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(c->intrinsic);
  switch (info.typing) {
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse: {
    // popc and clz count in the operand's own width (llvm.ctpop / llvm.ctlz on an i8 or i16):
    // a narrow operand is zero-extended and clz discounts the bits it added.
    const int width = types::bitWidth(c->args[0]->type.scalarKind());
    std::string value = expr(c->args[0]);
    if (width < 32)
      value = "static_cast<pyk::uint32>(static_cast<pyk::uint" + std::to_string(width) + ">(" +
              value + "))";
    std::string result = target_.bitOperation(c->intrinsic, width == 64, value);
    if (c->intrinsic == Intrinsic::Clz && width < 32)
      result = "(" + result + " - " + std::to_string(32 - width) + ")";
    return "static_cast<" + type(c->type) + ">(" + result + ")";
  }
  case IntrinsicTyping::SameFloat: { // fma, cbrt
    const bool f32 = c->args[0]->type.scalarKind() == ScalarKind::Float32;
    std::string out = spelled(c->intrinsic) + (f32 ? "f(" : "(");
    for (size_t i = 0; i < c->args.size(); ++i)
      out += (i ? ", " : "") + expr(c->args[i]);
    return out + ")";
  }
  case IntrinsicTyping::Half: // cuda.fp16: every argument a float16
  case IntrinsicTyping::HalfPredicate: {
    std::string out = spelled(c->intrinsic) + "(";
    for (size_t i = 0; i < c->args.size(); ++i)
      out += (i ? ", " : "") + expr(c->args[i]);
    return out + ")";
  }
  default:
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
}

std::string UnitEmitter::cmathCall(const ir::IntrinsicCall* c) {
  const std::vector<std::string> a = emitted(c, [&](const ir::Expr* e) { return expr(e); });
  if (c->intrinsic == Intrinsic::CmathPolar) // (abs(z), phase(z)), z evaluated once
    return "[&] { const auto w = " + a[0] + "; return " + type(c->type) +
           "{{pyk::abs(w), pyk::cphase(w)}}; }()";
  std::string out = spelled(c->intrinsic) + "(";
  for (size_t i = 0; i < a.size(); ++i)
    out += (i ? ", " : "") + a[i];
  return out + ")";
}

std::string UnitEmitter::libdeviceCall(const ir::IntrinsicCall* c) {
  const sema::LibdeviceSignature* signature = sema::libdeviceSignature(c->intrinsic);
  const NumbaType& t = c->type;
  std::string args;
  for (size_t i = 0; i < c->args.size(); ++i)
    args += (i ? ", " : "") + expr(c->args[i]);
  if (signature->outputs.empty())
    return spelled(c->intrinsic) + "(" + args + ")";
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
  out += (signature->result != 'v' ? "const auto result = " : "") + spelled(c->intrinsic) + "(" +
         args + "); return " + tupleValue(t, elements) + "; }()";
  return out;
}

std::string UnitEmitter::mathCall(const ir::IntrinsicCall* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(c->intrinsic);
  const NumbaType& t = c->type;
  const std::vector<std::string> a = emitted(c, [&](const ir::Expr* e) { return expr(e); });
  const bool f32 = !c->args.empty() && c->args[0]->type.scalarKind() == ScalarKind::Float32;
  const NumbaType computed = NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64);
  const std::string f = f32 ? "f" : "";
  // numba's integer cases of libm functions compute in float64 (math.sqrt(int) is float64).
  auto libm = [&](const std::string& function) {
    std::string out = function + f + "(";
    for (size_t i = 0; i < a.size(); ++i) {
      const ScalarKind k = c->args[i]->type.scalarKind();
      const bool integral = types::isInteger(k) || k == ScalarKind::Boolean;
      out += (i ? ", " : "") + (integral ? "static_cast<pyk::float64>(" + a[i] + ")" : a[i]);
    }
    return out + ")";
  };
  switch (c->intrinsic) {
  // Tuple results, built by a lambda so each argument is evaluated once.
  case Intrinsic::MathFrexp:
    return "[&] { int e = 0; const auto m = " + spelled(c->intrinsic) + f + "(" + a[0] +
           ", &e); return " + type(t) + "{m, static_cast<pyk::int32>(e)}; }()";
  case Intrinsic::MathModf: {
    const std::string tuple = type(t);
    return "[&] { " + type(computed) + " whole{}; const auto part = " + spelled(c->intrinsic) + f +
           "(" + a[0] + ", &whole); return " + tuple + "{{part, whole}}; }()";
  }
  case Intrinsic::Divmod:
    return "[&] { const auto x = " + a[0] + "; const auto y = " + a[1] + "; return " + type(t) +
           "{{pyk::floordiv(x, y), pyk::mod(x, y)}}; }()";
  case Intrinsic::MathLog: // in `computed`: the IR converts it
    if (a.size() == 1)
      return libm(spelled(c->intrinsic));
    return "(" + spelled(c->intrinsic) + f + "(" + a[0] + ") / " + spelled(c->intrinsic) + f + "(" +
           a[1] + "))";
  case Intrinsic::MathIsnan:
  case Intrinsic::MathIsinf:
  case Intrinsic::MathIsfinite:
    // numba's math_isinf_isnan_int / math_isfinite_int: an integer is never inf or NaN.
    if (types::isInteger(c->args[0]->type.scalarKind()))
      return "(static_cast<void>(" + a[0] + "), " +
             (c->intrinsic == Intrinsic::MathIsfinite ? "true" : "false") + ")";
    return "static_cast<bool>(" + spelled(c->intrinsic) + "(" + a[0] + "))";
  case Intrinsic::MathDegrees:
    return "(" + a[0] + " * " + (f32 ? "57.29577951308232f" : "57.29577951308232") + ")";
  case Intrinsic::MathRadians:
    return "(" + a[0] + " * " + (f32 ? "0.017453292519943295f" : "0.017453292519943295") + ")";
  case Intrinsic::MathLdexp:
    return spelled(c->intrinsic) + f + "(" + a[0] + ", " + a[1] + ")";
  // The numeric builtins.
  case Intrinsic::Abs:
    return spelled(c->intrinsic) + "(" + a[0] + ")";
  case Intrinsic::Min:
  case Intrinsic::Max: { // in the type compared in (float16 in float32): the IR converts it
    std::string out = a[0];
    for (size_t i = 1; i < a.size(); ++i)
      out = spelled(c->intrinsic) + "(" + out + ", " + a[i] + ")";
    return out;
  }
  case Intrinsic::Sum: { // the start converted to the accumulator's type by the IR
    const std::string acc = type(t);
    const std::string start = a.size() > 1 ? a[1] : "static_cast<" + acc + ">(0)";
    const NumbaType& iterable = c->args[0]->type;
    if (iterable.isArray())
      return spelled(c->intrinsic) + "<" + acc + ">(" + a[0] + ", " + start + ")";
    // A tuple, evaluated once: each element converted to the accumulator's type and added in
    // order (the accumulator's type is each sum's, typing found).
    std::string sum = start;
    for (size_t i = 0; i < iterable.elements().size(); ++i)
      sum =
          "(" + sum + " + static_cast<" + acc + ">(" + element(iterable, "pyk_sum_items", i) + "))";
    return "[&] { const auto pyk_sum_items = " + a[0] + "; return " + sum + "; }()";
  }
  case Intrinsic::Round:
    return a.size() == 1 ? "pyk::round_half_even(" + a[0] + ")"
                         : "pyk::round_ndigits(" + a[0] + ", " + a[1] + ")";
  case Intrinsic::Complex: { // complex(real, imag); complex(x) is a cast
    const std::string part =
        t.scalarKind() == ScalarKind::Complex64 ? "pyk::float32" : "pyk::float64";
    return type(t) + "(static_cast<" + part + ">(" + a[0] + "), static_cast<" + part + ">(" + a[1] +
           "))";
  }
  default:
    break;
  }
  // libm by its name in the precision of the arguments: math.sin, math.atan2, math.pow, ...
  switch (info.typing) {
  case IntrinsicTyping::MathUnary:
  case IntrinsicTyping::MathAtan2:
  case IntrinsicTyping::MathBinary:
  case IntrinsicTyping::MathPow:
    return libm(spelled(c->intrinsic));
  default:
    break;
  }
  unsupported(c->range, "`" + std::string(info.name) + "`");
  return "0";
}

} // namespace pyk::codegen
