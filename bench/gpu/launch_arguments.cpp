// launch_arguments: the host's cost of one pyk launch as the argument count grows (0, 1, 3, 16, 64
// and 256 arguments, all scalars or all arrays), against a raw cuLaunchKernel of the same
// CUfunction through the same driver with the same parameter bytes (built beforehand, as a C++
// program calling the Driver API keeps its arguments in variables). pyk's overhead is the
// difference. Each launch is pyk's C++ call syntax, `kernel[shape](args...)`, which builds the
// argument list, finds the specialization and lays the arguments out at every call.
//
// Runs wherever pyk's CUDA backend does: on a GPU, or with PYK_LIBCUDA and PYK_LIBNVRTC naming the
// tests' fake driver and NVRTC (bench/gpu/run_launch_arguments.sh does that), where a launch runs
// nothing and the raw call costs what the fake's bookkeeping costs. Prints a Markdown table: the
// median over rounds of the time per launch of back-to-back launches of 1 block of 1 thread.
//
// usage: PYK_BACKEND=cuda pyk_bench_launch_arguments [ROUNDS]
#include "../cpu/bench_common.h"
#include "raw_launch.h"

#include <pyk/pyk.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

constexpr int kCounts[] = {0, 1, 3, 16, 64, 256};
constexpr int kLaunchesPerBatch = 1000; // then a synchronize: a GPU's launch queue stays short
int rounds = 15;

// A module with a kernel `scalars_N` and `arrays_N` for each count: the parameters unused, as in
// the empty kernel of bench/gpu/kernels/empty.pyk (the cost measured is the host's).
std::string kernelSource() {
  std::string s = "from numba import cuda\n";
  for (const char* kind : {"scalars", "arrays"})
    for (int n : kCounts) {
      s += "\n\n@cuda.jit\ndef " + std::string(kind) + "_" + std::to_string(n) + "(";
      for (int i = 0; i < n; ++i)
        s += (i ? ", a" : "a") + std::to_string(i);
      s += "):\n    pass\n";
    }
  return s;
}

// Time per call of `launch`, the median over rounds of batches (each ended by a synchronize that
// is not timed).
template <typename Launch>
double secondsPerLaunch(Launch&& launch) {
  for (int i = 0; i < 200; ++i)
    launch();
  pyk::synchronize();
  std::vector<double> per;
  for (int round = 0; round < rounds; ++round) {
    double total = 0;
    for (int batch = 0; batch < 10; ++batch) {
      const double start = bench::now();
      for (int i = 0; i < kLaunchesPerBatch; ++i)
        launch();
      total += bench::now() - start;
      pyk::synchronize();
    }
    per.push_back(total / (10.0 * kLaunchesPerBatch));
  }
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}

using bench::RawLaunch;

// A 1-D float32 array's parameter bytes, as the entry point reads them (pyk::Array: the data
// pointer, then shape and strides in 64 bits).
struct ArrayParameter {
  void* data;
  std::int64_t shape, stride;
};

struct Row {
  const char* kind;
  int count;
  double pyk, raw;
};

template <int N, typename Argument>
Row measure(const pyk::Module& module, const char* kind, const std::array<Argument, N>& args,
            RawLaunch raw) {
  const pyk::Kernel kernel = module[std::string(kind) + "_" + std::to_string(N)];
  const pyk::LaunchShape one{pyk::Dim3(1), pyk::Dim3(1)};
  auto launchPyk = [&] { std::apply([&](const auto&... a) { kernel[one](a...); }, args); };

  // The raw launch: the same function and parameter bytes.
  std::array<pyk::KernelArgument, N> list;
  for (int i = 0; i < N; ++i)
    list[i] = pyk::KernelArgument::of(args[i]);
  void* function = kernel.cuda_function(list);
  std::array<float, N> scalars{};
  std::array<ArrayParameter, N> arrays{};
  std::array<void*, N + 1> pointers{};
  for (int i = 0; i < N; ++i) {
    if constexpr (std::is_same_v<Argument, float>) {
      scalars[i] = args[i];
      pointers[i] = &scalars[i];
    } else {
      arrays[i] = {static_cast<void*>(args[i].device_data()), args[i].shape()[0],
                   args[i].strides()[0]};
      pointers[i] = &arrays[i];
    }
  }
  auto launchRaw = [&] {
    if (raw(function, 1, 1, 1, 1, 1, 1, 0, nullptr, N > 0 ? pointers.data() : nullptr, nullptr) !=
        0)
      bench::fail("raw cuLaunchKernel failed");
  };
  // Interleaved, so a slow spell of the machine falls on both.
  double pykSeconds = 0, rawSeconds = 0;
  std::vector<double> p, r;
  for (int i = 0; i < 3; ++i) {
    p.push_back(secondsPerLaunch(launchPyk));
    r.push_back(secondsPerLaunch(launchRaw));
  }
  std::sort(p.begin(), p.end());
  std::sort(r.begin(), r.end());
  pykSeconds = p[1];
  rawSeconds = r[1];
  return {kind, N, pykSeconds, rawSeconds};
}

template <int N>
void measureCount(const pyk::Module& module, const std::vector<pyk::DeviceArray<float, 1>>& pool,
                  RawLaunch raw, std::vector<Row>& rows) {
  // PYK_BENCH_ONLY=N: only launches of N arguments (for a profiler)
  if (const char* only = std::getenv("PYK_BENCH_ONLY"); only != nullptr && std::atoi(only) != N)
    return;
  std::array<float, N> scalars{};
  for (int i = 0; i < N; ++i)
    scalars[i] = static_cast<float>(i) + 0.5f;
  rows.push_back(measure<N>(module, "scalars", scalars, raw));
  std::array<pyk::DeviceArray<float, 1>, N> arrays;
  for (int i = 0; i < N; ++i)
    arrays[i] = pool[static_cast<std::size_t>(i)];
  rows.push_back(measure<N>(module, "arrays", arrays, raw));
}

const char* goalFor(int count) {
  return count == 16 ? "≤ raw + 100 ns" : count == 256 ? "≤ raw + 1 µs" : "";
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1)
    rounds = std::max(3, std::atoi(argv[1]));
  try {
    if (pyk::current_backend() != pyk::Backend::Cuda)
      bench::fail("pyk's CUDA backend is not available: " + pyk::cuda_unavailable());
    const pyk::Module module = pyk::loads(kernelSource(), "launch_arguments.pyk");
    std::vector<pyk::DeviceArray<float, 1>> pool;
    for (int i = 0; i < 256; ++i)
      pool.push_back(pyk::device_array<float>(16));
    const RawLaunch raw = bench::rawLaunch();
    std::vector<Row> rows;
    measureCount<0>(module, pool, raw, rows);
    measureCount<1>(module, pool, raw, rows);
    measureCount<3>(module, pool, raw, rows);
    measureCount<16>(module, pool, raw, rows);
    measureCount<64>(module, pool, raw, rows);
    measureCount<256>(module, pool, raw, rows);
    const char* driver = std::getenv("PYK_LIBCUDA");
    const std::vector<pyk::GpuInfo> devices = pyk::gpus();
    std::printf(
        "- driver: %s; device: %s\n", driver != nullptr && *driver ? driver : "libcuda.so.1",
        devices.empty() ? "none"
                        : devices[static_cast<std::size_t>(pyk::current_device())].name.c_str());
    std::printf("- host time per launch of 1 block of 1 thread, back to back in batches of %d; "
                "median of %d rounds, the middle of 3 interleaved pyk/raw measurements\n\n",
                kLaunchesPerBatch, rounds);
    std::printf("| arguments | kind | pyk | raw cuLaunchKernel | pyk - raw | goal | met |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    int missed = 0;
    for (const Row& row : rows) {
      const double extra = (row.pyk - row.raw) * 1e9;
      const double limit = row.count == 16 ? 100 : row.count == 256 ? 1000 : -1;
      const bool met = limit < 0 || extra <= limit;
      missed += met ? 0 : 1;
      std::printf("| %d | %s | %.0f ns | %.0f ns | %+.0f ns | %s | %s |\n", row.count, row.kind,
                  row.pyk * 1e9, row.raw * 1e9, extra, goalFor(row.count),
                  limit < 0 ? ""
                  : met     ? "met"
                            : "**missed**");
    }
    return missed == 0 ? 0 : 3;
  } catch (const std::exception& e) {
    bench::fail(e.what());
  }
}
