// MultidimensionalSubscriptLaunch: under C++23, `kernel[grid, block](args...)` and
// `kernel[grid, block, stream, shared](args...)` launch as numba's syntax does.
#include <cstdlib>
#include <iostream>
#include <vector>

#include "pyk/pyk.hpp"

int main() {
  pyk::Module m = pyk::loads("from numba import cuda\n\n@cuda.jit\ndef fill(a, v):\n"
                             "    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = v\n",
                             "fill.pyk");
  auto a = pyk::device_array<std::int32_t>(100);
  m["fill"][4, 32](a, std::int32_t{7});
  for (std::int32_t v : a.copy_to_host())
    if (v != 7) {
      std::cerr << "kernel[grid, block] did not fill the array\n";
      return 1;
    }
  m["fill"][pyk::Dim3(2), pyk::Dim3(64), pyk::stream(), 0](a, std::int32_t{9});
  for (std::int32_t v : a.copy_to_host())
    if (v != 9) {
      std::cerr << "kernel[grid, block, stream, shared] did not fill the array\n";
      return 1;
    }
  std::cout << "ok\n";
  return 0;
}
