// EmitThreadModel: the CUDA thread model as C++ — index values (`cuda.threadIdx.x` ...
// `cuda.warpsize`, `cuda.laneid`), `cuda.grid` / `cuda.gridsize`, barriers and fences — and the
// intrinsic constants (`math.pi`), each in the spelling of the unit's backend.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;
using sema::IntrinsicTyping;

std::string UnitEmitter::visitIntrinsicValue(const ir::IntrinsicValue* v) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(v->intrinsic);
  if (v->intrinsic == Intrinsic::Laneid)
    return target_.threadOperation(v->intrinsic, {});
  if (info.typing == IntrinsicTyping::Int32Value)
    return "static_cast<pyk::int32>(" + spelled(v->intrinsic) + ")";
  if (info.typing == IntrinsicTyping::Float64Constant)
    return spelled(v->intrinsic);
  unsupported(v->range, "`" + std::string(info.name) + "` as a value");
  return "0";
}

std::string UnitEmitter::globalThreadIndex() const {
  return globalIndexOnAxis(0);
}

// On CUDA through pyk::grid_index / grid_size (stdlib/cuda/grid_index.h), which compute in 32 bits
// in the PYK_INDEX32 variant; the CPU backend's indices are its loop counters.
std::string UnitEmitter::globalIndexOnAxis(int d) const {
  if (target_.backend() == Backend::Cuda)
    return "pyk::grid_index(" + spelled(sema::blockIdx(d)) + ", " + spelled(sema::blockDim(d)) +
           ", " + spelled(sema::threadIdx(d)) + ")";
  return "(static_cast<pyk::int64>(" + spelled(sema::blockIdx(d)) + ") * " +
         spelled(sema::blockDim(d)) + " + " + spelled(sema::threadIdx(d)) + ")";
}

std::string UnitEmitter::gridIndex(const ir::IntrinsicCall* c) {
  const bool size = c->intrinsic == Intrinsic::Gridsize;
  auto axis = [&](int d) {
    if (!size)
      return globalIndexOnAxis(d);
    if (target_.backend() == Backend::Cuda)
      return "pyk::grid_size(" + spelled(sema::blockDim(d)) + ", " + spelled(sema::gridDim(d)) +
             ")";
    return "(static_cast<pyk::int64>(" + spelled(sema::blockDim(d)) + ") * " +
           spelled(sema::gridDim(d)) + ")";
  };
  const NumbaType& t = c->type; // int64, or a UniTuple of the rank's int64s
  if (t.isScalar())
    return axis(0);
  std::string out = type(t) + "{{" + axis(0) + ", " + axis(1);
  if (t.elements().size() == 3)
    out += ", " + axis(2);
  return out + "}}";
}

std::string UnitEmitter::threadModelCall(const ir::IntrinsicCall* c) {
  switch (c->intrinsic) {
  case Intrinsic::SyncthreadsCount:
  case Intrinsic::SyncthreadsAnd:
  case Intrinsic::SyncthreadsOr:
    if (!blockReductionValue_.empty())
      return blockReductionValue_;
    return target_.threadOperation(c->intrinsic, {expr(c->args[0])});
  case Intrinsic::Syncwarp: // the mask, all lanes when absent
    return target_.threadOperation(
        c->intrinsic, {c->args.empty() ? std::string("0xFFFFFFFFu") : expr(c->args[0])});
  case Intrinsic::Nanosleep:
    return target_.threadOperation(c->intrinsic, {expr(c->args[0])});
  default: // syncthreads and the fences
    return target_.threadOperation(c->intrinsic, {});
  }
}

} // namespace pyk::codegen
