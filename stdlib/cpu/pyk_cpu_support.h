// pyk_cpu_support.h: the CPU execution model every unit the CPU backend generates includes.
//
// The generated shared object includes this header and nothing of the runtime: it is given a
// Block (and, in fiber mode, one Thread per CUDA thread) whose BlockOps table of function pointers
// leads back into the runtime's scheduler. Two entry points per kernel:
//   - loop mode:  void blockEntry(pyk::cpu::Block&, void** args) loops over the block's threads
//                 itself (kernels without barriers or warp primitives, or split at each barrier);
//   - fiber mode: void threadEntry(pyk::cpu::Thread&, void** args) is one CUDA thread; the runtime
//                 runs one fiber per thread and switches at barriers and warp exchanges.
// Warp-level operations follow CUDA's semantics for warps of 32 lanes (PTX's shfl.sync, vote.sync,
// match.sync); what CUDA leaves undefined is pinned down here and said so where it is done.
// Atomics are std::atomic_ref, with the names and semantics of cuda/atomics.h's device versions.
// The build assembles it into one self-contained text (cmake/AssembleHeader.cmake), which the
// runtime embeds and hands to the host compiler.
#pragma once

// What both backends share: numba's types, Python's arithmetic, print, arrays, complex numbers.
#include "../common/pyk_common_support.h"

#if PYK_CUDA
#error "pyk_cpu_support.h is host code; device code gets the same names from pyk_support.h"
#endif

// Block, Thread, BlockOps: the interface with the runtime's engine
#include "engine_abi.h"
// shared arrays at offsets into the block's shared memory
#include "shared_memory.h"
// `cuda.local.array`s too large for the stack, on the heap
#include "local_memory.h"
// Context, the thread generated code runs as; trap
#include "thread_context.h"
// PYK_BOUNDSCHECK=1's checked accesses
#include "bounds_check.h"
// loop and split mode: forEachThread, ThreadBox
#include "loop_mode.h"
// syncthreads, the grid barrier, memory fences
#include "barriers.h"
// lanes, syncwarp, votes, shuffles, matches
#include "warp.h"
// float16: the type (the C++ API's pyk::float16, base/Float16.h), numba's casts, cuda.fp16.*
#include "float16.h"
// popc, clz, ffs, brev
#include "integer_intrinsics.h"
// cuda.atomic.* on std::atomic_ref
#include "atomics.h"
// the atomics a worker gathers and applies in its order (codegen/cpu/DeferredAtomics.h)
#include "deferred_atomics.h"
// the next blocks' elements, asked for ahead (codegen/cpu/BlockPrefetch.h)
#include "block_prefetch.h"
// numba-cuda's cache-hint loads and stores, plain on a CPU
#include "cache_hints.h"
// numba.cuda.libdevice: integer functions and reinterpretations of bits
#include "libdevice_integer.h"
// numba.cuda.libdevice: arithmetic and conversions in a rounding mode, float16 bits
#include "libdevice_rounding.h"
// numba.cuda.libdevice: the floating-point functions
#include "libdevice_math.h"
// numba.cuda.libdevice: sinpi, rsqrt, erfcx, erfinv, normcdfinv, ...
#include "libdevice_special.h"
