// ThreadModelScan: pass 1 of the CPU pipeline: the thread-model operations each function a kernel
// reaches uses, which decide how the CPU backend can run a block's threads. Consumes the module's
// functions (the kernel first); concludes, per function, its first warp collective and its first
// block barrier.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

struct ThreadModelUse {
  const ir::Function* function = nullptr;
  const ir::IntrinsicCall* warpOperation = nullptr; // its first warp collective (`shfl_down_sync`)
  const ir::IntrinsicCall* barrier = nullptr;       // its first block barrier (`syncthreads`)
};

// The functions `kernel` calls, directly or through others (not itself, unless recursively).
std::set<const ir::Function*> functionsCalledBy(const ir::Function& kernel);

// One ThreadModelUse for `kernel` (the module's entry, or BarrierInlining's copy of it), then one
// per function of `module` it calls (directly or through others), in the module's order.
std::vector<ThreadModelUse> scanThreadModel(const ir::Module& module, const ir::Function& kernel);

// The first call in `n` (in the order of its fields) of an intrinsic with `flag`
// (intrinsic_flags::Barrier, WarpCollective), or null.
const ir::IntrinsicCall* firstIntrinsicCall(const ir::Node* n, uint32_t flag);
const ir::IntrinsicCall* firstIntrinsicCall(const std::vector<ir::Stmt*>& body, uint32_t flag);

// How a message names the intrinsic a call calls: `cuda.syncthreads`.
std::string intrinsicNameOf(const ir::IntrinsicCall* c);

} // namespace pyk::codegen
