// LowerIntrinsics: the calls of numba's intrinsics as IR, by family — thread-model values and
// calls, the arrays a kernel makes, atomics, warp operations, bit and float intrinsics, math,
// cmath, vector constructors, libdevice — each argument converted as numba converts it for the
// case it chose (TypeRules' callArgumentTypes), the result computed in the type the backends
// compute it in and then converted to numba's result type.
#include "lower/FunctionLowering.h"
#include "sema/typing/TypeRules.h"

namespace pyk::lower {

using sema::Intrinsic;
using sema::IntrinsicTyping;

ir::Expr* FunctionLowering::intrinsicValue(Intrinsic id, const ast::Expr* at, const NumbaType* t) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(id);
  NumbaType type;
  if (info.typing == IntrinsicTyping::Int32Value)
    type = NumbaType::scalar(ScalarKind::Int32);
  else if (info.typing == IntrinsicTyping::Float64Constant)
    type = NumbaType::scalar(ScalarKind::Float64);
  else {
    unsupported(at->range, "`" + std::string(info.name) + "` as a value");
    return nullptr;
  }
  auto* out = makeExpr<ir::IntrinsicValue>(at->range, t != nullptr ? *t : type);
  out->intrinsic = id;
  return out;
}

ir::Expr* FunctionLowering::threadModelCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                            const NumbaType& t) {
  switch (info.id) {
  case Intrinsic::SyncthreadsCount:
  case Intrinsic::SyncthreadsAnd:
  case Intrinsic::SyncthreadsOr:
    return intrinsic(info.id, c, t, {condition(c->args[0])});
  case Intrinsic::Syncwarp: // the mask, all lanes when absent
    if (c->args.empty())
      return intrinsic(info.id, c, t, {});
    return intrinsic(info.id, c, t, {exprAs(c->args[0], ScalarKind::UInt32)});
  case Intrinsic::Nanosleep: // numba-cuda's signature: void(uint32)
    return intrinsic(info.id, c, t, {exprAs(c->args[0], ScalarKind::UInt32)});
  default: // cuda.grid, gridsize (the rank is in the type), this_grid, syncthreads, the fences
    return intrinsic(info.id, c, t, {});
  }
}

ir::Expr* FunctionLowering::arrayConstructor(const sema::IntrinsicInfo& info, const ast::Call* c,
                                             const NumbaType* t) {
  if (info.id == Intrinsic::ConstArrayLike) {
    if (t == nullptr) {
      unsupported(c->range, "this array");
      return nullptr;
    }
    return expr(c->args[0]); // the frozen module array, already a constant view
  }
  const bool shared = info.id == Intrinsic::SharedArray;
  const ast::Expr* shapeArg = c->args.empty() ? nullptr : c->args[0];
  const ast::Expr* alignmentArg = c->args.size() > 2 ? c->args[2] : nullptr;
  for (const ast::Keyword& k : c->keywords) {
    if (k.arg == "shape")
      shapeArg = k.value;
    else if (k.arg == "alignment")
      alignmentArg = k.value;
  }
  const std::vector<int64_t> shape = shapeArg ? constantShape(shapeArg) : std::vector<int64_t>{};
  if (t == nullptr || shape.empty()) {
    unsupported(c->range, "this array");
    return nullptr;
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (count == 0 && !shared) {
    unsupported(c->range, "a local array of size 0");
    return nullptr;
  }
  // Shared of size 0: the launch's dynamic shared memory.
  auto* out = makeExpr<ir::ArrayAllocation>(c->range, *t);
  out->intrinsic = info.id;
  out->shape = shape;
  // Typing checked it: None (no element of the folded shape), or a power of 2.
  const std::vector<int64_t> alignment =
      alignmentArg != nullptr ? constantShape(alignmentArg) : std::vector<int64_t>{};
  out->alignment = alignment.size() == 1 ? alignment[0] : 0;
  return out;
}

ir::Expr* FunctionLowering::atomic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                   const NumbaType& t) {
  const NumbaType array = argType(c, 0);
  if (!array.isArray() && !array.isPointer()) { // a CPointer: the cache hints'
    unsupported(c->range, "this atomic");
    return nullptr;
  }
  const NumbaType elem = NumbaType::scalar(array.scalarKind());
  std::vector<ir::Expr*> args{expr(c->args[0])};
  size_t valueAt = 2;
  if (info.id == Intrinsic::AtomicCompareAndSwap) {
    valueAt = 1; // element 0
  } else if (argType(c, 1).isTuple()) {
    args.push_back(expr(c->args[1])); // each index converted to intp by code generation
  } else {
    args.push_back(exprAs(c->args[1], ScalarKind::Int64)); // an intp, as numba's lowering has it
  }
  for (size_t i = valueAt; i < c->args.size(); ++i)
    args.push_back(exprAs(c->args[i], elem));
  return intrinsic(info.id, c, t, std::move(args));
}

ir::Expr* FunctionLowering::warpOperation(const sema::IntrinsicInfo& info, const ast::Call* c,
                                          const NumbaType& t) {
  auto mask = [&] { return exprAs(c->args[0], ScalarKind::UInt32); };
  switch (info.id) {
  case Intrinsic::Activemask:
  case Intrinsic::LanemaskLt:
    return intrinsic(info.id, c, t, {});
  case Intrinsic::AllSync:
  case Intrinsic::AnySync:
  case Intrinsic::BallotSync:
  case Intrinsic::EqSync: {
    ir::Expr* m = mask();
    return intrinsic(info.id, c, t, {m, condition(c->args[1])});
  }
  case Intrinsic::ShflSync:
  case Intrinsic::ShflUpSync:
  case Intrinsic::ShflDownSync:
  case Intrinsic::ShflXorSync: {
    ir::Expr* m = mask();
    ir::Expr* value = expr(c->args[1]);
    return intrinsic(info.id, c, t, {m, value, exprAs(c->args[2], ScalarKind::Int32)});
  }
  case Intrinsic::MatchAnySync:
  case Intrinsic::MatchAllSync: {
    ir::Expr* m = mask();
    return intrinsic(info.id, c, t, {m, expr(c->args[1])});
  }
  default:
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return nullptr;
  }
}

std::optional<std::vector<ScalarKind>>
FunctionLowering::convertedArguments(const sema::IntrinsicInfo& info, const ast::Call* c) {
  std::vector<ScalarKind> kinds; // an argument of no type counts as boolean, which no case takes
  for (const ast::Expr* a : c->args) {
    const NumbaType* t = typeOf(a);
    kinds.push_back(t != nullptr ? t->scalarKind() : NumbaType().scalarKind());
  }
  std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(info.id, kinds);
  if (!converted)
    unsupported(c->range, "`" + std::string(info.name) + "`");
  return converted;
}

ir::Expr* FunctionLowering::bitOrFloatIntrinsic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                                const NumbaType& t) {
  // The arguments converted to numba's chosen case (brev(int64) is brev(uint32), ...).
  const std::optional<std::vector<ScalarKind>> converted = convertedArguments(info, c);
  if (!converted)
    return nullptr;
  switch (info.typing) {
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse:
    return intrinsic(info.id, c, t, {exprAs(c->args[0], (*converted)[0])});
  case IntrinsicTyping::SameFloat: // fma, cbrt
    return intrinsic(info.id, c, t, argumentsAs(c, *converted));
  case IntrinsicTyping::Select: { // selp(p, a, b) is `a if p else b`
    auto* out = makeExpr<ir::Conditional>(c->range, t);
    out->condition = condition(c->args[0]);
    out->then = exprAs(c->args[1], t);
    out->otherwise = exprAs(c->args[2], t);
    return out->condition && out->then && out->otherwise ? out : nullptr;
  }
  case IntrinsicTyping::Half: // cuda.fp16: every argument converted to float16 first
  case IntrinsicTyping::HalfPredicate:
    return intrinsic(info.id, c, t,
                     argumentsAs(c, std::vector<ScalarKind>(c->args.size(), ScalarKind::Float16)));
  default:
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return nullptr;
  }
}

ir::Expr* FunctionLowering::cmathCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                      const NumbaType& t) {
  // The arguments converted to the types of numba's chosen case (a float64 to complex128, ...).
  const std::optional<std::vector<ScalarKind>> converted = convertedArguments(info, c);
  if (!converted)
    return nullptr;
  return intrinsic(info.id, c, t, argumentsAs(c, *converted));
}

ir::Expr* FunctionLowering::ufuncCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                      const NumbaType& t) {
  // numba converts a ufunc's operands to its loop's types element by element, inside the loop
  // (arrays cannot be converted as a whole): the operands stay as they are, and the emitters
  // convert them to the types of the loop sema::matchUfuncLoop chooses for the same operand types.
  std::vector<ir::Expr*> args;
  for (const ast::Expr* a : c->args)
    args.push_back(expr(a));
  return intrinsic(info.id, c, t, std::move(args));
}

ir::Expr* FunctionLowering::libdeviceCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                          const NumbaType& t) {
  if (sema::libdeviceSignature(info.id) == nullptr) {
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return nullptr;
  }
  const std::optional<std::vector<ScalarKind>> converted = convertedArguments(info, c);
  if (!converted)
    return nullptr;
  return intrinsic(info.id, c, t, argumentsAs(c, *converted));
}

ir::Expr* FunctionLowering::vectorConstruction(const sema::IntrinsicInfo& info, const ast::Call* c,
                                               const NumbaType& t) {
  // A vector's elements from scalars converted to its base type and from the members of vectors.
  const NumbaType base = NumbaType::scalar(t.scalarKind());
  std::vector<ir::Expr*> args;
  for (size_t i = 0; i < c->args.size(); ++i)
    args.push_back(argType(c, i).isVector() ? expr(c->args[i]) : exprAs(c->args[i], base));
  return intrinsic(info.id, c, t, std::move(args));
}

ir::Expr* FunctionLowering::mathCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                                     const NumbaType& t) {
  if (info.typing == IntrinsicTyping::OperatorFunction) { // the operator it is
    const sema::OperatorOf op = sema::operatorOf(info.id);
    if (op.binary)
      return binary(*op.binary, c->args[0], c->args[1], t, c->range);
    if (op.comparison)
      return comparison(*op.comparison, c->args[0], c->args[1], c->range);
    return unary(*op.unary, c->args[0], &t, c->range);
  }
  const std::string name(info.name);
  if (info.id == Intrinsic::Abs && c->args.size() == 1 && argType(c, 0).isDatetimeLike()) {
    ir::Expr* value = expr(c->args[0]);
    return value ? datetimeOperation(sema::datetimeAbs(argType(c, 0)), value, nullptr, c->range)
                 : nullptr;
  }
  for (size_t i = 0; i < c->args.size(); ++i)
    if (const NumbaType a = argType(c, i); !a.isScalar()) {
      unsupported(c->range, "`" + name + "` of `" + a.str() + "`");
      return nullptr;
    }
  // Arguments converted as numba converts them.
  const std::optional<std::vector<ScalarKind>> converted = convertedArguments(info, c);
  if (!converted)
    return nullptr;
  std::vector<ir::Expr*> a = argumentsAs(c, *converted);
  const bool f32 = !converted->empty() && (*converted)[0] == ScalarKind::Float32;
  // libm computes in float32 or float64 (numba's integer cases compute in float64).
  const NumbaType computed = NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64);
  auto inComputed = [&](std::vector<ir::Expr*> args) {
    return as(intrinsic(info.id, c, computed, std::move(args)), t);
  };
  auto writtenCast = [&](ir::Expr* value, const NumbaType& to) {
    ir::Expr* out = as(value, to);
    if (auto* cast = out != nullptr ? out->as<ir::Cast>() : nullptr) {
      cast->written = true;
      cast->range = c->range; // where the source writes it
    }
    return out;
  };
  switch (info.id) {
  // Tuple results, each argument evaluated once.
  case Intrinsic::MathFrexp:
  case Intrinsic::MathModf:
  case Intrinsic::Divmod:
  case Intrinsic::MathIsnan:
  case Intrinsic::MathIsinf:
  case Intrinsic::MathIsfinite:
  case Intrinsic::Abs:
  case Intrinsic::Round:
    return intrinsic(info.id, c, t, a);
  case Intrinsic::MathLog: // one argument, or log(x) / log(base)
  case Intrinsic::MathDegrees:
  case Intrinsic::MathRadians:
  case Intrinsic::MathLdexp:
    return inComputed(a);
  case Intrinsic::Min:
  case Intrinsic::Max: {
    if (a.size() < 2)
      break;
    // float16 is compared in float32, which holds each value exactly (numba 0.56 types min and
    // max of float16 but cannot lower the comparison; pyk gives Python's answer).
    const bool half = (*converted)[0] == ScalarKind::Float16;
    const NumbaType compared = NumbaType::scalar(half ? ScalarKind::Float32 : (*converted)[0]);
    if (half)
      a = argumentsAs(c, std::vector<ScalarKind>(c->args.size(), ScalarKind::Float32));
    return as(intrinsic(info.id, c, compared, a), t);
  }
  case Intrinsic::Int:
  case Intrinsic::Float:
    return writtenCast(a[0], t);
  case Intrinsic::Bool:
    return writtenCast(a[0], NumbaType::scalar(ScalarKind::Boolean));
  case Intrinsic::Complex:
    if (!t.isScalar())
      break;
    if (a.size() == 1)
      return writtenCast(a[0], t);
    return intrinsic(info.id, c, t, a);
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
    if (!info.cuda.empty() && !info.cpu.empty())
      return inComputed(a);
    break;
  default:
    break;
  }
  unsupported(c->range, "`" + name + "`");
  return nullptr;
}

} // namespace pyk::lower
