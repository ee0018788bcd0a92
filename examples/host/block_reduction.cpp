// block_reduction: the sum of 2**24 random float32 values, by blocks. Two launches of one kernel:
// 1,024 blocks of 256 threads each leave their block's sum in a partial array, then one block
// adds the partials. Two kernels: shared memory halved step by step (block_sums), and warp
// shuffles inside each warp (block_sums_shuffle). Both must match the sum in double precision
// to 1e-12; timed after a first, compiling, run.
#include <random>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Module module = pyk::load(o.examples / "block_reduction.pyk");
    const std::int64_t n = std::int64_t{1} << 24, blocks = 1024, tpb = 256;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(n);
    for (float& v : values)
      v = uniform(rng);
    double expected = 0;
    for (float v : values)
      expected += v;

    auto valuesDevice = pyk::to_device(values);
    auto partial = pyk::device_array<double>(blocks);
    auto total = pyk::device_array<double>(1);
    for (const char* name : {"block_sums", "block_sums_shuffle"}) {
      pyk::Kernel kernel = module[name];
      auto sum = [&] {
        kernel[{blocks, tpb}](valuesDevice, partial);
        kernel[{1, tpb}](partial, total);
      };
      sum();
      const double secs = example::seconds(sum);
      const double got = total.copy_to_host()[0];
      const double error = std::abs(got - expected) / expected;
      std::printf("%s: %.6f (expected %.6f, relative error %.1e), %.2f GB/s\n", name, got, expected,
                  error, n * sizeof(float) / secs * 1e-9);
      example::result(name, secs, error < 1e-12);
    }
  });
}
