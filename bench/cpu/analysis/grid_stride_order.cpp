// grid_stride_order: what the order of a grid-stride loop's memory accesses costs on this machine,
// whatever the code generator does with the loop's body. The benchmark's histogram (64 blocks of
// 256 threads, a grid-stride loop over 16M int32) gives block b elements [b*256, b*256 + 256) of
// every 64 KiB stretch; hand OpenMP reads each thread's half of the array in order. Runs the same
// body (a 256-bin count) in those orders on 2 threads (OpenMP), with no pyk code at all:
//   per block       each thread runs its 32 blocks one after another, each block's rounds in
//                   order (what a CPU backend that keeps numba's blocks intact does; pyk's order)
//   K blocks        each thread runs its blocks K at a time, round by round across the K (blocks
//                   interleaved: still faithful to numba's assignment of elements to blocks)
//   in order        each thread its contiguous half (hand OpenMP's order)
// The ratio of "in order" to "K = 32 blocks" says how close to hand OpenMP such an order comes
// (a measurement of these orders, not a proof about all). Prints "ORDER|name|ms" lines (medians
// of 21).
//
// Build and run: g++ -O3 -march=native -fopenmp bench/cpu/analysis/grid_stride_order.cpp -o
// /tmp/gso
//                && /tmp/gso
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int64_t kValues = 16 * 1024 * 1024;
constexpr int kBlocks = 64, kThreadsPerBlock = 256, kBins = 256, kWorkers = 2;
constexpr int64_t kGridStride = int64_t{kBlocks} * kThreadsPerBlock;

template <typename Body>
double medianMs(Body&& body) {
  std::vector<double> times;
  for (int round = 0; round < 21; ++round) {
    const auto start = std::chrono::steady_clock::now();
    body();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main() {
  std::vector<int32_t> values(kValues);
  std::mt19937 random(7);
  for (int32_t& v : values)
    v = static_cast<int32_t>(random() % kBins);
  const int32_t* __restrict data = values.data();
  std::vector<int64_t> checks; // each order's total count: every element once
  int64_t total = 0;

  // Each worker counts into bins of its own; `order(worker, count)` visits its elements.
  auto run = [&](const char* name, auto order) {
    const double ms = medianMs([&] {
      int64_t counted = 0;
#pragma omp parallel num_threads(kWorkers) reduction(+ : counted)
      {
        int32_t bins[kBins] = {};
        order(omp_get_thread_num(), [&](int64_t i) { ++bins[data[i]]; });
        for (int32_t b : bins)
          counted += b;
      }
      total = counted;
    });
    checks.push_back(total);
    std::printf("ORDER|%s|%.2f\n", name, ms);
  };

  const int blocksPerWorker = kBlocks / kWorkers;
  for (int k : {1, 4, 16, 32}) {
    char name[64];
    std::snprintf(name, sizeof name, k == 1 ? "per block" : "%d blocks interleaved", k);
    run(name, [&](int worker, auto&& count) {
      const int first = worker * blocksPerWorker;
      for (int group = first; group < first + blocksPerWorker; group += k)
        for (int64_t round = 0; round < kValues; round += kGridStride)
          for (int b = group; b < group + k; ++b)
            for (int t = 0; t < kThreadsPerBlock; ++t)
              count(round + int64_t{b} * kThreadsPerBlock + t);
    });
  }
  run("in order", [&](int worker, auto&& count) {
    for (int64_t i = worker * (kValues / kWorkers); i < (worker + 1) * (kValues / kWorkers); ++i)
      count(i);
  });
  for (int64_t c : checks)
    if (c != kValues) {
      std::fprintf(stderr, "grid_stride_order: an order counted %lld elements, not %lld\n",
                   static_cast<long long>(c), static_cast<long long>(kValues));
      return 1;
    }
  return 0;
}
