// EmitThreadModel: the CUDA thread model as C++ — index values (`cuda.threadIdx.x` ...
// `cuda.warpsize`, `cuda.laneid`), `cuda.grid` / `cuda.gridsize`, barriers and fences — and the
// intrinsic constants (`math.pi`), each in the spelling of the unit's backend.
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;
using sema::IntrinsicTyping;

std::string UnitEmitter::intrinsicValue(Intrinsic id, const ast::Expr* at) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(id);
  if (id == Intrinsic::Laneid)
    return target_.threadOperation(id, {});
  if (info.typing == IntrinsicTyping::Int32Value)
    return "static_cast<pyk::int32>(" + spelled(id) + ")";
  if (info.typing == IntrinsicTyping::Float64Constant)
    return spelled(id);
  unsupported(at->range, "`" + std::string(info.name) + "` as a value");
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

std::string UnitEmitter::gridIndex(const sema::IntrinsicInfo& info, const NumbaType& t) {
  const bool size = info.id == Intrinsic::Gridsize;
  auto axis = [&](int d) {
    if (!size)
      return globalIndexOnAxis(d);
    if (target_.backend() == Backend::Cuda)
      return "pyk::grid_size(" + spelled(sema::blockDim(d)) + ", " + spelled(sema::gridDim(d)) +
             ")";
    return "(static_cast<pyk::int64>(" + spelled(sema::blockDim(d)) + ") * " +
           spelled(sema::gridDim(d)) + ")";
  };
  if (t.isScalar())
    return axis(0);
  std::string out = type(t) + "{{" + axis(0) + ", " + axis(1);
  if (t.elements().size() == 3)
    out += ", " + axis(2);
  return out + "}}";
}

std::string UnitEmitter::threadModelCall(const sema::IntrinsicInfo& info, const ast::Call* c) {
  switch (info.id) {
  case Intrinsic::SyncthreadsCount:
  case Intrinsic::SyncthreadsAnd:
  case Intrinsic::SyncthreadsOr:
    return target_.threadOperation(info.id, {truthy(c->args[0])});
  case Intrinsic::Syncwarp:
    return target_.threadOperation(
        info.id, {c->args.empty() ? std::string("0xFFFFFFFFu")
                                  : castTo(c->args[0], NumbaType::scalar(ScalarKind::UInt32))});
  default: // syncthreads and the fences
    return target_.threadOperation(info.id, {});
  }
}

} // namespace pyk::codegen
