// accumulate_array: seed 002's `b[idx] += a[idx]` over 2**20 floats, launched as the seed does
// (gpu[2**20, 4]: a block of 4 threads per element, most of them past the end), 100 times with
// fresh arrays; the first run compiles and is checked, the other 99 are timed against the same
// sum as a plain C++ loop (the seed's numpy.add).
#include <random>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Kernel gpu = pyk::load(o.examples / "accumulate_array.pyk")["gpu"];
    const std::int64_t n = std::int64_t{1} << 20;
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    std::vector<float> a(n), b(n), d(n);
    double kernelTime = 0, loopTime = 0;
    bool verified = true;
    for (int i = 0; i < 100; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        a[j] = normal(rng);
        b[j] = normal(rng);
      }
      auto aDevice = pyk::to_device(a);
      auto bDevice = pyk::to_device(b);
      const double kernel = example::seconds([&] { gpu[{n, 4}](aDevice, bDevice, n); });
      std::vector<float> c = bDevice.copy_to_host();
      const double loop = example::seconds([&] {
        for (std::int64_t j = 0; j < n; ++j)
          d[j] = a[j] + b[j];
      });
      if (i == 0) {
        double error = 0;
        for (std::int64_t j = 0; j < n; ++j)
          error += c[j] - d[j];
        std::printf("The error between the kernel and the C++ loop is: %g\n", error);
        verified = c == d;
        continue;
      }
      kernelTime += kernel;
      loopTime += loop;
    }
    std::printf("The time cost of the kernel is: %.4fs\nThe time cost of the C++ loop is: %.4fs\n",
                kernelTime, loopTime);
    example::result("b_plus_equals_a_x99", kernelTime, verified);
    example::result("b_plus_equals_a_x99_cpp_loop", loopTime, true, "host");
  });
}
