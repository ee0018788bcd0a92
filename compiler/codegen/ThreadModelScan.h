// ThreadModelScan: pass 1 of the CPU pipeline: the thread-model operations each function a kernel
// reaches uses, which decide how the CPU backend can run a block's threads. Consumes the kernel and
// the specializations it calls; concludes, per function, its first warp collective and its first
// block barrier.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sema/Specialization.h"

namespace pyk::codegen {

struct ThreadModelUse {
  const sema::Specialization* function = nullptr;
  const ast::Call* warpOperation = nullptr; // its first warp collective (`cuda.shfl_down_sync`)
  const ast::Call* barrier = nullptr;       // its first block barrier (`cuda.syncthreads`)
};

// One ThreadModelUse per function of `reached` (the kernel and every function it calls), in order.
std::vector<ThreadModelUse>
scanThreadModel(const std::vector<const sema::Specialization*>& reached);

// The first call in `n` (in source order) of an intrinsic with `flag` (intrinsic_flags::Barrier,
// WarpCollective), or null.
const ast::Call* firstIntrinsicCall(const sema::Specialization& spec, const ast::Node* n,
                                    uint32_t flag);

// How a message names the intrinsic a call calls: `cuda.syncthreads`.
std::string intrinsicNameOf(const sema::Specialization& spec, const ast::Call* c);

} // namespace pyk::codegen
