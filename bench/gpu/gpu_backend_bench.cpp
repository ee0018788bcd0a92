// gpu_backend_bench: pyk's CUDA backend on the benchmark kernels of bench/cpu/kernels/ (vector add,
// shared-memory diffusion, tiled matmul, block reduction) and an empty kernel, at bench_common.h's
// sizes. Each workload is launched once untimed (it compiles), checked against the serial
// reference, then timed with CUDA events around each launch (median of many after warm-up). Also
// measured: a device-to-device copy's bandwidth (bytes read + written), the host-side cost of a
// launch (back-to-back launches of the empty kernel, and of vector_add with three arrays, over a
// synchronize), and compile times: cold (NVRTC, fresh disk cache), disk-cache hit (a new module of
// the same source) and memory hit (the lookup a launch does). Prints bench_common.h's RESULT
// lines, implementation "pyk"; extra figures go in the note as key=value.
//
// Workload names are those of bench/gpu/gpu_bench_table.py (d2d_copy, launch_overhead,
// launch_overhead_3args, empty_kernel, compile_cold:K, compile_warm:K, diffusion_step, ...).
//
// usage: PYK_BACKEND=cuda pyk_bench_gpu_backend [KERNEL_DIR]
//   --overhead-only   only the host-side figures (launch overhead, compile and cache times, 1,000
//                     diffusion steps as launches and as graph replays); with
//                     PYK_LIBCUDA naming the tests' fake driver
//                     (build/tests/libpyk_fake_libcuda.so) this runs without a GPU, measuring pyk's
//                     own host cost against a raw cuLaunchKernel of the same driver, and NVRTC's
//                     real compile times.
#include "../cpu/bench_common.h"
#include "raw_launch.h"

#include <pyk/pyk.hpp>

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

using std::int64_t;

#ifndef PYK_BENCH_KERNEL_DIR
#define PYK_BENCH_KERNEL_DIR "bench/cpu/kernels"
#endif
#ifndef PYK_BENCH_GPU_KERNEL_DIR
#define PYK_BENCH_GPU_KERNEL_DIR "bench/gpu/kernels"
#endif
std::filesystem::path kernelDir = PYK_BENCH_KERNEL_DIR;
std::filesystem::path gpuKernelDir = PYK_BENCH_GPU_KERNEL_DIR;

int64_t blocksFor(int64_t n, int64_t per) {
  return (n + per - 1) / per;
}

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The median of `reps` event-timed runs of body (each between two events on the default stream).
template <typename Body>
double eventMedianSeconds(int reps, Body&& body) {
  pyk::Event start = pyk::event(), end = pyk::event();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    start.record();
    body();
    end.record();
    times.push_back(start.elapsed_time(end) / 1000.0);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string gbps(double bytes, double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "GB/s=%.1f", bytes / seconds / 1e9);
  return text;
}

void vectorAdd(int reps) {
  const pyk::Module module = pyk::load(kernelDir / "vector_add.pyk");
  const pyk::Kernel kernel = module["vector_add"];
  const int64_t n = bench::kVectorSize;
  const auto ha = bench::randomValues(n, 1), hb = bench::randomValues(n, 2);
  const auto a = pyk::to_device(ha), b = pyk::to_device(hb);
  const auto out = pyk::device_array_like(a);
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 256)), pyk::Dim3(256)};
  kernel[shape](a, b, out);
  bench::checkClose("pyk vector_add", out.copy_to_host(), bench::referenceVectorAdd(ha, hb), 0, 0);
  for (int i = 0; i < 10; ++i)
    kernel[shape](a, b, out);
  const double t = eventMedianSeconds(reps, [&] { kernel[shape](a, b, out); });
  bench::report("vector_add", "pyk", t, reps, gbps(3.0 * 4 * n, t));
}

// The diffusion workload: its kernel, the field's first values and two device fields.
struct Diffusion {
  pyk::Module module = pyk::load(kernelDir / "diffusion.pyk");
  pyk::Kernel kernel = module["diffusion_step"];
  int64_t rows = bench::kDiffusionRows, cols = bench::kDiffusionCols;
  std::vector<float> init = bench::randomValues(rows * cols, 3);
  pyk::DeviceArray<float, 2> f = pyk::to_device<float, 2>(init, {rows, cols});
  pyk::DeviceArray<float, 2> g = pyk::device_array_like(f);
  pyk::LaunchShape shape{pyk::Dim3(blocksFor(cols, 32), blocksFor(rows, 8)), pyk::Dim3(32, 8)};
  float coeff = bench::kDiffusionCoeff;
};

void diffusion(int reps) {
  Diffusion d;
  auto& [module, kernel, rows, cols, init, f, g, shape, coeff] = d;
  const int steps = bench::kDiffusionSteps;
  auto run = [&] {
    for (int s = 0; s < steps; ++s) {
      kernel[shape](f, g, coeff);
      std::swap(f, g);
    }
  };
  run();
  bench::checkClose("pyk diffusion", f.copy_to_host(),
                    bench::referenceDiffusion(init, rows, cols, coeff, steps), 1e-5, 1e-5);
  const double t = eventMedianSeconds(reps, run);
  bench::report("diffusion", "pyk", t, reps,
                gbps(2.0 * 4 * static_cast<double>(rows * cols) * steps, t));
  const double ts = eventMedianSeconds(reps * steps, [&] {
    kernel[shape](f, g, coeff);
    std::swap(f, g);
  });
  bench::report("diffusion_step", "pyk", ts, reps * steps,
                gbps(2.0 * 4 * static_cast<double>(rows * cols), ts) + "; one step");
}

// 1,000 diffusion steps on a stream: one launch a step against replays of a captured graph of
// two steps (pyk/graph.hpp), wall time per step (to the stream's end); both fields must agree.
void diffusionGraph(int reps) {
  Diffusion d;
  auto& [module, kernel, rows, cols, init, f, g, shape, coeff] = d;
  constexpr int kSteps = 1000;
  const pyk::Stream s = pyk::stream();
  auto plain = [&] {
    for (int step = 0; step < kSteps; step += 2) {
      kernel.launch(shape.grid, shape.block, s)(f, g, coeff);
      kernel.launch(shape.grid, shape.block, s)(g, f, coeff);
    }
    s.synchronize();
  };
  const pyk::Graph two = pyk::capture(s, [&] {
    kernel.launch(shape.grid, shape.block, s)(f, g, coeff);
    kernel.launch(shape.grid, shape.block, s)(g, f, coeff);
  });
  auto replayed = [&] {
    for (int step = 0; step < kSteps; step += 2)
      two.launch(s);
    s.synchronize();
  };
  plain();
  const std::vector<float> byLaunches = f.copy_to_host();
  f.copy_from_host(init.data());
  replayed();
  if (f.copy_to_host() != byLaunches)
    bench::fail("pyk diffusion: 1,000 steps from a graph differ from 1,000 launches");
  const double tPlain = bench::medianSeconds(reps, plain) / kSteps;
  const double tGraph = bench::medianSeconds(reps, replayed) / kSteps;
  bench::report("diffusion_1000_launches", "pyk", tPlain, reps,
                "wall time per step of 1,000, one launch each, on a stream");
  bench::report("diffusion_1000_graph", "pyk", tGraph, reps,
                "wall time per step of 1,000, replays of a captured graph of two steps");
}

void matmul(int reps) {
  const pyk::Module module = pyk::load(kernelDir / "matmul.pyk");
  const pyk::Kernel kernel = module["matmul"];
  const int64_t n = bench::kMatmulSize;
  const auto ha = bench::randomValues(n * n, 4), hb = bench::randomValues(n * n, 5);
  const auto a = pyk::to_device<float, 2>(ha, {n, n}), b = pyk::to_device<float, 2>(hb, {n, n});
  const auto c = pyk::device_array_like(a);
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 16), blocksFor(n, 16)), pyk::Dim3(16, 16)};
  kernel[shape](a, b, c);
  bench::checkClose("pyk matmul", c.copy_to_host(), bench::referenceMatmul(ha, hb, n), 1e-4, 1e-3);
  for (int i = 0; i < 10; ++i)
    kernel[shape](a, b, c);
  const double t = eventMedianSeconds(reps, [&] { kernel[shape](a, b, c); });
  char note[64];
  std::snprintf(note, sizeof note, "GFLOP/s=%.0f", 2.0 * n * n * n / t / 1e9);
  bench::report("matmul", "pyk", t, reps, note);
}

void reduction(int reps) {
  const pyk::Module module = pyk::load(kernelDir / "reduction.pyk");
  const pyk::Kernel kernel = module["block_sum"];
  const int64_t n = bench::kReductionSize;
  const auto ha = bench::randomValues(n, 6);
  const double want = bench::referenceSum(ha);
  const auto a = pyk::to_device(ha);
  auto total = pyk::device_array<float>(1);
  const float zero = 0.0f;
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 256)), pyk::Dim3(256)};
  total.copy_from_host(&zero);
  kernel[shape](a, total);
  const float got = total.copy_to_host()[0];
  if (!(std::fabs(got - want) <= 1e-4 * want))
    bench::fail("pyk reduction: " + std::to_string(got) + ", expected " + std::to_string(want));
  const double t = eventMedianSeconds(reps, [&] { kernel[shape](a, total); });
  bench::report("reduction", "pyk", t, reps, gbps(4.0 * n, t));
}

void deviceCopy(int reps) {
  const int64_t n = 64 * 1024 * 1024; // 256 MiB of float32
  auto a = pyk::device_array<float>(n), b = pyk::device_array<float>(n);
  for (int i = 0; i < 3; ++i)
    b.copy_from_device(a);
  const double t = eventMedianSeconds(reps, [&] { b.copy_from_device(a); });
  bench::report("d2d_copy", "pyk", t, reps, gbps(2.0 * 4 * n, t));
}

// The host's cost of a launch: `count` back-to-back launches, over a synchronize, per launch.
template <typename Launch>
double hostSecondsPerLaunch(int count, Launch&& launch) {
  for (int i = 0; i < 100; ++i)
    launch();
  pyk::synchronize();
  std::vector<double> per;
  for (int round = 0; round < 7; ++round) {
    const double start = bench::now();
    for (int i = 0; i < count; ++i)
      launch();
    per.push_back((bench::now() - start) / count);
    pyk::synchronize();
  }
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}

// The same launches through the Driver API alone (cuLaunchKernel from the driver pyk uses, on the
// function pyk loaded): pyk's overhead is the difference.

void launchOverhead(int count, bool eventTime) {
  // bench/gpu/kernels/empty.pyk: the kernels the references launch (1 block of 1 thread).
  const pyk::Module module = pyk::load(gpuKernelDir / "empty.pyk");
  const pyk::Kernel empty = module["empty_kernel"];
  const pyk::Kernel empty3 = module["empty_kernel_3args"];
  const auto a = pyk::device_array<float>(1024), b = pyk::device_array<float>(1024),
             c = pyk::device_array<float>(1024);
  const pyk::LaunchShape one{pyk::Dim3(1), pyk::Dim3(1)};
  const double tEmpty = hostSecondsPerLaunch(count, [&] { empty[one](); });
  const double t3 = hostSecondsPerLaunch(count, [&] { empty3[one](a, b, c); });

  // Raw cuLaunchKernel of the same empty kernel (the CUfunction pyk loaded).
  const bench::RawLaunch launch = bench::rawLaunch();
  void* function = empty.cuda_function({});
  const double tRaw = hostSecondsPerLaunch(count, [&] {
    if (launch(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr) != 0)
      bench::fail("raw cuLaunchKernel failed");
  });
  char note[160];
  std::snprintf(note, sizeof note,
                "host time per launch; a raw cuLaunchKernel of the same function: %.3f us",
                tRaw * 1e6);
  bench::report("launch_overhead", "pyk", tEmpty, count, note);
  bench::report("launch_overhead_3args", "pyk", t3, count, "host time per launch");
  if (!eventTime)
    return;
  const double tEvent = eventMedianSeconds(200, [&] { empty[one](); });
  bench::report("empty_kernel", "pyk", tEvent, 200,
                "event time of one launch, 1 block of 1 thread");
}

// Compile times of a small kernel: cold (NVRTC; the disk cache is a fresh folder), disk hit (a
// new module of the same source: specialization, code generation, cache read, module load), and
// the lookup a launch makes when the kernel is loaded (memory hit).
void compileTimes(int reps) {
  char folder[] = "/tmp/pyk-gpu-bench-cache-XXXXXX";
  if (::mkdtemp(folder) == nullptr)
    bench::fail("mkdtemp");
  pyk::RuntimeSettings settings = pyk::settings();
  settings.cache_folder = folder;
  pyk::set_settings(settings);
  const std::string source = readText(kernelDir / "vector_add.pyk");
  auto a = pyk::device_array<float>(1024);
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(a), pyk::KernelArgument::of(a),
                                      pyk::KernelArgument::of(a)};
  std::vector<double> cold, disk;
  for (int r = 0; r < reps; ++r) {
    // A source of its own each time (a comment changes the CUDA C++ through its #line text).
    const std::string unique = source + "\n# run " + std::to_string(r) + "\n";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    std::filesystem::permissions(folder, std::filesystem::perms::owner_all);
    {
      const pyk::Module m = pyk::loads(unique, "cold.pyk");
      const double start = bench::now();
      (void)m["vector_add"].cuda_target(args);
      cold.push_back(bench::now() - start);
    }
    const pyk::Module m = pyk::loads(unique, "cold.pyk");
    const double start = bench::now();
    (void)m["vector_add"].cuda_target(args);
    disk.push_back(bench::now() - start);
  }
  std::sort(cold.begin(), cold.end());
  std::sort(disk.begin(), disk.end());
  const pyk::Module m = pyk::loads(source, "warm.pyk");
  const pyk::Kernel k = m["vector_add"];
  (void)k.cuda_target(args);
  const int lookups = 100000;
  const double start = bench::now();
  for (int i = 0; i < lookups; ++i)
    (void)k.cuda_target(args); // the lookup, plus copying a short string
  const double memory = (bench::now() - start) / lookups;
  std::filesystem::remove_all(folder);
  bench::report("compile_cold:vector_add", "pyk", cold[cold.size() / 2], reps,
                "specialize + emit + NVRTC to a cubin + module load, empty disk cache");
  bench::report("compile_warm:vector_add", "pyk", disk[disk.size() / 2], reps,
                "specialize + emit + disk-cache read + module load (a new module, as a new "
                "process would)");
  bench::report("compile_memory_hit", "pyk", memory, lookups, "lookup by argument signature");
}

} // namespace

int main(int argc, char** argv) {
  bool overheadOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--overhead-only") == 0)
      overheadOnly = true;
    else
      kernelDir = argv[i];
  }
  try {
    if (pyk::current_backend() != pyk::Backend::Cuda)
      bench::fail("pyk's CUDA backend is not available: " + pyk::cuda_unavailable());
    launchOverhead(20000, !overheadOnly);
    compileTimes(5);
    diffusionGraph(5);
    if (overheadOnly)
      return 0;
    deviceCopy(50);
    vectorAdd(200);
    diffusion(20);
    matmul(200);
    reduction(200);
  } catch (const pyk::Error& e) {
    bench::fail(e.what());
  }
  return 0;
}
