// split_variants: the benchmark's barrier kernels (bench/cpu/kernels/) as the CPU code generator
// could emit them in split mode, one change at a time, with the block-entry signature of generated
// code (void(pyk::cpu::Block&, void**)). run_split_analysis.sh times them against what pykc emits
// today, on one core, without the worker pool. Each step adds one change to the previous one:
//
//   reduction r1  values that are functions of the thread index (tid, i) are recomputed in each
//                 region instead of stored in per-thread arrays; `stride`, uniform, is one block
//                 scalar and its update runs once per block, not once per thread
//             r2  thread-range narrowing: a region that is `if tid < U` (U uniform) runs the
//                 threads [0, U) only, and `if tid == 0` runs thread 0 only
//   matmul    m1  as r1: only `acc` (live across the barriers) stays per thread
//             m2  the uniform `for j in range(TPB)` loop is interchanged with the thread loop
//                 (threads in lockstep), so the thread loop is innermost and vectorises
//             m3  the block shape is a compile-time constant (the unit specialized on it)
//   diffusion d1  as r1 (and `c`, not live across the barrier, is not per thread)
//             d2  d1 with the block shape a compile-time constant
//             d3  d2 with the halo statements of the load region distributed into loops of
//                 their own, each narrowed to the threads its guard can select
//             d4  the kernel's algorithm (stage the block's cells and halo in the tile, then
//                 the stencil from the tile) written by hand as the best CPU block function we
//                 found: contiguous row copies, the halo as four short loops, the stencil over
//                 rows of the tile; no thread loop at all. What faithful code can reach
//             d5  no tile: the stencil straight from `field` in the blocks' order (32x8 cells
//                 a call): what the staging through the tile costs against d4
//
// Every variant iterates the block's threads with signed counters and, unless PYK_VARIANT_WRAP is
// defined, reads arrays without Python's negative-index wrap (what a proof that the index is
// non-negative allows: every index here is built from thread and block indices).
#include "pyk_cpu_support.h"

#include <algorithm>

namespace {

using namespace pyk;
using pyk::cpu::Block;
using A1 = Array<float32, 1, Layout::C>;
using A2 = Array<float32, 2, Layout::C>;

inline float32& at(const A1& a, int64 i) {
  return a.data[i];
}
inline float32& at(const A2& a, int64 i, int64 j) {
  return a.data[i * a.shape[1] + j];
}
#ifdef PYK_VARIANT_WRAP
#define AT(a, ...) (a)(__VA_ARGS__)
#else
#define AT(a, ...) at(a, __VA_ARGS__)
#endif

// Every thread of the block, x fastest; the extents are the launch's, or constants (NX > 0).
template <int32 NX = 0, int32 NY = 0, typename Body>
inline void threads(const Block& b, Body&& body) {
  const int32 nx = NX > 0 ? NX : static_cast<int32>(b.blockDim.x);
  const int32 ny = NY > 0 ? NY : static_cast<int32>(b.blockDim.y);
  const int32 nz = NX > 0 ? 1 : static_cast<int32>(b.blockDim.z);
  if (nx > 1024 || ny > 1024 || nz > 64)
    __builtin_unreachable(); // CUDA's limits, which the engine enforces
  for (int32 z = 0; z < nz; ++z)
    for (int32 y = 0; y < ny; ++y)
      for (int32 x = 0; x < nx; ++x)
        body(x, y, z, x + nx * (y + ny * z));
}

} // namespace

// ---- block_sum ----------------------------------------------------------------------------------

extern "C" void reduction_r1(Block& blk, void** args) {
  const A1 a = *static_cast<A1*>(args[0]);
  const A1 total = *static_cast<A1*>(args[1]);
  const A1 part{cpu::shared_pointer<float32>(blk, 0), {256}, {4}};
  const int64 base = static_cast<int64>(blk.blockIdx.x) * blk.blockDim.x;
  threads(blk, [&](int32 x, int32, int32, int32) {
    const int64 i = base + x;
    if (i < a.size())
      AT(part, x) = AT(a, i);
    else
      AT(part, x) = 0.0f;
  });
  for (int64 stride = 256 / 2; stride > 0; stride = floordiv(stride, int64{2}))
    threads(blk, [&](int32 x, int32, int32, int32) {
      if (static_cast<int64>(x) < stride)
        AT(part, x) = AT(part, x) + AT(part, x + stride);
    });
  threads(blk, [&](int32 x, int32, int32, int32) {
    if (x == 0)
      atomic_add(&AT(total, 0), AT(part, 0));
  });
}

extern "C" void reduction_r2(Block& blk, void** args) {
  const A1 a = *static_cast<A1*>(args[0]);
  const A1 total = *static_cast<A1*>(args[1]);
  const A1 part{cpu::shared_pointer<float32>(blk, 0), {256}, {4}};
  const int64 base = static_cast<int64>(blk.blockIdx.x) * blk.blockDim.x;
  threads(blk, [&](int32 x, int32, int32, int32) {
    const int64 i = base + x;
    if (i < a.size())
      AT(part, x) = AT(a, i);
    else
      AT(part, x) = 0.0f;
  });
  const int32 nx = static_cast<int32>(blk.blockDim.x);
  if (blk.blockDim.y != 1 || blk.blockDim.z != 1 || nx > 1024)
    __builtin_unreachable(); // (the launch is 1-D; a narrowed region covers x only)
  for (int64 stride = 256 / 2; stride > 0; stride = floordiv(stride, int64{2})) {
    const int32 end = static_cast<int32>(std::min<int64>(nx, stride)); // `if tid < stride`
    for (int32 x = 0; x < end; ++x)
      AT(part, x) = AT(part, x) + AT(part, x + stride);
  }
  atomic_add(&AT(total, 0), AT(part, 0)); // `if tid == 0`
}

// ---- matmul -------------------------------------------------------------------------------------

namespace {
template <int32 NX, int32 NY, bool Lockstep>
inline void matmulBlock(Block& blk, void** args) {
  const A2 A = *static_cast<A2*>(args[0]);
  const A2 B = *static_cast<A2*>(args[1]);
  const A2 C = *static_cast<A2*>(args[2]);
  const A2 sA{cpu::shared_pointer<float32>(blk, 0), {16, 16}, {64, 4}};
  const A2 sB{cpu::shared_pointer<float32>(blk, 1024), {16, 16}, {64, 4}};
  float32 acc[cpu::kMaxThreadsPerBlock]; // live across the barriers: per thread
  const int64 col0 = static_cast<int64>(blk.blockIdx.x) * (NX > 0 ? NX : blk.blockDim.x);
  const int64 row0 = static_cast<int64>(blk.blockIdx.y) * (NY > 0 ? NY : blk.blockDim.y);
  const int64 n = A.shape[1];
  const int64 ntiles = floordiv(n + 16 - 1, int64{16});
  threads<NX, NY>(blk, [&](int32, int32, int32, int32 t) { acc[t] = 0.0f; });
  for (int64 tile = 0; tile < ntiles; ++tile) {
    threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
      const int64 row = row0 + ty, col = col0 + tx;
      const int64 ka = tile * 16 + tx;
      if (row < A.shape[0] && ka < n)
        AT(sA, ty, tx) = AT(A, row, ka);
      else
        AT(sA, ty, tx) = 0.0f;
      const int64 kb = tile * 16 + ty;
      if (kb < B.shape[0] && col < B.shape[1])
        AT(sB, ty, tx) = AT(B, kb, col);
      else
        AT(sB, ty, tx) = 0.0f;
    });
    if constexpr (Lockstep) {
      for (int64 j = 0; j < 16; ++j)
        threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32 t) {
          acc[t] = acc[t] + AT(sA, ty, j) * AT(sB, j, tx);
        });
    } else {
      threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32 t) {
        for (int64 j = 0; j < 16; ++j)
          acc[t] = acc[t] + AT(sA, ty, j) * AT(sB, j, tx);
      });
    }
  }
  threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32 t) {
    const int64 row = row0 + ty, col = col0 + tx;
    if (row < C.shape[0] && col < C.shape[1])
      AT(C, row, col) = acc[t];
  });
}
} // namespace

extern "C" void matmul_m1(Block& blk, void** args) {
  matmulBlock<0, 0, false>(blk, args);
}
extern "C" void matmul_m2(Block& blk, void** args) {
  matmulBlock<0, 0, true>(blk, args);
}
extern "C" void matmul_m3(Block& blk, void** args) {
  matmulBlock<16, 16, true>(blk, args);
}

// ---- diffusion_step -----------------------------------------------------------------------------

namespace {
template <int32 NX, int32 NY, bool Distributed>
inline void diffusionBlock(Block& blk, void** args) {
  const A2 field = *static_cast<A2*>(args[0]);
  const A2 out = *static_cast<A2*>(args[1]);
  const float32 coeff = *static_cast<float32*>(args[2]);
  const A2 tile{cpu::shared_pointer<float32>(blk, 0), {10, 34}, {136, 4}};
  const int64 col0 = static_cast<int64>(blk.blockIdx.x) * (NX > 0 ? NX : blk.blockDim.x);
  const int64 row0 = static_cast<int64>(blk.blockIdx.y) * (NY > 0 ? NY : blk.blockDim.y);
  const int64 nrows = field.shape[0], ncols = field.shape[1];
  if constexpr (!Distributed) {
    threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
      const int64 row = row0 + ty, col = col0 + tx;
      if (row < nrows && col < ncols) {
        const float32 c = AT(field, row, col);
        AT(tile, ty + 1, tx + 1) = c;
        if (tx == 0)
          AT(tile, ty + 1, 0) = col > 0 ? AT(field, row, col - 1) : c;
        if (tx == 32 - 1 || col == ncols - 1)
          AT(tile, ty + 1, tx + 2) = col < ncols - 1 ? AT(field, row, col + 1) : c;
        if (ty == 0)
          AT(tile, 0, tx + 1) = row > 0 ? AT(field, row - 1, col) : c;
        if (ty == 8 - 1 || row == nrows - 1)
          AT(tile, ty + 2, tx + 1) = row < nrows - 1 ? AT(field, row + 1, col) : c;
      }
    });
  } else {
    threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
      const int64 row = row0 + ty, col = col0 + tx;
      if (row < nrows && col < ncols)
        AT(tile, ty + 1, tx + 1) = AT(field, row, col);
    });
    const int32 ny = NY > 0 ? NY : static_cast<int32>(blk.blockDim.y);
    const int32 nx = NX > 0 ? NX : static_cast<int32>(blk.blockDim.x);
    for (int32 ty = 0; ty < ny; ++ty) { // `if tx == 0`: the threads with x = 0
      const int64 row = row0 + ty, col = col0;
      if (row < nrows && col < ncols)
        AT(tile, ty + 1, 0) = col > 0 ? AT(field, row, col - 1) : AT(tile, ty + 1, 1);
    }
    threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
      const int64 row = row0 + ty, col = col0 + tx;
      if (row < nrows && col < ncols && (tx == 32 - 1 || col == ncols - 1))
        AT(tile, ty + 1, tx + 2) =
            col < ncols - 1 ? AT(field, row, col + 1) : AT(tile, ty + 1, tx + 1);
    });
    for (int32 tx = 0; tx < nx; ++tx) { // `if ty == 0`: the threads with y = 0
      const int64 row = row0, col = col0 + tx;
      if (row < nrows && col < ncols)
        AT(tile, 0, tx + 1) = row > 0 ? AT(field, row - 1, col) : AT(tile, 1, tx + 1);
    }
    threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
      const int64 row = row0 + ty, col = col0 + tx;
      if (row < nrows && col < ncols && (ty == 8 - 1 || row == nrows - 1))
        AT(tile, ty + 2, tx + 1) =
            row < nrows - 1 ? AT(field, row + 1, col) : AT(tile, ty + 1, tx + 1);
    });
  }
  // barrier
  threads<NX, NY>(blk, [&](int32 tx, int32 ty, int32, int32) {
    const int64 row = row0 + ty, col = col0 + tx;
    if (row < nrows && col < ncols) {
      const float32 c = AT(tile, ty + 1, tx + 1);
      const float32 lap = float32(4.0) * c - AT(tile, ty, tx + 1) - AT(tile, ty + 2, tx + 1) -
                          AT(tile, ty + 1, tx) - AT(tile, ty + 1, tx + 2);
      AT(out, row, col) = c - coeff * lap;
    }
  });
}
} // namespace

extern "C" void diffusion_d1(Block& blk, void** args) {
  diffusionBlock<0, 0, false>(blk, args);
}
extern "C" void diffusion_d2(Block& blk, void** args) {
  diffusionBlock<32, 8, false>(blk, args);
}
extern "C" void diffusion_d3(Block& blk, void** args) {
  diffusionBlock<32, 8, true>(blk, args);
}

// d4 and d5: written for the CPU from the kernel's algorithm, not from the thread loops.
namespace {
struct DiffusionBlockView {
  const float32* __restrict field;
  float32* __restrict out;
  float32 coeff;
  int64 nrows, ncols, row0, col0;
  int32 ny, nx; // the block's cells inside the field
};
inline DiffusionBlockView diffusionView(const Block& blk, void** args) {
  const A2 field = *static_cast<A2*>(args[0]);
  const A2 out = *static_cast<A2*>(args[1]);
  DiffusionBlockView v{field.data,
                       out.data,
                       *static_cast<float32*>(args[2]),
                       field.shape[0],
                       field.shape[1],
                       static_cast<int64>(blk.blockIdx.y) * 8,
                       static_cast<int64>(blk.blockIdx.x) * 32,
                       0,
                       0};
  v.ny = static_cast<int32>(std::min<int64>(8, v.nrows - v.row0));
  v.nx = static_cast<int32>(std::min<int64>(32, v.ncols - v.col0));
  return v;
}
} // namespace

extern "C" void diffusion_d4(Block& blk, void** args) {
  const DiffusionBlockView v = diffusionView(blk, args);
  alignas(64) float32 tile[10][34];
  for (int32 ty = 0; ty < v.ny; ++ty) {
    const float32* __restrict src = v.field + (v.row0 + ty) * v.ncols + v.col0;
    for (int32 tx = 0; tx < v.nx; ++tx)
      tile[ty + 1][tx + 1] = src[tx];
  }
  for (int32 ty = 0; ty < v.ny; ++ty) { // the halo columns
    const float32* __restrict src = v.field + (v.row0 + ty) * v.ncols;
    const int64 last = v.col0 + v.nx - 1;
    tile[ty + 1][0] = v.col0 > 0 ? src[v.col0 - 1] : tile[ty + 1][1];
    tile[ty + 1][v.nx + 1] = last < v.ncols - 1 ? src[last + 1] : tile[ty + 1][v.nx];
  }
  const int64 up = v.row0 > 0 ? v.row0 - 1 : v.row0; // the halo rows (a missing one: the cell)
  const int64 lastRow = v.row0 + v.ny - 1;
  const int64 down = lastRow < v.nrows - 1 ? lastRow + 1 : lastRow;
  for (int32 tx = 0; tx < v.nx; ++tx) {
    tile[0][tx + 1] = v.field[up * v.ncols + v.col0 + tx];
    tile[v.ny + 1][tx + 1] = v.field[down * v.ncols + v.col0 + tx];
  }
  for (int32 ty = 0; ty < v.ny; ++ty) {
    float32* __restrict dst = v.out + (v.row0 + ty) * v.ncols + v.col0;
    for (int32 tx = 0; tx < v.nx; ++tx) {
      const float32 c = tile[ty + 1][tx + 1];
      const float32 lap = float32(4.0) * c - tile[ty][tx + 1] - tile[ty + 2][tx + 1] -
                          tile[ty + 1][tx] - tile[ty + 1][tx + 2];
      dst[tx] = c - v.coeff * lap;
    }
  }
}

extern "C" void diffusion_d5(Block& blk, void** args) {
  const DiffusionBlockView v = diffusionView(blk, args);
  for (int32 ty = 0; ty < v.ny; ++ty) {
    const int64 row = v.row0 + ty;
    const float32* __restrict cur = v.field + row * v.ncols;
    const float32* __restrict up = v.field + (row > 0 ? row - 1 : row) * v.ncols;
    const float32* __restrict dn = v.field + (row < v.nrows - 1 ? row + 1 : row) * v.ncols;
    float32* __restrict dst = v.out + row * v.ncols;
    auto cell = [&](int64 col, float32 left, float32 right) {
      const float32 c = cur[col];
      dst[col] = c - v.coeff * (float32(4.0) * c - up[col] - dn[col] - left - right);
    };
    // the field's first and last columns apart, so the inner loop has no clamp (vectorises)
    const int64 begin = std::max<int64>(v.col0, 1);
    const int64 end = std::min<int64>(v.col0 + v.nx, v.ncols - 1);
    if (v.col0 == 0)
      cell(0, cur[0], v.ncols > 1 ? cur[1] : cur[0]);
    for (int64 col = begin; col < end; ++col)
      cell(col, cur[col - 1], cur[col + 1]);
    if (v.col0 + v.nx == v.ncols && v.ncols > 1)
      cell(v.ncols - 1, cur[v.ncols - 2], cur[v.ncols - 1]);
  }
}
