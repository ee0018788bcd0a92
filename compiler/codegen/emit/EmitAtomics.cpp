// EmitAtomics: `cuda.atomic.*` as calls of pyk_support.h's atomics (the same spelling on both
// backends), which keep numba's element type and NaN rules: float max/min as compare-and-swap
// loops (`atomic_fmax`), nanmax/nanmin on integers as plain max/min. On the CPU backend, a
// kernel's atomics its workers gather (codegen/cpu/DeferredAtomics.h) as
// `pyk::cpu::deferred_atomic` (stdlib/cpu/deferred_atomics.h), with the atomic itself for launches
// that do not gather.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;

namespace {
// The update a gathered atomic applies (stdlib/cpu/atomics.h's pyk::atomic_op).
const char* gatheredOperation(Intrinsic i) {
  switch (i) {
  case Intrinsic::AtomicAdd:
    return "Add";
  case Intrinsic::AtomicSub:
    return "Sub";
  case Intrinsic::AtomicMax:
    return "Max";
  case Intrinsic::AtomicMin:
    return "Min";
  case Intrinsic::AtomicNanmax:
    return "Nanmax";
  case Intrinsic::AtomicNanmin:
    return "Nanmin";
  case Intrinsic::AtomicAnd:
    return "And";
  case Intrinsic::AtomicOr:
    return "Or";
  case Intrinsic::AtomicXor:
    return "Xor";
  default:
    return nullptr; // not GatherableAtomic in Intrinsics.def
  }
}
} // namespace

void UnitEmitter::decideDeferral(const ir::Function& kernel,
                                 const std::vector<std::string>& argumentNames) {
  const AtomicGathering& g = gatheringOf(kernel);
  if (g.sites.empty())
    return;
  std::string names, lines;
  for (sema::VariableId v : g.arrays)
    names += std::string(names.empty() ? "" : ", ") + "`" + kernel.variableName(v) + "`";
  std::set<uint32_t> siteLines;
  for (const ir::IntrinsicCall* c : g.sites)
    siteLines.insert(c->range.begin.line);
  for (uint32_t l : siteLines)
    lines += std::string(lines.empty() ? "" : ", ") + std::to_string(l);
  line("// Gathered atomics (stdlib/cpu/deferred_atomics.h): the kernel updates " + names +
       " only with atomics whose result it leaves (line" + (siteLines.size() > 1 ? "s " : " ") +
       lines + "): this worker applies them later, in its order.");
  auto extents = [&](const std::vector<sema::VariableId>& arrays) {
    std::string out;
    for (sema::VariableId v : arrays)
      out += std::string(out.empty() ? "" : ", ") + "pyk::cpu::extent_of(" + argumentNames[v] + ")";
    return "{" + out + "}";
  };
  line("pyk::cpu::decide_deferral(pyk_block, " + extents(g.arrays) + ", " + extents(g.others) +
       ");");
}

const AtomicGathering& UnitEmitter::gatheringOf(const ir::Function& f) {
  auto it = gatherings_.find(&f);
  if (it == gatherings_.end())
    it = gatherings_.emplace(&f, planAtomicGathering(f)).first;
  return it->second;
}

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
  const char* gathered = target_.backend() == Backend::Cpu && gatheringOf(*fn_).sites.count(c)
                             ? gatheredOperation(c->intrinsic)
                             : nullptr;
  if (gathered != nullptr) // its operand gathered, or the atomic where the launch does not gather
    out = std::string("pyk::cpu::deferred_atomic<pyk::atomic_op::") + gathered + ">(pyk_ctx, " +
          place + ", " + expr(c->args[valueAt]) + ", [](auto* p, auto v) { " + function +
          "(p, v); }";
  else
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
