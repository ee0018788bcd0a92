// first_launch: the first launch of a kernel built ahead of time (pyk_add_kernels) against the
// same kernel's first launch through the JIT, cold (an empty disk cache: the host compiler runs)
// and warm (the disk cache has it), on the CPU backend. Each figure is a fresh module; the JIT's
// in a fresh cache folder per cold round. Prints a Markdown table (medians of 5 rounds).
#include <algorithm>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_kernels.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main() {
  const std::size_t n = 1 << 20;
  auto x = pyk::to_device(std::vector<float>(n, 1.0f));
  auto y = pyk::to_device(std::vector<float>(n, 2.0f));
  const pyk::Dim3 grid{(n + 255) / 256}, block{256};

  // Built ahead: the module's front end (from its embedded source) and the launch.
  const auto start = Clock::now();
  bench_kernels::saxpy(grid, block, 2.0f, x, y);
  const double ahead = millisecondsSince(start);
  const auto again = Clock::now();
  bench_kernels::saxpy(grid, block, 2.0f, x, y);
  const double aheadSecond = millisecondsSince(again);

  const std::filesystem::path base =
      std::filesystem::temp_directory_path() / ("pyk-first-launch-" + std::to_string(::getpid()));
  std::vector<double> cold, warm;
  for (int round = 0; round < 5; ++round) {
    pyk::RuntimeSettings s = pyk::settings();
    s.cache_folder = base / std::to_string(round);
    s.compile_messages = false; // the table only
    pyk::ScopedSettings scoped(s);
    auto t = Clock::now();
    pyk::Module m = pyk::load(PYK_BENCH_AOT_SOURCE);
    m["saxpy"].launch(grid, block)(2.0f, x, y);
    cold.push_back(millisecondsSince(t));
    t = Clock::now();
    pyk::Module m2 = pyk::load(PYK_BENCH_AOT_SOURCE);
    m2["saxpy"].launch(grid, block)(2.0f, x, y);
    warm.push_back(millisecondsSince(t));
  }
  std::filesystem::remove_all(base);
  std::printf("| first launch of saxpy(float32, float32[::1], float32[::1]), CPU backend | ms |\n"
              "|---|---:|\n"
              "| built ahead of time (module load from its embedded source + launch) | %.2f |\n"
              "| built ahead of time, second launch | %.2f |\n"
              "| JIT, empty disk cache (host compiler runs), median of 5 | %.1f |\n"
              "| JIT, disk cache hit (fresh module), median of 5 | %.2f |\n",
              ahead, aheadSecond, median(cold), median(warm));
  return 0;
}
