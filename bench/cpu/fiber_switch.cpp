// fiber_switch: what a block barrier costs on the CPU engine, in nanoseconds per barrier per
// thread: fiber mode (syncthreads switches fibers) against loop mode (the barrier is the end of a
// loop over the block's threads, as loop fission generates), and a warp shuffle in fiber mode.
//
// usage: pyk_bench_fiber_switch [workers]   (default: one worker, then every core)
#include "cpu/CpuEngine.h"
#include "cpu/pyk_cpu_support.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

using namespace pyk;
using namespace pyk::cpu;

constexpr int32 kMaxRounds = 1 << 20;

struct Workload {
  int32 rounds;
  int64* sink; // one slot per thread of the grid, so nothing is optimised away
};

// A trivial kernel body between barriers: one add per thread per round.
void fiberBarrierThread(Thread& thread, void** args) {
  const Workload& work = *static_cast<Workload*>(args[0]);
  int64 value = thread.linearIndex;
  for (int32 round = 0; round < work.rounds; ++round) {
    value += round;
    syncthreads(thread);
  }
  const Block& block = *thread.block;
  work.sink[block.blockIdx.x * volumeOf(block.blockDim) + thread.linearIndex] = value;
}

void fiberShuffleThread(Thread& thread, void** args) {
  const Workload& work = *static_cast<Workload*>(args[0]);
  int64 value = thread.linearIndex;
  for (int32 round = 0; round < work.rounds; ++round)
    value += shfl_xor_sync(thread, kFullWarpMask, value, 1);
  const Block& block = *thread.block;
  work.sink[block.blockIdx.x * volumeOf(block.blockDim) + thread.linearIndex] = value;
}

// The same work split at the barrier: per-thread values live in an array across the split.
void loopBarrierBlock(Block& block, void** args) {
  const Workload& work = *static_cast<Workload*>(args[0]);
  const uint32 threads = static_cast<uint32>(volumeOf(block.blockDim));
  int64 values[kMaxThreadsPerBlock];
  for (uint32 t = 0; t < threads; ++t)
    values[t] = t;
  for (int32 round = 0; round < work.rounds; ++round) {
    for (uint32 t = 0; t < threads; ++t)
      values[t] += round;
    // barrier: the next round's loop starts after every thread's iteration of this one
    asm volatile("" : : "r"(values) : "memory");
  }
  for (uint32 t = 0; t < threads; ++t)
    work.sink[block.blockIdx.x * threads + t] = values[t];
}

// ns per barrier per thread for `kernel` over `blocks` blocks of `threads` threads.
double measure(CpuEngine& engine, const KernelEntry& kernel, uint32 blocks, uint32 threads,
               int32 rounds) {
  std::vector<int64> sink(static_cast<size_t>(blocks) * threads);
  Workload work{rounds, sink.data()};
  void* args[] = {&work};
  engine.launch(kernel, Dim3{blocks}, Dim3{threads}, 0, 0, args); // warm: stacks, pages
  double best = 1e300;
  for (int repeat = 0; repeat < 5; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    engine.launch(kernel, Dim3{blocks}, Dim3{threads}, 0, 0, args);
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns / (static_cast<double>(blocks) * threads * rounds));
  }
  return best;
}

void report(unsigned workers) {
  CpuEngine engine(CpuSettings{workers, CpuSettings::kDefaultFiberStackBytes, {}});
  KernelEntry fiberBarrier{"fiber_barrier", ExecutionMode::Fiber, nullptr, fiberBarrierThread};
  KernelEntry fiberShuffle{"fiber_shuffle", ExecutionMode::Fiber, nullptr, fiberShuffleThread};
  KernelEntry loopBarrier{"loop_barrier", ExecutionMode::Loop, loopBarrierBlock, nullptr};
  std::printf("%u worker%s: wall ns / (threads x barriers or shuffles), best of 5\n", workers,
              workers == 1 ? "" : "s");
  std::printf("%8s %8s %14s %14s %14s\n", "threads", "blocks", "fiber sync", "loop split",
              "fiber shfl");
  for (uint32 threads : {32u, 256u, 1024u}) {
    const uint32 blocks = 4 * workers;
    const int32 rounds = 2000;
    std::printf("%8u %8u %14.2f %14.3f %14.2f\n", threads, blocks,
                measure(engine, fiberBarrier, blocks, threads, rounds),
                measure(engine, loopBarrier, blocks, threads, rounds),
                measure(engine, fiberShuffle, blocks, threads, rounds));
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    report(static_cast<unsigned>(std::atoi(argv[1])));
    return 0;
  }
  report(1);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (cores > 1) {
    std::printf("\n");
    report(cores);
  }
  return 0;
}
