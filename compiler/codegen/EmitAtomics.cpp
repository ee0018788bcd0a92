// EmitAtomics: `cuda.atomic.*` as calls of pyk_support.h's atomics (the same spelling on both
// backends), which keep numba's element type and NaN rules: float max/min as compare-and-swap
// loops (`atomic_fmax`), nanmax/nanmin on integers as plain max/min.
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;

std::string UnitEmitter::atomic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                const NumbaType&) {
  const NumbaType array = argType(c, 0);
  if (!array.isArray()) {
    unsupported(c->range, "this atomic");
    return "0";
  }
  const NumbaType elem = NumbaType::scalar(array.scalarKind());
  const NumbaType intp = NumbaType::scalar(ScalarKind::Int64);
  std::string place;
  std::string tupleIndex; // a tuple index, evaluated once before the atomic
  size_t valueAt = 2;
  if (info.id == Intrinsic::AtomicCompareAndSwap) {
    place = "&" + arrayElement(c->args[0], "0LL");
    valueAt = 1;
  } else {
    // Each index converted to intp, as numba's lowering does (a float index is truncated).
    const NumbaType index = argType(c, 1);
    std::string idx;
    if (index.isTuple()) {
      tupleIndex = temp("index");
      for (size_t d = 0; d < index.elements().size(); ++d)
        idx += (d ? ", " : "") + cast(element(index, tupleIndex, d), index.elements()[d], intp);
    } else {
      idx = castTo(c->args[1], intp);
    }
    place = "&" + arrayElement(c->args[0], idx);
  }
  std::string function = spelled(info.id);
  switch (info.id) {
  case Intrinsic::AtomicMax:
  case Intrinsic::AtomicMin:
    if (isFloating(elem)) // a compare-and-swap loop with numba's NaN rules
      function = info.id == Intrinsic::AtomicMax ? "pyk::atomic_fmax" : "pyk::atomic_fmin";
    break;
  case Intrinsic::AtomicNanmax:
  case Intrinsic::AtomicNanmin:
    if (!isFloating(elem)) // no NaN among integers: plain max/min
      function =
          spelled(info.id == Intrinsic::AtomicNanmax ? Intrinsic::AtomicMax : Intrinsic::AtomicMin);
    break;
  default:
    break;
  }
  // CUDA's atomics take unsigned long long for 64-bit integers; pyk_support.h's wrappers keep
  // numba's element type.
  std::string out = function + "(" + place;
  for (size_t i = valueAt; i < c->args.size(); ++i)
    out += ", " + castTo(c->args[i], elem);
  out += ")";
  if (!tupleIndex.empty())
    out = "[&] { const " + type(argType(c, 1)) + " " + tupleIndex + " = " + expr(c->args[1]) +
          "; return " + out + "; }()";
  return out;
}

} // namespace pyk::codegen
