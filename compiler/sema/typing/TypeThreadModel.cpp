// TypeThreadModel: typing of the CUDA thread model — the index values (`cuda.threadIdx.x`,
// `cuda.warpsize`...), `cuda.grid` and `cuda.gridsize`, barriers and fences, and the grid group
// of `cuda.cg.this_grid()` — and of the intrinsic constants (`math.pi`).
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::intrinsicValue(Intrinsic id) {
  const IntrinsicInfo& info = intrinsicInfo(id);
  switch (info.typing) {
  case IntrinsicTyping::Int32Value:
    return NumbaType::scalar(ScalarKind::Int32);
  case IntrinsicTyping::Float64Constant:
    return NumbaType::scalar(ScalarKind::Float64);
  default:
    // A function as a value (`cuda.atomic.add` passed to a device function): numba's Function
    // type, called where it arrives.
    if (info.kind == IntrinsicKind::Function || info.kind == IntrinsicKind::Library)
      return NumbaType::function(id, std::string(info.name));
    return std::nullopt; // a constant not typed in kernels yet: no value here
  }
}

OptType FunctionTyper::gridIndex(const IntrinsicInfo& info, const ast::Call* c) {
  const std::string name(info.name);
  if (!info.acceptsArgumentCount(c->args.size())) {
    error(DiagKind::TypeArity, c->range, {name, "1", std::to_string(c->args.size())});
    return std::nullopt;
  }
  std::optional<ConstantValue> n = constant(c->args[0], "the argument of `cuda.grid`");
  if (!n)
    return std::nullopt;
  if (n->kind != ConstantValue::Kind::Int || n->intValue < 1 || n->intValue > 3) {
    error(DiagKind::GridRankInvalid, c->args[0]->range, {name, n->repr()});
    return std::nullopt;
  }
  expr(c->args[0]);
  const NumbaType i64 = NumbaType::scalar(ScalarKind::Int64);
  return n->intValue == 1 ? i64 : NumbaType::uniTuple(i64, static_cast<int>(n->intValue));
}

OptType FunctionTyper::thisGrid(const IntrinsicInfo& info, const ast::Call* c) {
  if (!c->args.empty() || !c->keywords.empty()) {
    error(DiagKind::TypeArity, c->range,
          {std::string(info.name), "0", std::to_string(c->args.size() + c->keywords.size())});
    return std::nullopt;
  }
  return NumbaType::gridGroup();
}

OptType FunctionTyper::threadModelCall(const IntrinsicInfo& info, const ast::Call* c,
                                       const std::vector<NumbaType>& args) {
  switch (info.typing) {
  case IntrinsicTyping::Void: // barriers and fences; nanosleep(ns), its uint32 converted to
    if (info.id == Intrinsic::Nanosleep &&
        (args.size() != 1 || !args[0].isScalar() || isComplex(args[0].scalarKind())))
      return badArguments(info.name, c, args);
    return NumbaType::voidType();
  case IntrinsicTyping::BarrierPredicate: // syncthreads_count/and/or(predicate)
    if (args.size() == 1 && args[0].isScalar())
      return NumbaType::scalar(ScalarKind::Int32);
    return badArguments(info.name, c, args);
  default:
    return badArguments(info.name, c, args);
  }
}

} // namespace pyk::sema
