// split_harness: runs one block entry (-DENTRY=name, from a unit pykc generated or from
// split_variants.cpp) over a whole benchmark grid on the calling thread, with no worker pool, and
// the same work written by hand for the CPU (the OpenMP reference's loops, single-threaded).
// Prints "TIME|workload|entry|ms" lines: the median of the repetitions, per launch (one step
// for diffusion). Checks the entry's result against bench_common.h's references.
//
// Build (run_split_analysis.sh does it): -DENTRY=<name> -DWORKLOAD_<VECTOR_ADD|DIFFUSION|MATMUL|
// REDUCTION|HISTOGRAM> with the host compiler's flags, linked with the unit that defines ENTRY.
#include "../bench_common.h"
#include "pyk_cpu_support.h"

#include <array>
#include <cstdio>
#include <vector>

extern "C" void ENTRY(pyk::cpu::Block&, void**);

namespace {

using namespace pyk;
using pyk::cpu::Block;
using pyk::cpu::Dim3;

#define PYK_STR2(x) #x
#define PYK_STR(x) PYK_STR2(x)

template <int N, typename T = float32>
Array<T, N, Layout::C> arrayOf(T* p, std::array<int64, N> shape) {
  Array<T, N, Layout::C> a{};
  a.data = p;
  int64 stride = sizeof(T);
  for (int d = N - 1; d >= 0; --d) {
    a.shape[d] = shape[d];
    a.strides[d] = stride;
    stride *= shape[d];
  }
  return a;
}

alignas(64) unsigned char sharedMemory[48 * 1024];

void runGrid(Dim3 grid, Dim3 block, void** args) {
  Block b{};
  b.blockDim = block;
  b.gridDim = grid;
  b.sharedMemory = sharedMemory;
  b.sharedBytes = sizeof sharedMemory;
  for (uint32 z = 0; z < grid.z; ++z)
    for (uint32 y = 0; y < grid.y; ++y)
      for (uint32 x = 0; x < grid.x; ++x) {
        b.blockIdx = Dim3{x, y, z};
        ENTRY(b, args);
      }
}

void print(const char* workload, const char* entry, double seconds) {
  std::printf("TIME|%s|%s|%.4f\n", workload, entry, seconds * 1e3);
}

} // namespace

int main() {
  const char* entry = PYK_STR(ENTRY);
#if defined(WORKLOAD_VECTOR_ADD)
  const int64 n = bench::kVectorSize;
  auto a = bench::randomValues(n, 1), b = bench::randomValues(n, 2);
  std::vector<float> c(n), hand(n);
  auto A = arrayOf<1>(a.data(), {n}), B = arrayOf<1>(b.data(), {n}), C = arrayOf<1>(c.data(), {n});
  void* args[] = {&A, &B, &C};
  const Dim3 grid{uint32((n + 255) / 256)}, block{256};
  print("vector_add", entry, bench::medianSeconds(11, [&] { runGrid(grid, block, args); }));
  bench::checkClose(entry, c, bench::referenceVectorAdd(a, b), 0, 0);
  print("vector_add", "hand", bench::medianSeconds(11, [&] {
          float* __restrict r = hand.data();
          const float* __restrict x = a.data();
          const float* __restrict y = b.data();
          for (int64 i = 0; i < n; ++i)
            r[i] = x[i] + y[i];
        }));
#elif defined(WORKLOAD_DIFFUSION)
  const int64 rows = bench::kDiffusionRows, cols = bench::kDiffusionCols;
  const float coeff = bench::kDiffusionCoeff;
  auto f = bench::randomValues(rows * cols, 3);
  std::vector<float> g(rows * cols), hand(rows * cols);
  auto F = arrayOf<2>(f.data(), {rows, cols}), G = arrayOf<2>(g.data(), {rows, cols});
  float k = coeff;
  void* args[] = {&F, &G, &k};
  const Dim3 grid{uint32((cols + 31) / 32), uint32((rows + 7) / 8)}, block{32, 8};
  print("diffusion", entry, bench::medianSeconds(11, [&] { runGrid(grid, block, args); }));
  bench::checkClose(entry, g, bench::referenceDiffusion(f, rows, cols, coeff, 1), 1e-5, 1e-5);
  print("diffusion", "hand", bench::medianSeconds(11, [&] {
          for (int64 r = 0; r < rows; ++r) {
            const float* __restrict cur = f.data() + r * cols;
            const float* __restrict up = f.data() + (r > 0 ? r - 1 : r) * cols;
            const float* __restrict dn = f.data() + (r < rows - 1 ? r + 1 : r) * cols;
            float* __restrict o = hand.data() + r * cols;
            auto cell = [&](int64 c, float left, float right) {
              const float v = cur[c];
              o[c] = v - coeff * (4.0f * v - up[c] - dn[c] - left - right);
            };
            cell(0, cur[0], cur[1]);
            for (int64 c = 1; c < cols - 1; ++c) {
              const float v = cur[c];
              o[c] = v - coeff * (4.0f * v - up[c] - dn[c] - cur[c - 1] - cur[c + 1]);
            }
            cell(cols - 1, cur[cols - 2], cur[cols - 1]);
          }
        }));
#elif defined(WORKLOAD_HISTOGRAM)
  const int64 n = bench::kHistogramSize, nbins = bench::kHistogramBins;
  auto v = bench::histogramValues(n, nbins, 7);
  std::vector<int32> bins(nbins), hand(nbins);
  auto V = arrayOf<1, int32>(v.data(), {n}), H = arrayOf<1, int32>(bins.data(), {nbins});
  void* args[] = {&V, &H};
  const Dim3 grid{64}, block{256};
  print(
      "histogram", entry,
      bench::medianSeconds(
          5, [&] { std::fill(bins.begin(), bins.end(), 0); }, [&] { runGrid(grid, block, args); }));
  if (bins != bench::referenceHistogram(v, nbins))
    bench::fail(std::string(entry) + ": the bins differ from the reference");
  print("histogram", "hand", bench::medianSeconds(5, [&] {
          std::fill(hand.begin(), hand.end(), 0);
          for (int64 i = 0; i < n; ++i)
            ++hand[static_cast<std::size_t>(v[i])];
        }));
#elif defined(WORKLOAD_MATMUL)
  const int64 n = bench::kMatmulSize;
  auto a = bench::randomValues(n * n, 4), b = bench::randomValues(n * n, 5);
  std::vector<float> c(n * n), hand(n * n);
  auto A = arrayOf<2>(a.data(), {n, n}), B = arrayOf<2>(b.data(), {n, n});
  auto C = arrayOf<2>(c.data(), {n, n});
  void* args[] = {&A, &B, &C};
  const Dim3 grid{uint32(n / 16), uint32(n / 16)}, block{16, 16};
  print("matmul", entry, bench::medianSeconds(5, [&] { runGrid(grid, block, args); }));
  bench::checkClose(entry, c, bench::referenceMatmul(a, b, n), 1e-4, 1e-3);
  print("matmul", "hand", bench::medianSeconds(5, [&] {
          for (int64 i = 0; i < n; ++i) {
            float* __restrict ci = hand.data() + i * n;
            for (int64 j = 0; j < n; ++j)
              ci[j] = 0.0f;
            for (int64 kk = 0; kk < n; ++kk) {
              const float aik = a[i * n + kk];
              const float* __restrict bk = b.data() + kk * n;
              for (int64 j = 0; j < n; ++j)
                ci[j] += aik * bk[j];
            }
          }
        }));
#elif defined(WORKLOAD_REDUCTION)
  const int64 n = bench::kReductionSize;
  auto a = bench::randomValues(n, 6);
  float total = 0.0f;
  auto A = arrayOf<1>(a.data(), {n}), T = arrayOf<1>(&total, {1});
  void* args[] = {&A, &T};
  const Dim3 grid{uint32(n / 256)}, block{256};
  print("reduction", entry,
        bench::medianSeconds(
            5, [&] { total = 0.0f; }, [&] { runGrid(grid, block, args); }));
  const double want = bench::referenceSum(a);
  if (!(std::fabs(total - want) <= 1e-4 * want))
    bench::fail(std::string(entry) + ": " + std::to_string(total) + ", expected " +
                std::to_string(want));
  volatile float sink = 0.0f;
  print("reduction", "hand", bench::medianSeconds(5, [&] {
          float s = 0.0f;
#pragma omp simd reduction(+ : s)
          for (int64 i = 0; i < n; ++i)
            s += a[i];
          sink = s;
        }));
#endif
  return 0;
}
