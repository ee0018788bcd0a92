// openmp_reference: the CPU benchmark's workloads written by hand for the CPU in C++ with OpenMP
// (built with -O3 -march=native -fopenmp, GNU dialect as a plain `g++` would use), the way one
// would write them for a CPU rather than transliterated from the CUDA kernels: vector add as one
// parallel loop, diffusion as a parallel loop over rows with a contiguous inner loop, matmul in
// i-k-j order (the inner loop streams a row of B and of C), the sum as an OpenMP simd reduction.
// Same sizes, inputs and checks as pyk_bench_cpu_backend. Also STREAM's triad and copy, the
// machine's bandwidth that the memory-bound workloads are measured against.
//
// usage: pyk_bench_openmp_reference   (threads: OMP_NUM_THREADS, default every core)
#include "bench_common.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using bench::kDiffusionCoeff;
using std::int64_t;

void vectorAdd(const float* __restrict a, const float* __restrict b, float* __restrict c,
               int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

// One step: rows in parallel; the first and last column handled apart so the inner loop has no
// branch. A neighbour beyond the edge equals the cell (clamped index).
void diffusionStep(const float* __restrict f, float* __restrict out, int64_t rows, int64_t cols,
                   float coeff) {
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const float* __restrict cur = f + r * cols;
    const float* __restrict up = f + (r > 0 ? r - 1 : r) * cols;
    const float* __restrict down = f + (r < rows - 1 ? r + 1 : r) * cols;
    float* __restrict o = out + r * cols;
    auto cell = [&](int64_t c, float left, float right) {
      const float v = cur[c];
      const float lap = 4.0f * v - up[c] - down[c] - left - right;
      o[c] = v - coeff * lap;
    };
    cell(0, cur[0], cols > 1 ? cur[1] : cur[0]);
    for (int64_t c = 1; c < cols - 1; ++c) {
      const float v = cur[c];
      const float lap = 4.0f * v - up[c] - down[c] - cur[c - 1] - cur[c + 1];
      o[c] = v - coeff * lap;
    }
    if (cols > 1)
      cell(cols - 1, cur[cols - 2], cur[cols - 1]);
  }
}

void matmul(const float* __restrict a, const float* __restrict b, float* __restrict c, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    float* __restrict ci = c + i * n;
    for (int64_t j = 0; j < n; ++j)
      ci[j] = 0.0f;
    for (int64_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float* __restrict bk = b + k * n;
      for (int64_t j = 0; j < n; ++j)
        ci[j] += aik * bk[j];
    }
  }
}

// STREAM's kernels (McCalpin), on float32 arrays of vector add's size: the bandwidth a memory-
// bound kernel of this machine can reach. Triad moves what vector add moves (two arrays read, one
// written), copy one read and one written.
void streamTriad(float* __restrict a, const float* __restrict b, const float* __restrict c,
                 float scalar, int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i)
    a[i] = b[i] + scalar * c[i];
}

void streamCopy(float* __restrict a, const float* __restrict b, int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i)
    a[i] = b[i];
}

// A histogram as one would write it for a CPU: each thread counts into bins of its own, then
// the threads add theirs into the result.
void histogram(const std::int32_t* __restrict values, std::int32_t* __restrict bins, int64_t n,
               int64_t nbins) {
  std::fill(bins, bins + nbins, 0);
#pragma omp parallel
  {
    std::vector<std::int32_t> own(static_cast<std::size_t>(nbins), 0);
#pragma omp for schedule(static) nowait
    for (int64_t i = 0; i < n; ++i)
      ++own[static_cast<std::size_t>(values[i])];
#pragma omp critical
    for (int64_t b = 0; b < nbins; ++b)
      bins[b] += own[static_cast<std::size_t>(b)];
  }
}

float sum(const float* __restrict a, int64_t n) {
  float s = 0.0f;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (int64_t i = 0; i < n; ++i)
    s += a[i];
  return s;
}

} // namespace

int main() {
  const std::string note = "OMP threads " + std::to_string(omp_get_max_threads());
  std::fprintf(stderr, "openmp_reference: %d threads\n", omp_get_max_threads());

  { // vector add
    const int64_t n = bench::kVectorSize;
    const auto a = bench::randomValues(n, 1), b = bench::randomValues(n, 2);
    std::vector<float> c(n, 0.0f);
    vectorAdd(a.data(), b.data(), c.data(), n);
    bench::checkClose("openmp vector_add", c, bench::referenceVectorAdd(a, b), 0, 0);
    const int reps = 30;
    const double t =
        bench::medianSeconds(reps, [&] { vectorAdd(a.data(), b.data(), c.data(), n); });
    bench::report("vector_add", "openmp", t, reps, note);
  }
  { // STREAM triad and copy: arrays first touched by the threads that use them, as STREAM does
    const int64_t n = bench::kVectorSize;
    std::vector<float> a(n), b(n), c(n);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      a[i] = 0.0f;
      b[i] = 1.0f;
      c[i] = 2.0f;
    }
    const int reps = 30;
    double t =
        bench::medianSeconds(reps, [&] { streamTriad(a.data(), b.data(), c.data(), 3.0f, n); });
    if (a[n / 2] != 7.0f)
      bench::fail("stream triad: " + std::to_string(a[n / 2]) + ", expected 7");
    bench::report("stream_triad", "openmp", t, reps, note + "; bytes " + std::to_string(12 * n));
    t = bench::medianSeconds(reps, [&] { streamCopy(a.data(), b.data(), n); });
    if (a[n / 2] != 1.0f)
      bench::fail("stream copy: " + std::to_string(a[n / 2]) + ", expected 1");
    bench::report("stream_copy", "openmp", t, reps, note + "; bytes " + std::to_string(8 * n));
  }
  { // diffusion
    const int64_t rows = bench::kDiffusionRows, cols = bench::kDiffusionCols;
    const int steps = bench::kDiffusionSteps;
    const auto init = bench::randomValues(rows * cols, 3);
    std::vector<float> f(init), g(init.size(), 0.0f);
    auto run = [&] {
      for (int s = 0; s < steps; ++s) {
        diffusionStep(f.data(), g.data(), rows, cols, kDiffusionCoeff);
        f.swap(g);
      }
    };
    run();
    bench::checkClose("openmp diffusion", f,
                      bench::referenceDiffusion(init, rows, cols, kDiffusionCoeff, steps), 1e-5,
                      1e-5);
    const int reps = 5;
    const double t = bench::medianSeconds(
        reps, [&] { f = init; }, run);
    bench::report("diffusion", "openmp", t, reps, note);
  }
  { // matmul
    const int64_t n = bench::kMatmulSize;
    const auto a = bench::randomValues(n * n, 4), b = bench::randomValues(n * n, 5);
    std::vector<float> c(n * n, 0.0f);
    matmul(a.data(), b.data(), c.data(), n);
    bench::checkClose("openmp matmul", c, bench::referenceMatmul(a, b, n), 1e-4, 1e-3);
    const int reps = 20;
    const double t = bench::medianSeconds(reps, [&] { matmul(a.data(), b.data(), c.data(), n); });
    bench::report("matmul", "openmp", t, reps, note);
  }
  { // reduction
    const int64_t n = bench::kReductionSize;
    const auto a = bench::randomValues(n, 6);
    const double want = bench::referenceSum(a);
    float s = sum(a.data(), n);
    if (std::fabs(s - want) > 1e-4 * want)
      bench::fail("openmp reduction: " + std::to_string(s) + ", expected " + std::to_string(want));
    const int reps = 30;
    const double t = bench::medianSeconds(reps, [&] { s = sum(a.data(), n); });
    if (std::fabs(s - want) > 1e-4 * want)
      bench::fail("openmp reduction (timed run): " + std::to_string(s));
    bench::report("reduction", "openmp", t, reps, note);
    // The same sum is what the kernel with its tree in a device function computes.
    bench::report("reduction_helper", "openmp", t, reps, note);
  }
  { // histogram
    const int64_t n = bench::kHistogramSize, nbins = bench::kHistogramBins;
    const auto values = bench::histogramValues(n, nbins, 7);
    const auto want = bench::referenceHistogram(values, nbins);
    std::vector<std::int32_t> bins(static_cast<std::size_t>(nbins));
    const int reps = 30;
    const double t =
        bench::medianSeconds(reps, [&] { histogram(values.data(), bins.data(), n, nbins); });
    if (bins != want)
      bench::fail("openmp histogram: the bins differ from the reference");
    bench::report("histogram", "openmp", t, reps, note);
  }
  return 0;
}
