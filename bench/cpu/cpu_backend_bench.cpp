// cpu_backend_bench: pyk's CPU backend on the benchmark kernels of bench/cpu/kernels/ (vector add,
// shared-memory diffusion, tiled matmul, block reduction in the kernel and in a device function,
// a shared-memory histogram with atomics), in the mode the backend picks (loop or
// split) and with every kernel forced onto fibers (the setting PYK_CPU_MODE=fiber gives, made
// before a second instance of each module is loaded). Each kernel is launched once untimed (it
// compiles) and checked against a serial reference; then the median of several timed repetitions is
// printed as a RESULT line (see bench_common.h). Fiber runs that would take long are measured on a
// smaller problem and scaled linearly by the work, which the note of their line says.
//
// usage: pyk_bench_cpu_backend [KERNEL_DIR] [--only WORKLOAD] [--no-fiber | --fiber-only]
//        (workers: PYK_CPU_THREADS, default every core)
#include "bench_common.h"

#include <pyk/pyk.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace {

using std::int64_t;

#ifndef PYK_BENCH_KERNEL_DIR
#define PYK_BENCH_KERNEL_DIR "bench/cpu/kernels"
#endif

std::filesystem::path kernelDir = PYK_BENCH_KERNEL_DIR;

template <typename... Args>
std::string modeOf(const pyk::Kernel& kernel, const Args&... args) {
  const pyk::KernelArgument list[] = {pyk::KernelArgument::of(args)...};
  return kernel.execution_mode(std::span<const pyk::KernelArgument>(list, sizeof...(Args)));
}

int64_t blocksFor(int64_t n, int64_t per) {
  return (n + per - 1) / per;
}

// The label of a measurement: the mode the backend ran, and the scaling when the problem was
// smaller than the benchmark's.
std::string noteOf(const std::string& mode, double scale, const std::string& measured) {
  std::string note = "mode: " + mode;
  if (scale != 1.0) {
    char text[160];
    std::snprintf(text, sizeof text, "; measured on %s, scaled x%g by work", measured.c_str(),
                  scale);
    note += text;
  }
  return note;
}

// The first launch (the compile when the disk cache does not have the kernel: run_cpu_bench.sh
// gives each round an empty cache folder with the precompiled support header in it), reported as
// `pyk-first-launch` for pyk's own mode.
// Then a second launch, which asks for a split kernel's specialization for the block shape, and
// the wait for that background compile, so that the timed launches run what a program running
// for long runs.
template <typename Launch>
void firstLaunch(const char* workload, const std::string& impl, Launch&& launch) {
  const double start = bench::now();
  launch();
  const double seconds = bench::now() - start;
  if (impl == "pyk")
    bench::report(workload, "pyk-first-launch", seconds, 1, "the compile and one launch");
  launch();
  pyk::wait_for_compiles();
}

// ---- the workloads ----------------------------------------------------------------------------

void vectorAdd(const std::string& impl, int64_t n, int reps) {
  const pyk::Module module = pyk::load(kernelDir / "vector_add.pyk");
  const pyk::Kernel kernel = module["vector_add"];
  const auto ha = bench::randomValues(n, 1), hb = bench::randomValues(n, 2);
  const auto a = pyk::to_device(ha), b = pyk::to_device(hb);
  const auto out = pyk::device_array_like(a);
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 256)), pyk::Dim3(256)};
  firstLaunch("vector_add", impl, [&] { kernel[shape](a, b, out); });
  bench::checkClose(impl + " vector_add", out.copy_to_host(), bench::referenceVectorAdd(ha, hb), 0,
                    0);
  const double t = bench::medianSeconds(reps, [&] { kernel[shape](a, b, out); });
  const double scale = static_cast<double>(bench::kVectorSize) / static_cast<double>(n);
  bench::report("vector_add", impl, t * scale, reps,
                noteOf(modeOf(kernel, a, b, out), scale, std::to_string(n) + " elements"));
}

void diffusion(const std::string& impl, int steps, int reps) {
  const pyk::Module module = pyk::load(kernelDir / "diffusion.pyk");
  const pyk::Kernel kernel = module["diffusion_step"];
  const int64_t rows = bench::kDiffusionRows, cols = bench::kDiffusionCols;
  const auto init = bench::randomValues(rows * cols, 3);
  auto f = pyk::to_device<float, 2>(init, {rows, cols});
  auto g = pyk::device_array_like(f);
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(cols, 32), blocksFor(rows, 8)),
                               pyk::Dim3(32, 8)};
  const float coeff = bench::kDiffusionCoeff;
  auto run = [&] {
    for (int s = 0; s < steps; ++s) {
      kernel[shape](f, g, coeff);
      std::swap(f, g);
    }
  };
  firstLaunch("diffusion", impl, [&] { kernel[shape](f, g, coeff); });
  f.copy_from_host(init.data());
  run();
  bench::checkClose(impl + " diffusion", f.copy_to_host(),
                    bench::referenceDiffusion(init, rows, cols, coeff, steps), 1e-5, 1e-5);
  const double t = bench::medianSeconds(
      reps, [&] { f.copy_from_host(init.data()); }, run);
  const double scale = static_cast<double>(bench::kDiffusionSteps) / steps;
  bench::report("diffusion", impl, t * scale, reps,
                noteOf(modeOf(kernel, f, g, coeff), scale, std::to_string(steps) + " steps"));
}

void matmul(const std::string& impl, int64_t n, int reps) {
  const pyk::Module module = pyk::load(kernelDir / "matmul.pyk");
  const pyk::Kernel kernel = module["matmul"];
  const auto ha = bench::randomValues(n * n, 4), hb = bench::randomValues(n * n, 5);
  const auto a = pyk::to_device<float, 2>(ha, {n, n}), b = pyk::to_device<float, 2>(hb, {n, n});
  const auto c = pyk::device_array_like(a);
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 16), blocksFor(n, 16)), pyk::Dim3(16, 16)};
  firstLaunch("matmul", impl, [&] { kernel[shape](a, b, c); });
  bench::checkClose(impl + " matmul", c.copy_to_host(), bench::referenceMatmul(ha, hb, n), 1e-4,
                    1e-3);
  const double t = bench::medianSeconds(reps, [&] { kernel[shape](a, b, c); });
  const double ratio = static_cast<double>(bench::kMatmulSize) / static_cast<double>(n);
  const double scale = ratio * ratio * ratio;
  bench::report("matmul", impl, t * scale, reps,
                noteOf(modeOf(kernel, a, b, c), scale,
                       std::to_string(n) + "x" + std::to_string(n) + " (n^3 work)"));
}

// `file`: reduction.pyk (the tree in the kernel) or reduction_helper.pyk (the tree in a device
// function the kernel calls, workload `reduction_helper`).
void reduction(const std::string& impl, int64_t n, int reps, const char* file = "reduction.pyk",
               const char* workload = "reduction") {
  const pyk::Module module = pyk::load(kernelDir / file);
  const pyk::Kernel kernel = module["block_sum"];
  const auto ha = bench::randomValues(n, 6);
  const double want = bench::referenceSum(ha);
  const auto a = pyk::to_device(ha);
  auto total = pyk::device_array<float>(1);
  const float zero = 0.0f;
  const pyk::LaunchShape shape{pyk::Dim3(blocksFor(n, 256)), pyk::Dim3(256)};
  auto check = [&](const char* when) {
    const float got = total.copy_to_host()[0];
    if (!(std::fabs(got - want) <= 1e-4 * want))
      bench::fail(impl + " " + workload + " (" + when + "): " + std::to_string(got) +
                  ", expected " + std::to_string(want));
  };
  total.copy_from_host(&zero);
  firstLaunch(workload, impl, [&] { kernel[shape](a, total); });
  total.copy_from_host(&zero); // the two launches above added twice
  kernel[shape](a, total);
  check("first run");
  const double t = bench::medianSeconds(
      reps, [&] { total.copy_from_host(&zero); }, [&] { kernel[shape](a, total); });
  check("timed run");
  const double scale = static_cast<double>(bench::kReductionSize) / static_cast<double>(n);
  bench::report(workload, impl, t * scale, reps,
                noteOf(modeOf(kernel, a, total), scale, std::to_string(n) + " elements"));
}

// The 256-bin histogram of kHistogramSize values: 256 threads a block, each block a grid-stride
// share of the input (numba users size the grid to the machine: 64 blocks here).
void histogram(const std::string& impl, int64_t n, int reps) {
  const pyk::Module module = pyk::load(kernelDir / "histogram.pyk");
  const pyk::Kernel kernel = module["histogram"];
  const auto hv = bench::histogramValues(n, bench::kHistogramBins, 7);
  const auto want = bench::referenceHistogram(hv, bench::kHistogramBins);
  const auto values = pyk::to_device(hv);
  const std::vector<std::int32_t> zeros(bench::kHistogramBins, 0);
  auto bins = pyk::to_device(zeros);
  const pyk::LaunchShape shape{pyk::Dim3(64), pyk::Dim3(256)};
  auto check = [&](const char* when) {
    if (bins.copy_to_host() != want)
      bench::fail(impl + " histogram (" + when + "): the bins differ from the reference");
  };
  firstLaunch("histogram", impl, [&] { kernel[shape](values, bins); });
  bins.copy_from_host(zeros.data());
  kernel[shape](values, bins);
  check("first run");
  const double t = bench::medianSeconds(
      reps, [&] { bins.copy_from_host(zeros.data()); }, [&] { kernel[shape](values, bins); });
  check("timed run");
  const double scale = static_cast<double>(bench::kHistogramSize) / static_cast<double>(n);
  bench::report("histogram", impl, t * scale, reps,
                noteOf(modeOf(kernel, values, bins), scale, std::to_string(n) + " values"));
}

// What a small launch costs: vector_add on 64 blocks of 256 threads (16K elements, a few
// microseconds of work), in loop mode: the workers are woken, share the blocks, and the launch
// waits for them.
void launchOverhead(int reps) {
  const pyk::Module module = pyk::load(kernelDir / "vector_add.pyk");
  const pyk::Kernel kernel = module["vector_add"];
  const std::vector<float> h(64 * 256, 1.0f);
  const auto a = pyk::to_device(h), b = pyk::to_device(h);
  const auto out = pyk::device_array_like(a);
  const pyk::LaunchShape shape{pyk::Dim3(64), pyk::Dim3(256)};
  kernel[shape](a, b, out);
  const double t = bench::medianSeconds(reps, [&] { kernel[shape](a, b, out); });
  bench::report("launch_overhead", "pyk", t, reps, "64 blocks of 256 threads, loop mode");
}

} // namespace

int main(int argc, char** argv) {
  std::string only;
  bool fibers = true, automatic = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (std::strcmp(argv[i], "--no-fiber") == 0)
      fibers = false;
    else if (std::strcmp(argv[i], "--fiber-only") == 0)
      automatic = false;
    else
      kernelDir = argv[i];
  }
  auto wanted = [&](const char* w) { return only.empty() || only == w; };
  const char* threads = std::getenv("PYK_CPU_THREADS");
  std::fprintf(stderr, "cpu_backend_bench: %s workers, kernels from %s\n",
               threads != nullptr ? threads
                                  : std::to_string(std::thread::hardware_concurrency()).c_str(),
               kernelDir.c_str());
  try {
    // The mode the backend picks.
    pyk::RuntimeSettings settings = pyk::settings();
    settings.cpu_mode = pyk::CpuMode::Auto;
    pyk::set_settings(settings);
    if (automatic) {
      if (wanted("vector_add"))
        vectorAdd("pyk", bench::kVectorSize, 30);
      if (wanted("diffusion"))
        diffusion("pyk", bench::kDiffusionSteps, 5);
      if (wanted("matmul"))
        matmul("pyk", bench::kMatmulSize, 20);
      if (wanted("reduction"))
        reduction("pyk", bench::kReductionSize, 30);
      if (wanted("reduction_helper"))
        reduction("pyk", bench::kReductionSize, 30, "reduction_helper.pyk", "reduction_helper");
      if (wanted("histogram"))
        histogram("pyk", bench::kHistogramSize, 30);
      if (wanted("launch_overhead"))
        launchOverhead(2001);
    }

    // Every kernel on fibers: the setting is read when a kernel is specialized, so the modules
    // are loaded again after it is set.
    if (fibers) {
      settings.cpu_mode = pyk::CpuMode::Fiber;
      const pyk::ScopedSettings onFibers(settings);
      if (wanted("vector_add"))
        vectorAdd("pyk-fiber", bench::kVectorSize, 5);
      if (wanted("diffusion"))
        diffusion("pyk-fiber", 10, 3);
      if (wanted("matmul"))
        matmul("pyk-fiber", bench::kMatmulSize, 3);
      if (wanted("reduction"))
        reduction("pyk-fiber", bench::kReductionSize / 4, 3);
      if (wanted("reduction_helper"))
        reduction("pyk-fiber", bench::kReductionSize / 4, 3, "reduction_helper.pyk",
                  "reduction_helper");
      if (wanted("histogram"))
        histogram("pyk-fiber", bench::kHistogramSize / 4, 3);
    }
  } catch (const pyk::Error& e) {
    bench::fail(std::string("pyk: ") + e.what());
  }
  return 0;
}
