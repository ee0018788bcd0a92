// bench_common: what the CPU-backend benchmark programs share: the workloads' sizes, deterministic
// inputs, serial reference results to check against, median timing and the result lines that
// run_cpu_bench.sh collects ("RESULT|workload|implementation|median seconds|repetitions|note").
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace bench {

// The workloads (the sizes).
inline constexpr std::int64_t kVectorSize = 10'000'000; // vector add, float32
inline constexpr std::int64_t kDiffusionRows = 2000;    // diffusion field, float32
inline constexpr std::int64_t kDiffusionCols = 2000;
inline constexpr int kDiffusionSteps = 100;
inline constexpr float kDiffusionCoeff = 0.2f;
inline constexpr std::int64_t kMatmulSize = 512;                 // square matrices, float32
inline constexpr std::int64_t kReductionSize = 16 * 1024 * 1024; // float32
inline constexpr std::int64_t kHistogramSize = 16 * 1024 * 1024; // int32 values in [0, 256)
inline constexpr std::int64_t kHistogramBins = 256;

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs setup() untimed and body() timed, `reps` times; the median of the timed parts.
template <typename Setup, typename Body>
double medianSeconds(int reps, Setup&& setup, Body&& body) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    setup();
    const double start = now();
    body();
    times.push_back(now() - start);
  }
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}
template <typename Body>
double medianSeconds(int reps, Body&& body) {
  return medianSeconds(
      reps, [] {}, body);
}

inline void report(const std::string& workload, const std::string& impl, double seconds, int reps,
                   const std::string& note = "") {
  std::printf("RESULT|%s|%s|%.6g|%d|%s\n", workload.c_str(), impl.c_str(), seconds, reps,
              note.c_str());
  std::fflush(stdout);
}

[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "FAILED: %s\n", message.c_str());
  std::exit(1);
}

// Uniform values in [0, 1), the same for every program given the same seed.
inline std::vector<float> randomValues(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v)
    x = static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f);
  return v;
}

// Every element within atol + rtol * |want|.
inline void checkClose(const std::string& what, const std::vector<float>& got,
                       const std::vector<float>& want, double rtol, double atol) {
  if (got.size() != want.size())
    fail(what + ": " + std::to_string(got.size()) + " values, expected " +
         std::to_string(want.size()));
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w)))
      fail(what + ": element " + std::to_string(i) + " is " + std::to_string(g) + ", expected " +
           std::to_string(w));
  }
}

// ---- serial references ------------------------------------------------------------------------

inline std::vector<float> referenceVectorAdd(const std::vector<float>& a,
                                             const std::vector<float>& b) {
  std::vector<float> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    c[i] = a[i] + b[i];
  return c;
}

// `steps` explicit steps; a missing neighbour (beyond the field's edge) equals the cell. The same
// float32 operations in the same order as every implementation.
inline std::vector<float> referenceDiffusion(std::vector<float> field, std::int64_t rows,
                                             std::int64_t cols, float coeff, int steps) {
  std::vector<float> next(field.size());
  for (int s = 0; s < steps; ++s) {
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c) {
        const float v = field[r * cols + c];
        const float up = r > 0 ? field[(r - 1) * cols + c] : v;
        const float down = r < rows - 1 ? field[(r + 1) * cols + c] : v;
        const float left = c > 0 ? field[r * cols + c - 1] : v;
        const float right = c < cols - 1 ? field[r * cols + c + 1] : v;
        const float lap = 4.0f * v - up - down - left - right;
        next[r * cols + c] = v - coeff * lap;
      }
    field.swap(next);
  }
  return field;
}

// C = A @ B for n x n matrices, accumulated in double.
inline std::vector<float> referenceMatmul(const std::vector<float>& a, const std::vector<float>& b,
                                          std::int64_t n) {
  std::vector<double> acc(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      for (std::int64_t j = 0; j < n; ++j)
        acc[i * n + j] += aik * b[k * n + j];
    }
  return std::vector<float>(acc.begin(), acc.end());
}

// Values in [0, bins), skewed as real data is (a few bins hold most of them): the same for every
// program given the same seed.
inline std::vector<std::int32_t> histogramValues(std::int64_t n, std::int64_t bins, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  for (std::int32_t& x : v) {
    const double u = static_cast<double>(rng() >> 8) * (1.0 / 16777216.0);
    x = static_cast<std::int32_t>(static_cast<double>(bins) * u * u);
  }
  return v;
}

inline std::vector<std::int32_t> referenceHistogram(const std::vector<std::int32_t>& values,
                                                    std::int64_t bins) {
  std::vector<std::int32_t> h(static_cast<std::size_t>(bins), 0);
  for (std::int32_t x : values)
    ++h[static_cast<std::size_t>(x)];
  return h;
}

inline double referenceSum(const std::vector<float>& a) {
  double s = 0.0;
  for (float x : a)
    s += x;
  return s;
}

} // namespace bench
