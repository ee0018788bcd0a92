// reference_kernels: the GPU benchmark's kernels written by hand in CUDA C++, the same algorithms
// as bench/cpu/kernels/*.pyk (same block shapes, same shared-memory tiles, same barriers, the same
// float32 operations in the same order), written as one would for sm_90: raw pointers marked
// __restrict__, row-major indexing done by hand, 32-bit indices (every size here is < 2^31),
// compile-time block shapes, constant-trip loops unrolled. Nothing beyond the .pyk algorithm
// (no vector loads, no warp shuffles, no grid-stride loops): the point is a hand-written baseline
// of the very algorithm pyk compiles.
//
// One source for two programs: cuda_reference.cu includes it (nvcc -O3 -arch=sm_90), and
// cupy_reference.py reads it as the source of its cp.RawModule (NVRTC). Hence extern "C" (names
// unmangled, for RawModule.get_function) and no #include (NVRTC has no host headers).
#pragma once

// Threads per block / tile sizes: the constants of the .pyk files.
constexpr int kVectorTPB = 256;    // vector_add.pyk TPB
constexpr int kDiffusionBX = 32;   // diffusion.pyk BX (threads along a row)
constexpr int kDiffusionBY = 8;    // diffusion.pyk BY
constexpr int kMatmulTPB = 16;     // matmul.pyk TPB (16 x 16 tiles)
constexpr int kReductionTPB = 256; // reduction.pyk TPB

// c = a + b, one element per thread.
extern "C" __global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ out, int n) {
  const int i = blockIdx.x * kVectorTPB + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

// One explicit diffusion step on a rows x cols row-major field, launched on blocks of
// kDiffusionBX x kDiffusionBY threads (x along a row). The block's cells and a one-cell halo are
// staged in shared memory; a halo cell beyond the field's edge holds the cell itself (zero-flux
// boundary), so the stencil has no branch.
extern "C" __global__ void diffusion_step(const float* __restrict__ field, float* __restrict__ out,
                                          int nrows, int ncols, float coeff) {
  __shared__ float tile[kDiffusionBY + 2][kDiffusionBX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * kDiffusionBX + tx;
  const int row = blockIdx.y * kDiffusionBY + ty;
  const bool inside = row < nrows && col < ncols;

  if (inside) {
    const int at = row * ncols + col;
    const float c = field[at];
    tile[ty + 1][tx + 1] = c;
    // Threads on the tile's border (or the field's) also load the halo cell beyond them.
    if (tx == 0)
      tile[ty + 1][0] = col > 0 ? field[at - 1] : c;
    if (tx == kDiffusionBX - 1 || col == ncols - 1)
      tile[ty + 1][tx + 2] = col < ncols - 1 ? field[at + 1] : c;
    if (ty == 0)
      tile[0][tx + 1] = row > 0 ? field[at - ncols] : c;
    if (ty == kDiffusionBY - 1 || row == nrows - 1)
      tile[ty + 2][tx + 1] = row < nrows - 1 ? field[at + ncols] : c;
  }
  __syncthreads(); // the tile and its halo are loaded

  if (inside) {
    const float c = tile[ty + 1][tx + 1];
    const float lap = 4.0f * c - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] -
                      tile[ty + 1][tx + 2];
    out[row * ncols + col] = c - coeff * lap;
  }
}

// C (m x p) = A (m x k) @ B (k x p), row-major, on blocks of kMatmulTPB x kMatmulTPB threads: per
// step of the k loop each block stages one tile of A and one of B in shared memory; two barriers
// per step; a float32 accumulator.
extern "C" __global__ void matmul(const float* __restrict__ A, const float* __restrict__ B,
                                  float* __restrict__ C, int m, int k, int p) {
  __shared__ float sA[kMatmulTPB][kMatmulTPB];
  __shared__ float sB[kMatmulTPB][kMatmulTPB];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * kMatmulTPB + tx;
  const int row = blockIdx.y * kMatmulTPB + ty;
  const int ntiles = (k + kMatmulTPB - 1) / kMatmulTPB;

  float acc = 0.0f;
  for (int t = 0; t < ntiles; ++t) {
    const int ka = t * kMatmulTPB + tx;
    sA[ty][tx] = row < m && ka < k ? A[row * k + ka] : 0.0f;
    const int kb = t * kMatmulTPB + ty;
    sB[ty][tx] = kb < k && col < p ? B[kb * p + col] : 0.0f;
    __syncthreads(); // both tiles are loaded
#pragma unroll
    for (int j = 0; j < kMatmulTPB; ++j)
      acc += sA[ty][j] * sB[j][tx];
    __syncthreads(); // every thread is done with the tiles before the next load
  }
  if (row < m && col < p)
    C[row * p + col] = acc;
}

// total[0] += the sum of a: each block of kReductionTPB threads loads one element per thread into
// shared memory, halves it in a tree (a barrier per level), and one thread adds the block's sum
// with an atomic. total[0] must be zero before the launch.
extern "C" __global__ void block_sum(const float* __restrict__ a, float* __restrict__ total,
                                     int n) {
  __shared__ float part[kReductionTPB];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * kReductionTPB + tid;
  part[tid] = i < n ? a[i] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int stride = kReductionTPB / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      part[tid] += part[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(total, part[0]);
}

// The launch-overhead kernels: nothing to do, without and with three pointer arguments.
extern "C" __global__ void empty_kernel() {}

extern "C" __global__ void empty_kernel_3args(float*, float*, float*) {}
