// cuda_reference: the GPU benchmark's workloads as hand-written CUDA C++ (the kernels of
// reference_kernels.cuh: the algorithms of bench/cpu/kernels/*.pyk, block for block), launched
// with the CUDA runtime API. The baseline pyk's CUDA backend is measured against.
//
// build: nvcc -O3 -arch=sm_90 -o cuda_reference bench/gpu/cuda_reference.cu
//        (run_gpu_bench.sh does this into the build folder)
// usage: cuda_reference          (device: CUDA_VISIBLE_DEVICES / the first device)
//
// Inputs are bench_common.h's randomValues (mt19937, the same seeds as the CPU benchmark); every
// result is checked against bench_common.h's serial references before it is timed. Each kernel
// runs 3 times untimed (warm-up), then `reps` times between two CUDA events on the default stream;
// a line reports the median. Setup between repetitions (resetting the diffusion field, zeroing the
// reduction's total) is enqueued before the start event and is not timed.
//
// Output: one line per measurement, bench_common.h's report() format,
//   RESULT|workload|CUDA C++ (nvcc -O3)|median seconds|repetitions|note
// workloads (bytes: what must move, each input read once and each output written once):
//   vector_add            10M float32, 256 threads/block            bytes 3 * 4 * 10M
//   diffusion             2000x2000, all 100 steps (100 launches between the events, buffers
//                         swapped), 32x8 blocks                     bytes 100 * 2 * 4 * 2000^2
//   diffusion_step        one of those steps                        bytes 2 * 4 * 2000^2
//   matmul                512x512, 16x16 tiles                      bytes 3 * 4 * 512^2
//   reduction             16M float32, 256 threads, atomic/block    bytes 4 * 16M + 4
//   d2d_copy              cudaMemcpyAsync device to device, 256 MiB bytes 2 * 256 MiB (read+write)
//   empty_kernel          event time of one launch of an empty kernel (1 block of 1 thread)
//   launch_overhead       host wall time per launch: a synchronize, then 1000 back-to-back
//                         launches of the empty kernel and one synchronize, divided by 1000
//                         (median over batches)
//   launch_overhead_3args the same with an empty kernel of three pointer arguments
// The note holds "GB/s=X" (bytes / median seconds / 1e9) where bytes are given above, and
// "GFLOP/s=X" for matmul (2 * 512^3 flops); gpu_bench_table.py recomputes both from the same
// byte counts, for every implementation alike.
#include "../cpu/bench_common.h"
#include "reference_kernels.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const std::string kImpl = "CUDA C++ (nvcc -O3)";

void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "FAILED: %s at %s:%d: %s (%s)\n", call, file, line,
                 cudaGetErrorString(err), cudaGetErrorName(err));
    std::exit(1);
  }
}
#define CUDA_CHECK(call) check((call), #call, __FILE__, __LINE__)
// After a launch: the launch's own error (bad configuration and the like).
#define CUDA_CHECK_LAUNCH() check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

// A device buffer of floats, freed at the end of its scope.
struct DeviceBuffer {
  float* ptr = nullptr;
  std::size_t count = 0;
  explicit DeviceBuffer(std::size_t n) : count(n) {
    CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(float)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(ptr); }
  std::size_t bytes() const { return count * sizeof(float); }
  void upload(const std::vector<float>& host) {
    CUDA_CHECK(cudaMemcpy(ptr, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<float> download() const {
    std::vector<float> host(count);
    CUDA_CHECK(cudaMemcpy(host.data(), ptr, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
};

// The median, in seconds, of `reps` event-timed runs of body() after 3 untimed ones; setup() runs
// before each, outside the events.
template <typename Setup, typename Body>
double eventMedian(int reps, Setup&& setup, Body&& body) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int r = 0; r < 3; ++r) {
    setup();
    body();
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    setup();
    CUDA_CHECK(cudaEventRecord(start));
    body();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms * 1e-3);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
}
template <typename Body>
double eventMedian(int reps, Body&& body) {
  return eventMedian(
      reps, [] {}, body);
}

std::string gbps(double bytes, double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "GB/s=%.1f", bytes / seconds / 1e9);
  return text;
}

unsigned blocksFor(std::int64_t n, int per) {
  return static_cast<unsigned>((n + per - 1) / per);
}

// ---- the workloads ----------------------------------------------------------------------------

void runVectorAdd() {
  const std::int64_t n = bench::kVectorSize;
  const auto ha = bench::randomValues(n, 1), hb = bench::randomValues(n, 2);
  DeviceBuffer a(n), b(n), out(n);
  a.upload(ha);
  b.upload(hb);
  const unsigned blocks = blocksFor(n, kVectorTPB);
  auto run = [&] {
    vector_add<<<blocks, kVectorTPB>>>(a.ptr, b.ptr, out.ptr, static_cast<int>(n));
    CUDA_CHECK_LAUNCH();
  };
  run();
  bench::checkClose("CUDA vector_add", out.download(), bench::referenceVectorAdd(ha, hb), 0, 0);
  const int reps = 200;
  const double t = eventMedian(reps, run);
  bench::report("vector_add", kImpl, t, reps,
                gbps(3.0 * 4.0 * static_cast<double>(n), t) + "; 256 threads/block");
}

void runDiffusion() {
  const std::int64_t rows = bench::kDiffusionRows, cols = bench::kDiffusionCols;
  const int steps = bench::kDiffusionSteps;
  const auto init = bench::randomValues(rows * cols, 3);
  DeviceBuffer initial(rows * cols), f(rows * cols), g(rows * cols);
  initial.upload(init);
  const dim3 block(kDiffusionBX, kDiffusionBY);
  const dim3 grid(blocksFor(cols, kDiffusionBX), blocksFor(rows, kDiffusionBY));
  auto step = [&](const float* from, float* to) {
    diffusion_step<<<grid, block>>>(from, to, static_cast<int>(rows), static_cast<int>(cols),
                                    bench::kDiffusionCoeff);
    CUDA_CHECK_LAUNCH();
  };
  // `steps` steps from the initial field; with an even count the result is in f.
  auto reset = [&] {
    CUDA_CHECK(cudaMemcpyAsync(f.ptr, initial.ptr, f.bytes(), cudaMemcpyDeviceToDevice));
  };
  auto run = [&] {
    for (int s = 0; s < steps; ++s) {
      if (s % 2 == 0)
        step(f.ptr, g.ptr);
      else
        step(g.ptr, f.ptr);
    }
  };
  static_assert(bench::kDiffusionSteps % 2 == 0, "the result is read from f");
  reset();
  run();
  bench::checkClose("CUDA diffusion", f.download(),
                    bench::referenceDiffusion(init, rows, cols, bench::kDiffusionCoeff, steps),
                    1e-5, 1e-5);
  const double cells = static_cast<double>(rows * cols);
  const int reps = 30;
  const double t = eventMedian(reps, reset, run);
  bench::report("diffusion", kImpl, t, reps,
                gbps(steps * 2.0 * 4.0 * cells, t) + "; " + std::to_string(steps) +
                    " launches between the events; 32x8 blocks");
  const int stepReps = 200;
  const double ts = eventMedian(stepReps, [&] { step(f.ptr, g.ptr); });
  bench::report("diffusion_step", kImpl, ts, stepReps, gbps(2.0 * 4.0 * cells, ts) + "; one step");
}

void runMatmul() {
  const std::int64_t n = bench::kMatmulSize;
  const auto ha = bench::randomValues(n * n, 4), hb = bench::randomValues(n * n, 5);
  DeviceBuffer a(n * n), b(n * n), c(n * n);
  a.upload(ha);
  b.upload(hb);
  const dim3 block(kMatmulTPB, kMatmulTPB);
  const dim3 grid(blocksFor(n, kMatmulTPB), blocksFor(n, kMatmulTPB));
  const int ni = static_cast<int>(n);
  auto run = [&] {
    matmul<<<grid, block>>>(a.ptr, b.ptr, c.ptr, ni, ni, ni);
    CUDA_CHECK_LAUNCH();
  };
  run();
  bench::checkClose("CUDA matmul", c.download(), bench::referenceMatmul(ha, hb, n), 1e-4, 1e-3);
  const int reps = 200;
  const double t = eventMedian(reps, run);
  char flops[64];
  std::snprintf(flops, sizeof flops, "GFLOP/s=%.1f",
                2.0 * static_cast<double>(n * n * n) / t / 1e9);
  bench::report("matmul", kImpl, t, reps,
                std::string(flops) + "; " + gbps(3.0 * 4.0 * static_cast<double>(n * n), t) +
                    "; 16x16 tiles");
}

void runReduction() {
  const std::int64_t n = bench::kReductionSize;
  const auto ha = bench::randomValues(n, 6);
  const double want = bench::referenceSum(ha);
  DeviceBuffer a(n), total(1);
  a.upload(ha);
  const unsigned blocks = blocksFor(n, kReductionTPB);
  auto zero = [&] { CUDA_CHECK(cudaMemsetAsync(total.ptr, 0, sizeof(float))); };
  auto run = [&] {
    block_sum<<<blocks, kReductionTPB>>>(a.ptr, total.ptr, static_cast<int>(n));
    CUDA_CHECK_LAUNCH();
  };
  auto verify = [&](const char* when) {
    const float got = total.download()[0];
    if (!(std::fabs(got - want) <= 1e-4 * want))
      bench::fail(std::string("CUDA reduction (") + when + "): " + std::to_string(got) +
                  ", expected " + std::to_string(want));
  };
  zero();
  run();
  verify("first run");
  const int reps = 200;
  const double t = eventMedian(reps, zero, run);
  verify("last timed run");
  bench::report("reduction", kImpl, t, reps,
                gbps(4.0 * static_cast<double>(n) + 4.0, t) + "; 256 threads, atomic per block");
}

void runDeviceCopy() {
  const std::size_t count = std::size_t{256} << 20 >> 2; // 256 MiB of floats
  DeviceBuffer src(count), dst(count);
  CUDA_CHECK(cudaMemset(src.ptr, 0x3c, src.bytes()));
  const int reps = 100;
  const double t = eventMedian(reps, [&] {
    CUDA_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, src.bytes(), cudaMemcpyDeviceToDevice));
  });
  if (dst.download() != src.download())
    bench::fail("CUDA device-to-device copy: the copy differs from its source");
  bench::report("d2d_copy", kImpl, t, reps,
                gbps(2.0 * static_cast<double>(src.bytes()), t) +
                    "; cudaMemcpyAsync 256 MiB, bytes read + written");
}

void runLaunchOverhead() {
  const int reps = 1000;
  const double t = eventMedian(reps, [] {
    empty_kernel<<<1, 1>>>();
    CUDA_CHECK_LAUNCH();
  });
  bench::report("empty_kernel", kImpl, t, reps, "event time of one launch, 1 block of 1 thread");

  DeviceBuffer x(1), y(1), z(1);
  const int perBatch = 1000, batches = 21;
  auto hostPerLaunch = [&](auto&& launch) {
    for (int i = 0; i < perBatch; ++i) // warm-up
      launch();
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> times;
    for (int b = 0; b < batches; ++b) {
      CUDA_CHECK(cudaDeviceSynchronize());
      const double start = bench::now();
      for (int i = 0; i < perBatch; ++i)
        launch();
      CUDA_CHECK(cudaDeviceSynchronize());
      times.push_back((bench::now() - start) / perBatch);
      CUDA_CHECK_LAUNCH();
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  };
  const std::string note = "host wall time per launch: " + std::to_string(perBatch) +
                           " back-to-back launches and a synchronize, median of " +
                           std::to_string(batches) + " batches; 1 block of 1 thread";
  bench::report("launch_overhead", kImpl, hostPerLaunch([] { empty_kernel<<<1, 1>>>(); }), batches,
                note);
  bench::report("launch_overhead_3args", kImpl,
                hostPerLaunch([&] { empty_kernel_3args<<<1, 1>>>(x.ptr, y.ptr, z.ptr); }), batches,
                note + "; 3 pointer arguments");
}

} // namespace

int main() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int runtimeVersion = 0, driverVersion = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&runtimeVersion));
  CUDA_CHECK(cudaDriverGetVersion(&driverVersion));
  std::fprintf(stderr, "cuda_reference: %s (sm_%d%d, %d SMs), runtime %d, driver %d\n", prop.name,
               prop.major, prop.minor, prop.multiProcessorCount, runtimeVersion, driverVersion);
  CUDA_CHECK(cudaFree(nullptr)); // the context exists before anything is timed

  runDeviceCopy();
  runLaunchOverhead();
  runVectorAdd();
  runDiffusion();
  runMatmul();
  runReduction();
  return 0;
}
