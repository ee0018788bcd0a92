// vector_add: seed 003's vector addition of ten million random floats, c = a + b, one thread per
// element, timed against the same loop in plain C++ on one CPU core. The first launch compiles
// the kernel; the time reported is the mean of the launches after it, as the seed's timeit.
#include <random>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    const std::int64_t n = 10'000'000;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> a(n), b(n);
    for (std::int64_t i = 0; i < n; ++i) {
      a[i] = uniform(rng);
      b[i] = uniform(rng);
    }

    // The CPU version: a loop adding one pair after another.
    std::vector<float> expected(n);
    const double loop = example::seconds([&] {
      for (std::int64_t i = 0; i < n; ++i)
        expected[i] = a[i] + b[i];
    });

    pyk::Kernel vectorAdd = pyk::load(o.examples / "vector_add.pyk")["vector_add"];
    pyk::DeviceArray<float, 1> da, db, dc;
    const double copyIn = example::seconds([&] {
      da = pyk::to_device(a);
      db = pyk::to_device(b);
      dc = pyk::device_array_like(da);
    });
    const std::int64_t threads = 256, blocks = (n + threads - 1) / threads;
    const double first = example::seconds([&] { vectorAdd[{blocks, threads}](da, db, dc); });
    const int repeats = 10;
    const double kernel = example::seconds([&] {
                            for (int r = 0; r < repeats; ++r)
                              vectorAdd[{blocks, threads}](da, db, dc);
                          }) /
                          repeats;
    std::vector<float> c;
    const double copyOut = example::seconds([&] { c = dc.copy_to_host(); });

    std::printf("10M floats: C++ loop %.2f ms; kernel %.3f ms per launch (%.1fx; first launch, "
                "compiling, %.0f ms); copies in %.1f ms, out %.1f ms\n",
                loop * 1e3, kernel * 1e3, loop / kernel, first * 1e3, copyIn * 1e3, copyOut * 1e3);
    example::result("vector_add_10M", kernel, c == expected);
    example::result("vector_add_10M_cpp_loop", loop, true, "host");
  });
}
