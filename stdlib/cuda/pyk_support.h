// pyk_support.h: the runtime support every emitted translation unit includes (numba semantics).
//
// Compiles in two worlds: under NVRTC/nvcc as device code (no standard headers, only the CUDA math
// builtins NVRTC provides without includes) and under a host C++17 compiler, where PYK_HD is empty
// and the device-only parts below are empty too (the CPU backend's counterparts are in cpu/).
// The build assembles it into one text (cmake/AssembleHeader.cmake), embedded in pykc and the
// runtime and handed to NVRTC as the one header "pyk_support.h".
#pragma once

// What both backends share: numba's types, Python's arithmetic, print, arrays, complex numbers.
#include "../common/pyk_common_support.h"

// Device code only:
// float16: the type, numba's casts, cuda.fp16.* (inline PTX)
#include "float16.h"
// cuda.grid, cuda.gridsize: a thread's global index (32-bit arithmetic under PYK_INDEX32)
#include "grid_index.h"
// numba.cuda.laneid, lanemask_lt
#include "lanes.h"
// cuda.atomic.*
#include "atomics.h"
// numba-cuda's cache-hint loads and stores: cuda.ldca ... cuda.stwt
#include "cache_hints.h"
// cuda.shared.array(0, T)
#include "dynamic_shared_memory.h"
// cuda.cg.this_grid().sync()
#include "grid_barrier.h"
// numba.cuda.libdevice: the __nv_ prototypes NVRTC links from libdevice
#include "libdevice_declarations.h"

// `launch_bounds=(T, B, C)`: the max blocks per cluster C only where clusters exist (sm_90 on);
// NVRTC refuses it for older architectures.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PYK_LAUNCH_BOUNDS_CLUSTER(t, b, c) __launch_bounds__(t, b, c)
#else
#define PYK_LAUNCH_BOUNDS_CLUSTER(t, b, c) __launch_bounds__(t, b)
#endif

// `max_registers=N` on a kernel without `launch_bounds=` (CUDA allows one of the two): CUDA 12.4's
// __maxnreg__, which puts `.maxnreg N` in the PTX whoever compiles it on; with an older NVRTC only
// the --maxrregcount option pyk passes too (jit/CompileFlags) applies, to the CUBIN.
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4)
#define PYK_MAX_REGISTERS(n) __maxnreg__(n)
#else
#define PYK_MAX_REGISTERS(n)
#endif
