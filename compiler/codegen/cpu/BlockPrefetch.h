// BlockPrefetch: the arrays a kernel reads at its thread's grid index (`a[cuda.grid(1)]`,
// `a[blockIdx.x * blockDim.x + threadIdx.x]`, `f[row, col]` with `col, row = cuda.grid(2)`),
// whose elements for a later block the CPU backend's block entry asks the processor to fetch
// while this block computes (stdlib/cpu/block_prefetch.h). A worker runs consecutive blocks, so
// that is the data it reads next; a kernel that computes much per element (a block's tree
// reduction, a stencil's tile and halo) then no longer leaves the memory idle while it does (on 2
// workers of the AMD VM, interleaved runs with and without: the block reductions 1.42 -> 1.34 ms
// and 1.57 -> 1.40 ms, vector add 2.38 -> 2.32 ms, medians of four; a 2-D field's rows for the
// block 4 KiB later, on one core: the shared-memory diffusion 2.2-2.8 -> 1.8-1.9 ms a step).
#pragma once

#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

// The array parameters `kernel` reads at the grid index: contiguous one-dimensional ones at the
// grid index on x, C-contiguous two-dimensional ones at [grid index on y, grid index on x]; in
// parameter order; none for a device function.
std::vector<sema::VariableId> arraysReadAtGridIndex(const ir::Function& kernel);

// (An array a device function inlined into the kernel reads counts as the kernel's argument it
// was given, in both.)
// The contiguous one-dimensional array parameters `loop`'s body reads at its counter (`a[i]` in
// `for i in range(start, n, stride)`), in parameter order: in a grid-stride loop the block runs
// in lockstep (GridStrideLoops), the split kernel's round asks for their elements some rounds
// ahead, where each block reads a stretch of the array per round (the histogram's 1 KiB of every
// 64 KiB: 2 threads of the AMD VM counting in that order, 6.3-6.6 ms; asking 8 rounds ahead,
// 4.6-5.2 ms; bench/cpu/analysis/grid_stride_order.cpp).
std::vector<sema::VariableId> arraysReadAtCounter(const ir::Function& kernel,
                                                  const ir::ForRange& loop);

} // namespace pyk::codegen
