// EmitAtomics: `cuda.atomic.*` as calls of pyk_support.h's atomics (the same spelling on both
// backends), which keep numba's element type and NaN rules: float max/min as compare-and-swap
// loops (`atomic_fmax`), nanmax/nanmin on integers as plain max/min.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;

std::string UnitEmitter::atomic(const ir::IntrinsicCall* c) {
  const NumbaType& array = c->args[0]->type;
  const NumbaType elem = NumbaType::scalar(array.scalarKind());
  const NumbaType intp = NumbaType::scalar(ScalarKind::Int64);
  std::string place;
  std::string tupleIndex; // a tuple index, evaluated once before the atomic
  size_t valueAt = 2;
  if (c->intrinsic == Intrinsic::AtomicCompareAndSwap) {
    place = "&" + arrayElement(c->args[0], "0LL");
    valueAt = 1;
  } else {
    // Each index an intp, as numba's lowering has it (a float index is truncated): a tuple's
    // elements converted here.
    const NumbaType& index = c->args[1]->type;
    std::string idx;
    if (index.isTuple()) {
      tupleIndex = temp("index");
      for (size_t d = 0; d < index.elements().size(); ++d)
        idx += (d ? ", " : "") + cast(element(index, tupleIndex, d), index.elements()[d], intp);
    } else {
      idx = expr(c->args[1]);
    }
    place = "&" + arrayElement(c->args[0], idx);
  }
  std::string function = spelled(c->intrinsic);
  switch (c->intrinsic) {
  case Intrinsic::AtomicMax:
  case Intrinsic::AtomicMin:
    if (isFloating(elem)) // a compare-and-swap loop with numba's NaN rules
      function = c->intrinsic == Intrinsic::AtomicMax ? "pyk::atomic_fmax" : "pyk::atomic_fmin";
    break;
  case Intrinsic::AtomicNanmax:
  case Intrinsic::AtomicNanmin:
    if (!isFloating(elem)) // no NaN among integers: plain max/min
      function = spelled(c->intrinsic == Intrinsic::AtomicNanmax ? Intrinsic::AtomicMax
                                                                 : Intrinsic::AtomicMin);
    break;
  default:
    break;
  }
  // CUDA's atomics take unsigned long long for 64-bit integers; pyk_support.h's wrappers keep
  // numba's element type.
  std::string out = function + "(" + place;
  for (size_t i = valueAt; i < c->args.size(); ++i)
    out += ", " + expr(c->args[i]);
  // A block's shared array on the CPU backend: only the OS thread running the block touches it,
  // so the read-modify-write needs no atomic instruction (stdlib/cpu/atomics.h).
  if (target_.backend() == Backend::Cpu && inBlockMemory(c->args[0]))
    out += ", pyk::block_memory";
  out += ")";
  if (!tupleIndex.empty()) {
    const std::string index = expr(c->args[1]);
    out = "[&] { const " + type(c->args[1]->type) + " " + tupleIndex + " = " + index + "; return " +
          out + "; }()";
  }
  return out;
}

} // namespace pyk::codegen
