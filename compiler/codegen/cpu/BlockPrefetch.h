// BlockPrefetch: the one-dimensional arrays a kernel reads at its thread's grid index
// (`a[cuda.grid(1)]`, `a[blockIdx.x * blockDim.x + threadIdx.x]`), whose elements for a later
// block the CPU backend's block entry asks the processor to fetch while this block computes
// (stdlib/cpu/block_prefetch.h). A worker runs consecutive blocks, so that is the data it reads
// next; a kernel that computes much per element (a block's tree reduction) then no longer leaves
// the memory idle while it does (on 2 workers of the AMD VM, interleaved runs with and without:
// the block reductions 1.42 -> 1.34 ms and 1.57 -> 1.40 ms, vector add 2.38 -> 2.32 ms, medians
// of four).
#pragma once

#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

// The contiguous one-dimensional array parameters `kernel` reads at the grid index on x, in
// parameter order; none for a device function.
std::vector<sema::VariableId> arraysReadAtGridIndex(const ir::Function& kernel);

} // namespace pyk::codegen
