// grid_index_add: seed 004's add_kernel, each thread finding its element with cuda.grid(1):
// out = x + y for x = 0..4095 (int32) and y = 1, on 32 blocks of 128 threads.
#include <numeric>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Kernel addKernel = pyk::load(o.examples / "grid_index_add.pyk")["add_kernel"];
    const std::int64_t n = 4096;
    std::vector<std::int32_t> x(n), y(n, 1);
    std::iota(x.begin(), x.end(), 0);
    auto xOnDevice = pyk::to_device(x);
    auto yOnDevice = pyk::to_device(y);
    auto outOnDevice = pyk::device_array_like(xOnDevice);
    const int blocksPerGrid = 32, threads_per_block = 128;
    const double secs = example::seconds([&] {
      addKernel[{blocksPerGrid, threads_per_block}](xOnDevice, yOnDevice, outOnDevice);
    });
    std::vector<std::int32_t> out = outOnDevice.copy_to_host();
    std::printf("[%d %d %d ... %d %d %d]\n", out[0], out[1], out[2], out[n - 3], out[n - 2],
                out[n - 1]);
    std::vector<std::int32_t> expected(n);
    std::iota(expected.begin(), expected.end(), 1);
    example::result("add_kernel_grid1", secs, out == expected);
  });
}
