// monte_carlo_pi: pi from 2.6 billion random points (1,024 blocks of 256 threads, 10,000 points a
// thread; a tenth of that on the CPU backend). Each thread has its own xoroshiro128+ generator,
// made by pyk::random::create_xoroshiro128p_states as numba.cuda.random makes them, and counts the
// points (x, y) in the unit square with x*x + y*y <= 1. The estimate must be within five standard
// deviations of the binomial count of pi; the states must be numba's (state 0 of seed 1 is
// checked against the value numba's create_xoroshiro128p_states gives).
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Kernel countInside = pyk::load(o.examples / "monte_carlo_pi.pyk")["count_inside"];
    const std::int64_t threads_per_block = 256, blocks = 1024;
    const std::int64_t samplesPerThread = example::onGpu() ? 10'000 : 1'000;
    const std::int64_t n = threads_per_block * blocks;

    pyk::AnyDeviceArray rngStates;
    const double statesSecs =
        example::seconds([&] { rngStates = pyk::random::create_xoroshiro128p_states(n, 1); });
    pyk::random::Xoroshiro128pState first;
    std::memcpy(&first, rngStates.copy_to_host().bytes.data(), sizeof first);
    // numba: create_xoroshiro128p_states(1, seed=1).copy_to_host()[0]
    const bool numbaStates = first.s0 == 0x910a2dec89025cc1ULL && first.s1 == 0x910a2dec89025cc1ULL;
    std::printf("%lld generator states in %.1f ms; state 0 = (%#llx, %#llx)%s\n", (long long)n,
                statesSecs * 1e3, (unsigned long long)first.s0, (unsigned long long)first.s1,
                numbaStates ? ", numba's" : ", NOT numba's");

    auto inside = pyk::device_array<std::int64_t>(n);
    countInside[{blocks, threads_per_block}](rngStates, std::int64_t{1}, inside); // compiles
    rngStates = pyk::random::create_xoroshiro128p_states(n, 1);
    const double secs = example::seconds([&] {
      countInside[{blocks, threads_per_block}](rngStates, samplesPerThread, inside);
    });
    std::int64_t hits = 0;
    for (std::int64_t h : inside.copy_to_host())
      hits += h;
    const double total = static_cast<double>(n) * samplesPerThread;
    const double pi = 4.0 * hits / total;
    const double quarter = std::numbers::pi / 4;
    const double sigma = 4 * std::sqrt(quarter * (1 - quarter) / total);
    std::printf(
        "pi ~ %.8f from %.3g points (error %.2e, %.1f standard deviations); %.2f Gpoints/s\n", pi,
        total, pi - std::numbers::pi, std::abs(pi - std::numbers::pi) / sigma, total / secs * 1e-9);
    example::result("monte_carlo_pi", secs,
                    numbaStates && std::abs(pi - std::numbers::pi) < 5 * sigma);
  });
}
